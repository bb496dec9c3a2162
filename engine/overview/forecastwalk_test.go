package overview_test

import (
	"io/fs"
	"strings"
	"testing"

	"github.com/memscope/memscope/engine/overview"
	"github.com/memscope/memscope/model"
)

// TestForecastLinesListOnlyProjects: the Cleanup and Lost lines (and
// Vault's, which shares their forecast) take the transcripts and the
// sessions history names, so on testdata/home and the demo they list
// projects/ and each project's folder and no other folder of the home:
// not the paste cache, file-history, the session folders nor the memory
// folders, which the whole forecast walks file by file (an lstat each)
// for lists no line shows. On the old code, the lines listed every one.
func TestForecastLinesListOnlyProjects(t *testing.T) {
	for _, h := range passHomes(t) {
		t.Run(h.name, func(t *testing.T) {
			home, err := model.OpenHome(h.dir, model.HomeFromFlag)
			if err != nil {
				t.Fatal(err)
			}
			walked := 0
			for _, d := range []string{model.PasteCacheDir, model.FileHistoryDir} {
				if _, err := fs.Stat(home.FS, d); err == nil {
					walked++
				}
			}
			if walked == 0 {
				t.Fatalf("%s has neither a paste cache nor file-history: the test shows nothing", h.dir)
			}
			c := &dirCountFS{FS: home.FS, dirs: map[string]int{}}
			s := passSource(t, h, c, newCache(t))
			for _, id := range []overview.ID{overview.Cleanup, overview.Vault, overview.Lost} {
				if l := overview.Compute(s, id); l.Text == "" {
					t.Errorf("%s: no text", id)
				}
			}
			projects := 0
			for d := range c.dirs {
				if d == "projects" || strings.HasPrefix(d, "projects/") && strings.Count(d, "/") == 1 {
					projects++
					continue
				}
				t.Errorf("the forecast's lines listed %s", d)
			}
			if projects < 2 {
				t.Errorf("%d projects folders listed: %v", projects, c.dirs)
			}
		})
	}
}

package ui

import (
	"io/fs"
	"sort"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"
)

// listingsFS counts the listings of each folder of the home.
type listingsFS struct {
	fs.FS
	mu sync.Mutex
	n  map[string]int
}

func (l *listingsFS) ReadDir(name string) ([]fs.DirEntry, error) {
	l.mu.Lock()
	l.n[name]++
	l.mu.Unlock()
	return fs.ReadDir(l.FS, name)
}

// At start the session folders of a project not open, and its folder,
// are listed once between the Live pane's first listing of the
// transcripts, the Projects list and the Overview's lines (the Live
// pane's listing walked the home on its own on the old code: twice).
func TestStartListsEachSessionFolderOnce(t *testing.T) {
	h := fixedHome(t)
	mfs := h.FS.(fstest.MapFS)
	const other = "-tmp-rc-work-gamma"
	const sess = "aaaaaaaa-0000-4000-8000-00000000000a"
	line := `{"type":"user","uuid":"u1","sessionId":"` + sess + `","timestamp":"2026-03-01T10:00:00.000Z","cwd":"/tmp/rc/work/gamma","message":{"role":"user","content":"hi"}}` + "\n"
	at := testNow.Add(-30 * time.Hour)
	for name, data := range map[string]string{
		sess + ".jsonl":                        line,
		sess + "/subagents/agent-a1.jsonl":     line,
		sess + "/subagents/agent-a1.meta.json": `{"agentType":"x"}`,
		sess + "/tool-results/t1.txt":          "result",
	} {
		mfs["projects/"+other+"/"+name] = &fstest.MapFile{Data: []byte(data), Mode: 0o644, ModTime: at}
	}
	lfs := &listingsFS{FS: mfs, n: map[string]int{}}
	h.FS = lfs
	loadedModel(t, Options{Home: h, Root: fstest.MapFS{}}, 120, 40)
	lfs.mu.Lock()
	defer lfs.mu.Unlock()
	var names []string
	for d := range lfs.n {
		if strings.HasPrefix(d, "projects/"+other) && !strings.Contains(d, "/memory") {
			names = append(names, d)
		}
	}
	sort.Strings(names)
	if len(names) < 3 {
		t.Fatalf("the start listed %v of %s", names, other)
	}
	for _, d := range names {
		if lfs.n[d] != 1 {
			t.Errorf("%s listed %d times", d, lfs.n[d])
		}
	}
}

package ui

import (
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/memscope/memscope/internal/storeshome"
	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/model"
)

// The panes read the one list of memory stores (model.HomeMemoryStores)
// that stat, search and secrets read (TestEveryCommandReadsEveryMemoryStore
// in cli/): on a home with every kind of store, the stores the open
// project's loads can show (m cycles them) cover every store, and the
// review reads the folder the client writes the project's auto memory
// to, as `memscope review` does. The project loader used to list only
// the home's auto memory and agent memory, and the review to read the
// home's projects/<slug>/memory even when the settings or the
// environment moved it.
func TestPanesReadEveryMemoryStore(t *testing.T) {
	t.Parallel()
	homeDir, env, want := storeshome.Write(t)
	work := filepath.Join(filepath.Dir(homeDir), "work")
	moved := map[string]string{
		filepath.Join(work, "a"): filepath.Join(filepath.Dir(homeDir), "moved"),
		filepath.Join(work, "b"): filepath.Join(env[model.EnvRemoteMemoryDir], "projects", model.Slug(filepath.Join(work, "b")), "memory"),
	}
	var shown []string
	for project, client := range moved {
		home, err := model.OpenHome(homeDir, model.HomeFromFlag)
		if err != nil {
			t.Fatal(err)
		}
		m := New(Options{Home: home, Project: project, Now: func() time.Time { return testNow }, Root: testroot.New(t),
			Getenv: func(k string) string { return env[k] }})
		m = drain(t, m, m.Init())
		p := *m.feeds.project.Cur()
		if p.Slug != model.Slug(project) || len(p.Stores) == 0 {
			t.Fatalf("%s: not opened (open %q, %d stores)", project, p.Slug, len(p.Stores))
		}
		if p.Stores[0].Dir != filepath.ToSlash(filepath.Join(homeDir, "projects", p.Slug, "memory")) {
			t.Errorf("%s: the first store is %s, want the home's auto memory folder", project, p.Stores[0].Dir)
		}
		for _, s := range p.Stores {
			if s.Exists && !slices.Contains(shown, s.Dir) {
				shown = append(shown, s.Dir)
			}
		}
		if got := m.feeds.project.ReviewOptions(p.Slug)().MemoryDir; got != filepath.ToSlash(client) {
			t.Errorf("%s: the review reads %s, want %s (where the client writes its memory)", project, got, client)
		}
		// m reaches every store, the moved auto memory folder included,
		// and comes back to the home's.
		seen := []string{p.AbsDir}
		for range p.Stores {
			m = drain(t, m, m.nextStore())
			seen = append(seen, m.feeds.project.Cur().AbsDir)
		}
		for i, s := range p.Stores {
			if seen[i] != s.Dir {
				t.Errorf("%s: m's store %d shows %s, want %s", project, i, seen[i], s.Dir)
			}
		}
		if last := seen[len(seen)-1]; last != p.Stores[0].Dir {
			t.Errorf("%s: m after the last store shows %s, want the home's auto memory again", project, last)
		}
	}
	sort.Strings(shown)
	if !slices.Equal(shown, want) {
		t.Errorf("the panes show the stores\n  %s\nwant\n  %s", strings.Join(shown, "\n  "), strings.Join(want, "\n  "))
	}
}

package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/keymap"
	"github.com/memscope/memscope/model"
)

// A home where Claude Code has not run yet (projects/ empty): no pane
// waits forever. Every pane ends in content, or in an empty state that
// says what to do, at start and after ctrl+r.
func TestEmptyHomeNoPaneWaits(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	dir := filepath.Join(root, "claude")
	work := filepath.Join(root, "work")
	for _, d := range []string{filepath.Join(dir, "projects"), work} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	home, err := model.OpenHome(dir, model.HomeFromFlag)
	if err != nil {
		t.Fatal(err)
	}
	for _, project := range []string{work, ""} {
		m := New(Options{Home: home, Project: project, Now: func() time.Time { return testNow }, Root: testroot.New(t),
			Getenv: func(string) string { return "" }})
		m = drain(t, m, m.Init())
		m = resize(t, m, 120, 40)
		for round, keys := range [][]string{nil, {"ctrl+r"}} {
			m = press(t, m, keys...)
			for i := 0; i < paneCount; i++ {
				key := keymap.PaneKey(i)
				m = press(t, m, key)
				if m.focus != i {
					t.Fatalf("key %s focused pane %d, want %d", key, m.focus, i)
				}
				s := screen(m)
				for _, waiting := range []string{"building the preview…", "checking memory…", "loading", "reading"} {
					if strings.Contains(s, waiting) {
						t.Errorf("project %q, round %d, pane %d still says %q after every load ended:\n%s", project, round, i+1, waiting, s)
					}
				}
			}
		}
	}
}

package ui

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/demo"
	"github.com/memscope/memscope/internal/faultfs"
	"github.com/memscope/memscope/internal/testenv"
	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/model"
)

// refuseUnder is a WriteFS that refuses to create files under dir with
// EROFS, as a read-only mount of that folder would.
type refuseUnder struct {
	model.OSWriteFS
	dir string
}

func (r refuseUnder) CreateTemp(dir, pattern string) (model.TempFile, error) {
	if dir == r.dir || strings.HasPrefix(dir, r.dir+string(filepath.Separator)) {
		return nil, &fs.PathError{Op: "open", Path: filepath.Join(dir, pattern), Err: syscall.EROFS}
	}
	return r.OSWriteFS.CreateTemp(dir, pattern)
}

// readOnlyModel runs the app on a fresh demo home whose writes go
// through writes(home) (permission bits stop nothing when tests run as
// root, so the refusal is injected).
func readOnlyModel(t *testing.T, writes func(l demo.Layout) model.WriteFS) (Model, demo.Layout) {
	t.Helper()
	l, err := demo.Materialize(t.TempDir(), testNow)
	if err != nil {
		t.Fatal(err)
	}
	home, err := model.OpenHome(l.Home, model.HomeFromDemo)
	if err != nil {
		t.Fatal(err)
	}
	m := New(Options{Home: home, Project: l.Project("shop-api"), Now: func() time.Time { return testNow }, Root: testroot.New(t),
		Getenv: func(string) string { return "" }, Writes: writes(l)})
	m = drain(t, m, m.Init())
	return resize(t, m, 200, 40), l
}

func resize(t *testing.T, m Model, w, h int) Model {
	t.Helper()
	next, cmd := m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return drain(t, next.(Model), cmd)
}

// A home, or only a project's memory folder, that refuses writes opens
// read-only: the banner names the folder, every editing key says the
// home is read-only instead of trying, and no file changes. A writable
// home shows no banner.
func TestReadOnlyHome(t *testing.T) {
	t.Parallel()
	memDir := func(l demo.Layout) string {
		return filepath.Join(l.Home, "projects", model.Slug(l.Project("shop-api")), "memory")
	}
	// The banner names a memory folder inside the home from the home.
	memRel := func(l demo.Layout) string {
		return filepath.Join("projects", model.Slug(l.Project("shop-api")), "memory")
	}
	tests := []struct {
		name     string
		writes   func(l demo.Layout) model.WriteFS
		readOnly func(l demo.Layout) string // the folder the banner names, "" for none
	}{
		{"writable", func(demo.Layout) model.WriteFS { return nil }, func(demo.Layout) string { return "" }},
		{"home on a read-only mount",
			func(demo.Layout) model.WriteFS {
				return &faultfs.FS{Step: faultfs.StepCreateTemp, Persist: true, Err: syscall.EROFS}
			},
			func(l demo.Layout) string { return l.Home }},
		{"home without write permission",
			func(demo.Layout) model.WriteFS {
				return &faultfs.FS{Step: faultfs.StepCreateTemp, Persist: true, Err: syscall.EACCES}
			},
			func(l demo.Layout) string { return l.Home }},
		{"only the memory folder read-only",
			func(l demo.Layout) model.WriteFS { return refuseUnder{dir: memDir(l)} },
			memRel},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, l := readOnlyModel(t, tt.writes)
			dir := tt.readOnly(l)
			before := testenv.Files(t, memDir(l))
			s := screen(m)
			if got := strings.Contains(s, "READ-ONLY HOME"); got != (dir != "") {
				t.Fatalf("banner shown %v, want %v:\n%s", got, dir != "", s)
			}
			if dir == "" {
				return
			}
			if !strings.Contains(s, "cannot write in "+dir) {
				t.Errorf("the banner does not name %s:\n%s", dir, s)
			}
			m = press(t, m, "4")
			for _, k := range []string{"e", "n", "t", "r", "d", "u"} {
				m.status = ""
				m = press(t, m, k)
				if !strings.Contains(m.status, "read-only") || !m.statusErr {
					t.Errorf("key %s: status %q, want it to say the home is read-only", k, m.status)
				}
				if strings.Contains(screen(m), "new memory —") || strings.Contains(screen(m), "y/n") {
					t.Errorf("key %s opened a form or a question in a read-only home", k)
					m = press(t, m, "esc")
				}
			}
			m = press(t, m, "9", "enter")
			if after := testenv.Files(t, memDir(l)); !sameFiles(before, after) {
				t.Error("a read-only home was written")
			}
		})
	}
}

// A real folder without write permission, for a user that is not root.
func TestReadOnlyHomePermissions(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("running as root: chmod 0555 does not stop root's writes (TestReadOnlyHome injects the refusal)")
	}
	m, l := readOnlyModel(t, func(l demo.Layout) model.WriteFS {
		if err := os.Chmod(l.Home, 0o555); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Chmod(l.Home, 0o755) })
		return nil
	})
	if s := screen(m); !strings.Contains(s, "READ-ONLY HOME — cannot write in "+l.Home) {
		t.Errorf("no banner naming %s:\n%s", l.Home, s)
	}
}

func sameFiles(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

package diskcache

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/memscope/memscope/internal/faultfs"
	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/model"
)

func TestDir(t *testing.T) {
	home := func() (string, error) { return "/home/me", nil }
	env := func(v string) func(string) string {
		return func(k string) string {
			if k == "XDG_CACHE_HOME" {
				return v
			}
			return ""
		}
	}
	tests := []struct {
		xdg, claude, want string
		inside            bool
	}{
		{"", "/home/me/.claude", "/home/me/.cache/memscope/scan", false},
		{"/var/cache/me", "/home/me/.claude", "/var/cache/me/memscope/scan", false},
		// A relative XDG_CACHE_HOME is ignored, as the XDG rule says.
		{"rel/cache", "/home/me/.claude", "/home/me/.cache/memscope/scan", false},
		{"/home/me/.claude/cache", "/home/me/.claude", "", true},
		{"", "/home/me", "", true},
		{"", "/home/me/.cache/memscope/scan", "", true},
		// A sibling whose name starts like the home's is not inside it.
		{"/home/me/.claude-cache", "/home/me/.claude", "/home/me/.claude-cache/memscope/scan", false},
	}
	for _, tt := range tests {
		got, err := Dir(env(tt.xdg), home, tt.claude)
		if tt.inside {
			if !errors.Is(err, ErrInsideHome) {
				t.Errorf("XDG_CACHE_HOME=%q home %s: %q, %v; want ErrInsideHome", tt.xdg, tt.claude, got, err)
			}
			continue
		}
		if err != nil || got != filepath.FromSlash(tt.want) {
			t.Errorf("XDG_CACHE_HOME=%q home %s: %q, %v; want %s", tt.xdg, tt.claude, got, err, tt.want)
		}
	}
	if _, err := Dir(env(""), func() (string, error) { return "", errors.New("no home") }, "/x"); err == nil {
		t.Error("no user home and no XDG_CACHE_HOME: want an error")
	}
}

type payload struct {
	Names map[string]int
	When  time.Time
}

func newStore(t *testing.T, w model.WriteFS) *Store {
	t.Helper()
	return New(filepath.Join(t.TempDir(), "c"), testroot.New(t), w)
}

func TestSaveLoad(t *testing.T) {
	s := newStore(t, model.OSWriteFS{})
	if _, ok := Load[payload](s, "k.1", "a.cache"); ok {
		t.Fatal("loaded a cache that was never written")
	}
	want := payload{Names: map[string]int{"x": 1, "y": 2}, When: time.Date(2026, 11, 24, 1, 2, 3, 4, time.UTC)}
	if err := Save(s, "k.1", "a.cache", want); err != nil {
		t.Fatal(err)
	}
	got, ok := Load[payload](s, "k.1", "a.cache")
	if !ok || len(got.Names) != 2 || got.Names["y"] != 2 || !got.When.Equal(want.When) {
		t.Fatalf("round trip: %+v, %v", got, ok)
	}
	// Another kind (a new version of what the caller keeps) or another
	// build does not read it.
	if _, ok := Load[payload](s, "k.2", "a.cache"); ok {
		t.Error("a cache of kind k.1 loaded as k.2")
	}
	other := *s
	other.build = "another build"
	if _, ok := Load[payload](&other, "k.1", "a.cache"); ok {
		t.Error("a cache written by another build loaded")
	}
	info, err := os.Stat(filepath.Join(s.Dir(), "a.cache"))
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("cache file: %v, %v; want mode 0600", info, err)
	}
	var nilStore *Store
	if err := Save(nilStore, "k.1", "a.cache", want); err != nil {
		t.Errorf("a nil store saves nothing: %v", err)
	}
	if _, ok := Load[payload](nilStore, "k.1", "a.cache"); ok {
		t.Error("a nil store loaded something")
	}
}

// The folder stays within MaxFiles: the oldest files go, the one just
// written stays; files that are not cache files are left alone.
func TestTrim(t *testing.T) {
	s := newStore(t, model.OSWriteFS{})
	os.MkdirAll(s.Dir(), 0o700)
	os.WriteFile(filepath.Join(s.Dir(), "notes.txt"), []byte("mine"), 0o600)
	base := time.Now().Add(-time.Hour)
	for i := range MaxFiles + 5 {
		name := fmt.Sprintf("f%02d.cache", i)
		if err := Save(s, "k.1", name, payload{Names: map[string]int{name: i}}); err != nil {
			t.Fatal(err)
		}
		// Older files first; the last one is the oldest of all by mtime but
		// is the one just written.
		mt := base.Add(time.Duration(i) * time.Minute)
		if i == MaxFiles+4 {
			mt = base.Add(-time.Hour)
		}
		os.Chtimes(filepath.Join(s.Dir(), name), mt, mt)
	}
	entries, _ := os.ReadDir(s.Dir())
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	all := strings.Join(names, " ")
	if len(names) != MaxFiles+1 {
		t.Errorf("%d files left (%s); want %d cache files and notes.txt", len(names), all, MaxFiles)
	}
	for _, gone := range []string{"f00.cache", "f01.cache", "f02.cache", "f03.cache"} {
		if strings.Contains(all, gone) {
			t.Errorf("%s, among the oldest, was kept: %s", gone, all)
		}
	}
	for _, kept := range []string{"notes.txt", fmt.Sprintf("f%02d.cache", MaxFiles+4), fmt.Sprintf("f%02d.cache", MaxFiles+3)} {
		if !strings.Contains(all, kept) {
			t.Errorf("%s was removed: %s", kept, all)
		}
	}
}

// A write that fails (full disk, read-only folder) leaves the old cache
// file whole, or none, and no temporary file.
func TestSaveFaults(t *testing.T) {
	for _, step := range []faultfs.Step{faultfs.StepMkdir, faultfs.StepCreateTemp, faultfs.StepWrite, faultfs.StepRename} {
		t.Run(string(step), func(t *testing.T) {
			f := &faultfs.FS{Step: step, Nth: 2, Err: syscall.ENOSPC}
			s := newStore(t, f)
			old := payload{Names: map[string]int{"old": 1}}
			if err := Save(s, "k.1", "a.cache", old); err != nil {
				t.Fatal(err)
			}
			if err := Save(s, "k.1", "a.cache", payload{Names: map[string]int{"new": 2}}); err == nil && f.Calls(step) >= 2 {
				t.Fatalf("%s failed and Save said nothing", step)
			}
			got, ok := Load[payload](s, "k.1", "a.cache")
			if !ok || (got.Names["old"] != 1 && got.Names["new"] != 2) {
				t.Errorf("after a failed %s: %+v, %v; want the old or the new cache whole", step, got, ok)
			}
			entries, _ := os.ReadDir(s.Dir())
			for _, e := range entries {
				if e.Name() != "a.cache" {
					t.Errorf("left behind: %s", e.Name())
				}
			}
		})
	}
}

func TestNameIsPerHome(t *testing.T) {
	a, b := Name("stat.1", "/home/a/.claude"), Name("stat.1", "/home/b/.claude")
	if a == b || !strings.HasPrefix(a, "stat.1-") || !strings.HasSuffix(a, ".cache") || a != Name("stat.1", "/home/a/.claude/") {
		t.Errorf("names %q and %q", a, b)
	}
}

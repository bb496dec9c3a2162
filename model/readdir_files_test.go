package model

import (
	"os"
	"path/filepath"
	"testing"
)

// ReadDirFollowFiles lists what ReadDirFollow does, in its order, with
// the same information for folders and links (followed inside the home),
// but none for a regular file: its Info is nil, never asked.
func TestReadDirFollowFilesLeavesFilesUnasked(t *testing.T) {
	home := t.TempDir()
	dir := filepath.Join(home, "d")
	for _, p := range []string{"d/a.txt", "d/c/x.txt", "d/e.txt", "target.txt"} {
		full := filepath.Join(home, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(p), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("../target.txt", filepath.Join(dir, "b-link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("c", filepath.Join(dir, "d-link")); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		list func(*[]Problem) []Followed
		all  func(*[]Problem) []Followed
	}{
		{"the home", func(p *[]Problem) []Followed { return ReadDirFollowFiles(HomeFS(home), "d", p) },
			func(p *[]Problem) []Followed { return ReadDirFollow(HomeFS(home), "d", p) }},
		{"the home listed once", func(p *[]Problem) []Followed { return ReadDirFollowFiles(ListOnce(HomeFS(home)), "d", p) },
			func(p *[]Problem) []Followed { return ReadDirFollow(ListOnce(HomeFS(home)), "d", p) }},
	} {
		var p1, p2 []Problem
		got, want := c.list(&p1), c.all(&p2)
		if len(got) != len(want) || len(p1) != len(p2) {
			t.Fatalf("%s: %d entries (%v), ReadDirFollow %d (%v)", c.name, len(got), p1, len(want), p2)
		}
		for i := range got {
			g, w := got[i], want[i]
			if g.Name != w.Name || g.Path != w.Path {
				t.Errorf("%s: entry %d is %s (%s), want %s (%s)", c.name, i, g.Name, g.Path, w.Name, w.Path)
			}
			regular := g.Name == "a.txt" || g.Name == "e.txt"
			switch {
			case regular && g.Info != nil:
				t.Errorf("%s: %s, a regular file, came with its information", c.name, g.Name)
			case !regular && (g.Info == nil || g.Info.Mode() != w.Info.Mode() || g.Info.Size() != w.Info.Size()):
				t.Errorf("%s: %s came with %v, want %v", c.name, g.Name, g.Info, w.Info)
			}
		}
	}
}

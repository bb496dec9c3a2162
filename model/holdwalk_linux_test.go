//go:build linux

package model

import (
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

// A walk of a home's session files opens the home's folder once (a
// hold for the walk), not by its path again for each folder listed and
// file looked at (W's cold start: some 1 000 of the 3 300 opens of its
// root), with or without the trusted folders' listings; the files found
// are the same, and once the walk is done the home is not held.
func TestFindSessionFilesOpensTheHomeOnce(t *testing.T) {
	home := t.TempDir()
	write := func(rel, body string) {
		p := filepath.Join(home, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range []string{"-a", "-b"} {
		for _, s := range []string{"s1", "s2", "s3"} {
			write("projects/"+p+"/"+s+".jsonl", "{}\n")
			write("projects/"+p+"/"+s+"/subagents/agent-x.jsonl", "{}\n")
			write("projects/"+p+"/"+s+"/subagents/agent-x.meta.json", "{}")
			write("projects/"+p+"/"+s+"/tool-results/t.txt", "out")
		}
		write("projects/"+p+"/memory/MEMORY.md", "# m\n")
	}
	write("sessions/42/transcript.jsonl", "{}\n")
	var want SessionFiles
	for i, fsys := range []fs.FS{HomeFS(home), TrustingFS(HomeFS(home), NewTrustedFolders(home, KeptFolders{}, time.Now()))} {
		before := rootOpens.Load()
		sf, probs := FindSessionFiles(fsys)
		if len(probs) != 0 {
			t.Errorf("walk %d: %v", i, probs)
		}
		if n := rootOpens.Load() - before; n != 0 {
			t.Errorf("walk %d opened the home by its path %d times, want none (held)", i, n)
		}
		if len(sf.Transcripts) != 13 || len(sf.ToolResults) != 6 {
			t.Errorf("walk %d found %d transcripts and %d tool results, want 13 and 6", i, len(sf.Transcripts), len(sf.ToolResults))
		}
		if i == 0 {
			want = sf
		} else if !reflect.DeepEqual(sf, want) {
			t.Errorf("walk %d found %+v, want %+v", i, sf, want)
		}
		if homeHeld(home) {
			t.Errorf("walk %d left the home held", i)
		}
	}
}

// HomeMemoryStores holds the home for its call (HoldWalk through the
// machine's file system with the home mounted): each project's store
// folders under the home are asked from one descriptor of it, not by
// the home's path again (W: some 300 opens of its root a start).
func TestHomeMemoryStoresOpensTheHomeOnce(t *testing.T) {
	home := filepath.Join(t.TempDir(), "claude")
	var ps []Project
	for _, p := range []string{"/work/p1", "/work/p2", "/work/p3"} {
		slug := Slug(p)
		if err := os.MkdirAll(filepath.Join(home, "projects", slug, "memory", "team"), 0o755); err != nil {
			t.Fatal(err)
		}
		ps = append(ps, Project{Slug: slug, Dir: "projects/" + slug, Path: p})
	}
	root := MountFS(nil, filepath.ToSlash(home), HomeFS(home))
	before := rootOpens.Load()
	stores, _ := HomeMemoryStores(HomeStoresOptions{Root: root, HomeDir: filepath.ToSlash(home), Projects: ps, User: true})
	if n := rootOpens.Load() - before; n != 0 {
		t.Errorf("HomeMemoryStores opened the home by its path %d times, want none (held)", n)
	}
	var found int
	for _, s := range stores {
		if s.Exists {
			found++
		}
	}
	if found != 6 {
		t.Errorf("found %d stores on disk, want 6 (each project's memory and team): %+v", found, stores)
	}
	if homeHeld(home) {
		t.Error("the home is still held")
	}
}

package model

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"
	"time"
)

func TestReadMemoryDirTestdata(t *testing.T) {
	md, probs := ReadMemoryDir(os.DirFS("testdata/memory"), "basic")
	if !md.Exists || md.Index == nil || len(md.Index.Entries()) != 3 {
		t.Fatalf("dir %+v", md)
	}
	var paths []string
	for _, f := range md.Files {
		paths = append(paths, f.Path)
	}
	want := []string{"bad-yaml.md", "prefers-terse.md", "sub/deep.md", "user_role.md"}
	if !reflect.DeepEqual(paths, want) {
		t.Errorf("files = %v, want %v", paths, want)
	}
	if !reflect.DeepEqual(md.Other, []string{"notes.txt", "sub/MEMORY.md"}) {
		t.Errorf("other = %v", md.Other)
	}
	if len(probs) != 1 || probs[0].File != "basic/bad-yaml.md" || probs[0].Kind != ProblemInvalidFrontmatter || probs[0].Line != 3 {
		t.Errorf("problems = %+v", probs)
	}
	bad := md.File("bad-yaml.md")
	if bad == nil || !bad.Invalid || bad.Problem == nil {
		t.Errorf("bad-yaml.md should be listed as invalid: %+v", bad)
	}
	pt := md.File("prefers-terse.md")
	if pt == nil || pt.ModTime.IsZero() || pt.Size != 276 || pt.Type != TypeFeedback {
		t.Errorf("prefers-terse.md = %+v", pt)
	}
	if md.IndexSize == 0 || md.IndexModTime.IsZero() {
		t.Errorf("index stat missing")
	}
}

func TestReadMemoryDirEdgeCases(t *testing.T) {
	mt := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	fsys := fstest.MapFS{
		"m/MEMORY.md":   {Data: []byte("- [A](a.md)\xff\n"), ModTime: mt},
		"m/a.md":        {Data: []byte("---\nname: a\n---\n\xfe"), ModTime: mt},
		"m/empty.md":    {Data: nil, ModTime: mt},
		"m/long.md":     {Data: []byte("---\nname: long\n---\n" + strings.Repeat("y", 10<<20)), ModTime: mt},
		"notdir":        {Data: []byte("x")},
		"m/team/t.md":   {Data: []byte("x")},
		"m/x/team/t.md": {Data: []byte("team below the top is a plain folder")},
	}
	md, probs := ReadMemoryDir(fsys, "m")
	var paths []string
	for _, f := range md.Files {
		paths = append(paths, f.Path)
	}
	if !reflect.DeepEqual(paths, []string{"a.md", "empty.md", "long.md", "x/team/t.md"}) {
		t.Errorf("files = %v", paths)
	}
	if long := md.File("long.md"); long == nil || long.Name != "long" || len(long.Body) != 10<<20 {
		t.Errorf("10 MiB body not read whole")
	}
	var kinds []ProblemKind
	for _, p := range probs {
		kinds = append(kinds, p.Kind)
	}
	if !reflect.DeepEqual(kinds, []ProblemKind{ProblemEncoding, ProblemEncoding}) || probs[0].File != "m/MEMORY.md" || probs[1].Line != 4 {
		t.Errorf("problems = %+v", probs)
	}
	if md, probs := ReadMemoryDir(fsys, "missing"); md.Exists || probs != nil {
		t.Errorf("missing folder: %+v %v", md, probs)
	}
	if md, probs := ReadMemoryDir(fsys, "notdir"); md.Exists || len(probs) != 1 {
		t.Errorf("file as folder: %+v %v", md, probs)
	}
}

func TestReadMemoryDirSymlinks(t *testing.T) {
	dir := t.TempDir()
	mem := filepath.Join(dir, "memory")
	if err := os.MkdirAll(mem, 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "outside.md"), []byte("---\nname: out\n---\n"), 0o644)
	for _, l := range [][2]string{
		{"loop.md", "loop.md"},
		{"dangling.md", "nowhere.md"},
		{"linked.md", "../outside.md"},
		{"dirlink.md", ".."},
		{"cycle", "."},
	} {
		if err := os.Symlink(l[1], filepath.Join(mem, l[0])); err != nil {
			t.Skip("symlinks not supported:", err)
		}
	}
	unreadable := filepath.Join(mem, "secret.md")
	os.WriteFile(unreadable, []byte("x"), 0o000)
	md, probs := ReadMemoryDir(os.DirFS(dir), "memory")
	var paths []string
	for _, f := range md.Files {
		paths = append(paths, f.Path)
	}
	wantFiles := []string{"linked.md", "secret.md"}
	if os.Geteuid() != 0 {
		wantFiles = []string{"linked.md"}
	}
	if !reflect.DeepEqual(paths, wantFiles) {
		t.Errorf("files = %v, want %v", paths, wantFiles)
	}
	for _, f := range md.Files {
		if f.Symlink != (f.Path == "linked.md") {
			t.Errorf("%s: Symlink = %v", f.Path, f.Symlink)
		}
	}
	bad := map[string]bool{}
	for _, p := range probs {
		if p.Kind != ProblemUnreadable {
			t.Errorf("unexpected problem kind %+v", p)
		}
		bad[p.File] = true
	}
	for _, f := range []string{"memory/loop.md", "memory/dangling.md", "memory/dirlink.md"} {
		if !bad[f] {
			t.Errorf("no problem for %s: %+v", f, probs)
		}
	}
}

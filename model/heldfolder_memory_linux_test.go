//go:build linux

package model

import (
	"os"
	"path/filepath"
	"reflect"
	"syscall"
	"testing"
)

// With the home held (stat), a memory folder's files at its top are read
// by their bare names from one descriptor of the folder, not by the
// home's name with a reopen through /proc: the same answer (files,
// index, problems) as with the home not held, a reopen only for the
// folders walked, MEMORY.md and what is reached through a link or lies
// deeper. On the old code each of the 4 plain topic files was reopened
// too (9 reopens, not 5). Without openat2 nothing is opened by name or
// reopened, and the answer is the same.
func TestMemoryScanOpensHeldFilesByName(t *testing.T) {
	eachKernel(t, memoryScanOpensHeldFilesByName)
}

func memoryScanOpensHeldFilesByName(t *testing.T, byName bool) {
	home := t.TempDir()
	mem := filepath.Join(home, "projects", "-p", "memory")
	if err := os.MkdirAll(filepath.Join(mem, "archive"), 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(name, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(mem, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("MEMORY.md", "- [One](one.md) — first\n")
	for _, n := range []string{"one", "two", "three"} {
		write(n+".md", "---\nname: "+n+"\ndescription: the "+n+"\ntype: project\n---\n\nbody of "+n+"\n")
	}
	write("broken.md", "---\nname: [unclosed\n---\n")
	write("archive/old.md", "---\nname: old\ndescription: old\ntype: project\n---\n")
	if err := os.WriteFile(filepath.Join(home, "shared.md"), []byte("---\nname: shared\ndescription: s\ntype: user\n---\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A link inside the home, relative: from the memory folder up to the
	// home's shared.md.
	rel, err := filepath.Rel(mem, filepath.Join(home, "shared.md"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(rel, filepath.Join(mem, "linked.md")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(mem, "pipe.md"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "out.md")
	if err := os.WriteFile(out, []byte("outside"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(out, filepath.Join(mem, "out.md")); err != nil {
		t.Fatal(err)
	}
	fsys := HomeFS(home)
	t.Cleanup(forgetMemo)
	want, wantProbs := ReadMemoryDir(fsys, "projects/-p/memory")
	release := HoldHome(home)
	defer release()
	// The held read's own opens: the first read's files are not taken
	// from the memo (memdir_memo.go).
	forgetMemo()
	r0, d0 := reopens.Load(), heldFolderOpens.Load()
	got, gotProbs := ReadMemoryDir(fsys, "projects/-p/memory")
	wantR, wantD := int64(0), int64(0)
	if byName {
		wantR, wantD = 5, 4 // 2 folders listed, MEMORY.md, archive/old.md, linked.md; one, two, three, broken
	}
	if r, d := reopens.Load()-r0, heldFolderOpens.Load()-d0; r != wantR || d != wantD {
		t.Errorf("held scan: %d reopens, %d files opened by name; want %d and %d", r, d, wantR, wantD)
	}
	if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(gotProbs, wantProbs) {
		t.Errorf("held scan\n%+v %v\nnot held\n%+v %v", got, gotProbs, want, wantProbs)
	}
	if len(got.Files) != 6 || len(gotProbs) < 2 {
		t.Errorf("%d files, problems %v: want one, two, three, broken, linked, archive/old and the pipe's and the link out's problems", len(got.Files), gotProbs)
	}
}

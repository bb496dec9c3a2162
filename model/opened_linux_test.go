package model

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// A file a home's file system opens carries the kernel's answer of its
// open (the path descriptor's fstat): OpenedInfo gives that answer, the
// same os.File.Stat gives at that moment (name, size, mode bits, time,
// inode), without asking again. Shown by a write between the open and
// the question: OpenedInfo still tells the file as opened, Stat the file
// as it is now. On the old code the reader asked the kernel again (Stat).
//
// Without openat2 files are opened ResolveInside's way, and OpenedInfo
// is Stat: the file as it is now.
func TestOpenedInfoIsTheOpensAnswer(t *testing.T) {
	eachKernel(t, openedInfoIsTheOpensAnswer)
}

func openedInfoIsTheOpensAnswer(t *testing.T, byName bool) {
	home, _ := beneathHome(t)
	if err := os.Chmod(filepath.Join(home, "a/b/f.md"), 0o751|fs.ModeSetuid|fs.ModeSetgid); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(home, "a/b"), 0o755|fs.ModeSticky); err != nil {
		t.Fatal(err)
	}
	fsys := HomeFS(home)
	for _, n := range []string{"a/b/f.md", "a/rel.md", "a/b"} {
		f, err := fsys.Open(n)
		if err != nil {
			t.Fatal(err)
		}
		got, err := OpenedInfo(f)
		if err != nil {
			t.Fatal(err)
		}
		want, err := f.Stat()
		if err != nil {
			t.Fatal(err)
		}
		if got.Name() != want.Name() || got.Size() != want.Size() || got.Mode() != want.Mode() || !got.ModTime().Equal(want.ModTime()) || got.IsDir() != want.IsDir() {
			t.Errorf("%s: OpenedInfo %s %d %v %v, Stat %s %d %v %v", n, got.Name(), got.Size(), got.Mode(), got.ModTime(), want.Name(), want.Size(), want.Mode(), want.ModTime())
		}
		if *got.Sys().(*syscall.Stat_t) != *want.Sys().(*syscall.Stat_t) || StampOf(got) != StampOf(want) {
			t.Errorf("%s: OpenedInfo's Sys %+v, Stat's %+v", n, got.Sys(), want.Sys())
		}
		f.Close()
	}

	f, err := OpenRegular(fsys, "a/b/f.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w, err := os.OpenFile(filepath.Join(home, "a/b/f.md"), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.WriteString(w, " and more"); err != nil {
		t.Fatal(err)
	}
	w.Close()
	opened, err := OpenedInfo(f)
	if err != nil {
		t.Fatal(err)
	}
	now, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	wantOpened := int64(len("inside"))
	if !byName {
		wantOpened = int64(len("inside and more"))
	}
	if opened.Size() != wantOpened || now.Size() != int64(len("inside and more")) {
		t.Errorf("OpenedInfo says %d bytes, Stat %d: want %d and now's 15", opened.Size(), now.Size(), wantOpened)
	}
}

// The entries of a held home's folder answer Info from the held
// descriptor (a walk of the names inside the home, not the home's whole
// path): the answers of the entries' own Info (lstat: links, a pipe, a
// folder, files), and, with the home renamed away under the hold, still
// the home that was held. On the old code each entry was looked up by
// its whole path again: the renamed home's entries failed.
func TestHeldHomeEntriesAnswerFromTheHold(t *testing.T) {
	home, _ := beneathHome(t)
	fsys := HomeFS(home)
	free, err := fs.ReadDir(fsys, "a")
	if err != nil {
		t.Fatal(err)
	}
	release := HoldHome(home)
	defer release()
	held, err := fs.ReadDir(fsys, "a")
	if err != nil {
		t.Fatal(err)
	}
	if len(held) != len(free) || len(held) < 8 {
		t.Fatalf("held lists %d entries, not held %d", len(held), len(free))
	}
	for i, e := range held {
		got, err := e.Info()
		if err != nil {
			t.Fatalf("%s: %v", e.Name(), err)
		}
		want, err := free[i].Info()
		if err != nil {
			t.Fatal(err)
		}
		if got.Name() != want.Name() || got.Size() != want.Size() || got.Mode() != want.Mode() || !got.ModTime().Equal(want.ModTime()) || StampOf(got) != StampOf(want) {
			t.Errorf("%s: held %s %d %v, not held %s %d %v", e.Name(), got.Name(), got.Size(), got.Mode(), want.Name(), want.Size(), want.Mode())
		}
	}
	sub, err := fs.ReadDir(fsys, "a/b")
	if err != nil {
		t.Fatal(err)
	}
	moved := home + ".moved"
	if err := os.Rename(home, moved); err != nil {
		t.Fatal(err)
	}
	defer os.Rename(moved, home)
	for _, e := range sub {
		info, err := e.Info()
		if err != nil {
			t.Errorf("%s of the held home renamed away: %v", e.Name(), err)
			continue
		}
		if e.Name() == "f.md" && info.Size() != int64(len("inside")) {
			t.Errorf("f.md of the held home: %d bytes", info.Size())
		}
	}
}

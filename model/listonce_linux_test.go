//go:build linux

package model

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// listedHome is a home with transcripts in a session folder, pastes,
// memory files and the links, pipes and folders a listed home must
// answer for as the home itself does.
func listedHome(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	out := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		p := filepath.Join(home, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	link := func(target, name string) {
		t.Helper()
		if err := os.Symlink(target, filepath.Join(home, filepath.FromSlash(name))); err != nil {
			t.Fatal(err)
		}
	}
	write("projects/-p/s1.jsonl", `{"type":"user","timestamp":"2026-01-01T00:00:00Z"}`+"\n")
	write("projects/-p/s2.jsonl", `{"type":"user","timestamp":"2026-01-02T00:00:00Z"}`+"\n"+`{"type":"assistant"}`)
	write("projects/-p/memory/MEMORY.md", "# memory\n")
	write("projects/-p/memory/note.md", "---\nname: note\n---\nbody\n")
	write("paste-cache/a.txt", "alpha")
	write("paste-cache/b.txt", "")
	write("history.jsonl", "{}\n")
	if err := os.WriteFile(filepath.Join(out, "secret"), []byte("outside"), 0o644); err != nil {
		t.Fatal(err)
	}
	link("../../history.jsonl", "projects/-p/inside.jsonl")     // a link inside the home
	link(filepath.Join(out, "secret"), "projects/-p/out.jsonl") // a link out of it
	link(out, "projects/-out")                                  // a folder out of it
	link("-p", "projects/-same")                                // a folder inside it
	link("loop.txt", "paste-cache/loop.txt")                    // a loop
	link("/dev/null", "paste-cache/null.txt")                   // a device, out of the home
	if err := syscall.Mkfifo(filepath.Join(home, "paste-cache", "fifo.txt"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A device inside the home where this user may make one (root): the
	// name is else one that does not exist, answered alike too.
	_ = syscall.Mknod(filepath.Join(home, "paste-cache", "dev.txt"), syscall.S_IFCHR|0o644, 1<<8|3)
	return home
}

// listedNames are the names the listed-home tests ask about.
var listedNames = []string{
	"history.jsonl", "projects/-p/s1.jsonl", "projects/-p/s2.jsonl", "projects/-p/memory/note.md",
	"paste-cache/a.txt", "paste-cache/b.txt", "projects/-p/inside.jsonl", "projects/-p/out.jsonl",
	"projects/-out/secret", "projects/-same/s1.jsonl", "projects/-same", "projects/-out",
	"paste-cache/loop.txt", "paste-cache/null.txt", "paste-cache/fifo.txt", "paste-cache/dev.txt", "paste-cache/none.txt",
	"none/x.txt", "projects/-p", "projects/-p/memory", "paste-cache", ".", "../x", "/abs", "projects//x",
}

// answer is what one question of a file system said, as text: the error,
// else the bytes read or the information given.
func answer(t *testing.T, fsys fs.FS, op, name string) string {
	t.Helper()
	info := func(i fs.FileInfo) string {
		size := i.Size()
		if i.IsDir() {
			size = 0 // a folder's size is the file system's
		}
		return fmt.Sprintf("%s %v %d %v", i.Name(), i.Mode(), size, i.ModTime().UnixNano())
	}
	read := func(f fs.File, err error) string {
		if err != nil {
			return "error " + err.Error()
		}
		defer f.Close()
		st, err := f.Stat()
		if err != nil {
			return "stat error " + err.Error()
		}
		opened, err := OpenedInfo(f)
		if err != nil || !reflect.DeepEqual(opened.Sys(), st.Sys()) {
			return fmt.Sprintf("OpenedInfo %v %v is not Stat's %v", opened, err, st)
		}
		if st.IsDir() {
			return "folder " + info(st)
		}
		b, err := io.ReadAll(f)
		return fmt.Sprintf("%s %q %v", info(st), b, err)
	}
	switch op {
	case "Open":
		return read(fsys.Open(name))
	case "OpenRegular":
		return read(OpenRegular(fsys, name))
	case "Stat", "Lstat":
		var i fs.FileInfo
		var err error
		if op == "Stat" {
			i, err = fs.Stat(fsys, name)
		} else {
			i, err = fs.Lstat(fsys, name)
		}
		if err != nil {
			return "error " + err.Error()
		}
		return info(i)
	case "ReadFile":
		b, err := fs.ReadFile(fsys, name)
		return fmt.Sprintf("%q %v", b, err)
	case "ReadDir":
		ents, err := fs.ReadDir(fsys, name)
		var b bytes.Buffer
		for _, e := range ents {
			i, ierr := e.Info()
			if ierr != nil {
				fmt.Fprintf(&b, "%s %v error %v; ", e.Name(), e.Type(), ierr)
				continue
			}
			fmt.Fprintf(&b, "%s %v %s; ", e.Name(), e.Type(), info(i))
		}
		return fmt.Sprintf("%s %v", b.String(), err)
	case "Stamp":
		st, err := StampFile(fsys, name)
		return fmt.Sprintf("%+v %v", st, err)
	}
	t.Fatalf("no op %s", op)
	return ""
}

// A listed home (ListOnce of a home's file system, the app's Overview)
// answers every question as the home itself does, from the descriptors
// it holds: links inside followed, links out and loops refused with the
// same errors, a named pipe and a device reported and not read (nor
// waited on), names gone or invalid the same errors, folders listed the
// same with the same entries' information.
func TestListedHomeAnswersAsTheHome(t *testing.T) {
	eachKernel(t, func(t *testing.T, byName bool) {
		home := listedHome(t)
		for _, op := range []string{"Open", "OpenRegular", "Stat", "Lstat", "ReadFile", "ReadDir", "Stamp"} {
			for _, name := range listedNames {
				want := answer(t, HomeFS(home), op, name)
				// A fresh listed home for each question, and one asked
				// everything in turn (its folders held by then).
				if got := answer(t, ListOnce(HomeFS(home)), op, name); got != want {
					t.Errorf("%s %s: listed home says\n%s\nthe home says\n%s", op, name, got, want)
				}
			}
		}
		listed := ListOnce(HomeFS(home))
		for range 2 {
			for _, op := range []string{"ReadDir", "Open", "OpenRegular", "Stat", "Lstat", "ReadFile", "Stamp"} {
				for _, name := range listedNames {
					if got, want := answer(t, listed, op, name), answer(t, HomeFS(home), op, name); got != want {
						t.Errorf("%s %s, folders held: listed home says\n%s\nthe home says\n%s", op, name, got, want)
					}
				}
			}
		}
	})
}

// A listed home that is not held (the app's) opens the files of the
// folders it reads by their bare names from the folders' descriptors,
// lists a folder from its descriptor, and asks its entries' information
// from it: no name is resolved from the home's path and reopened
// through /proc. On the old code every open and listing here was a
// reopen (13), none by name. Without openat2 nothing is opened by name
// or reopened.
func TestListedHomeOpensByName(t *testing.T) {
	eachKernel(t, func(t *testing.T, byName bool) {
		home := listedHome(t)
		listed := ListOnce(HomeFS(home))
		r0, l0, h0 := reopens.Load(), listedOpens.Load(), heldFolderOpens.Load()
		for _, dir := range []string{"projects/-p", "paste-cache", "projects/-p/memory"} {
			ents, err := fs.ReadDir(listed, dir)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range ents {
				if _, err := e.Info(); err != nil {
					t.Fatal(err)
				}
			}
		}
		names := []string{"projects/-p/s1.jsonl", "projects/-p/s2.jsonl", "paste-cache/a.txt", "paste-cache/b.txt", "history.jsonl"}
		for _, name := range names {
			f, err := OpenRegular(listed, name)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := io.ReadAll(f); err != nil {
				t.Fatal(err)
			}
			f.Close()
			if _, err := fs.Stat(listed, name); err != nil {
				t.Fatal(err)
			}
			if _, err := StampFile(listed, name); err != nil {
				t.Fatal(err)
			}
		}
		// The paste inventory's by-name opens see through the wrapper.
		inv := InventoryPasteRefs(listed, PasteRefs{Counts: map[PasteHash]int{HashPaste([]byte("alpha")): 1}}, NewPasteVerdicts())
		if inv.Summary.Referenced != 1 || inv.Summary.Unreadable != 0 {
			t.Errorf("inventory through the listed home: %+v", inv.Summary)
		}
		wantL, wantH := int64(0), int64(0)
		if byName {
			wantL, wantH = int64(3+2*len(names)), 1 // 3 listings, 5 opens and 5 stamps' opens; the paste checked
		}
		if r, l, h := reopens.Load()-r0, listedOpens.Load()-l0, heldFolderOpens.Load()-h0; r != 0 || l != wantL || h < wantH {
			t.Errorf("%d reopens, %d opened by name by the listed home, %d pastes by the inventory; want 0, %d and %d", r, l, h, wantL, wantH)
		}
	})
}

// A file a listed home opened by its bare name reads as the home's own
// does at any offset (ReadAt, Seek), and its Stat is the file's now.
func TestListedHomeFileReadsAt(t *testing.T) {
	home := listedHome(t)
	f, err := OpenRegular(ListOnce(HomeFS(home)), "paste-cache/a.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ra, ok := f.(io.ReaderAt)
	if !ok {
		t.Fatal("no ReadAt")
	}
	b := make([]byte, 3)
	if n, err := ra.ReadAt(b, 1); n != 3 || err != nil || string(b) != "lph" {
		t.Errorf("ReadAt 1: %d %v %q", n, err, b)
	}
	if n, err := ra.ReadAt(b, 3); n != 2 || !errors.Is(err, io.EOF) || string(b[:n]) != "ha" {
		t.Errorf("ReadAt 3: %d %v %q", n, err, b[:n])
	}
	if _, err := ra.ReadAt(b, -1); err == nil {
		t.Error("ReadAt -1: no error")
	}
	sk, ok := f.(io.Seeker)
	if !ok {
		t.Fatal("no Seek")
	}
	if off, err := sk.Seek(2, io.SeekStart); off != 2 || err != nil {
		t.Errorf("Seek: %d %v", off, err)
	}
	if rest, err := io.ReadAll(f); string(rest) != "pha" || err != nil {
		t.Errorf("read after Seek: %q %v", rest, err)
	}
	if err := os.WriteFile(filepath.Join(home, "paste-cache", "a.txt"), []byte("alphabet"), 0o644); err != nil {
		t.Fatal(err)
	}
	if st, err := f.Stat(); err != nil || st.Size() != 8 {
		t.Errorf("Stat after a write: %v %v", st, err)
	}
}

// A listed home's descriptors close when it ends (its cleanup), and the
// names it is asked afterwards go the home's usual way.
func TestListedHomeClosesItsFolders(t *testing.T) {
	eachKernel(t, func(t *testing.T, byName bool) {
		home := listedHome(t)
		l := ListOnce(HomeFS(home)).(*listedFS)
		for _, name := range []string{"projects/-p/s1.jsonl", "paste-cache/a.txt", "projects/-p/memory/note.md"} {
			if _, err := fs.ReadFile(l, name); err != nil {
				t.Fatal(err)
			}
		}
		var held []int
		if l.held != nil {
			l.held.mu.Lock()
			held = append(held, l.held.root)
			for _, fd := range l.held.folders {
				held = append(held, fd)
			}
			l.held.mu.Unlock()
		}
		if byName && len(held) != 4 || !byName && len(held) != 0 {
			t.Fatalf("%d descriptors held, want the home and 3 folders (or none without openat2)", len(held))
		}
		for _, fd := range held {
			if _, err := unix.FcntlInt(uintptr(fd), unix.F_GETFD, 0); err != nil {
				t.Errorf("descriptor %d held but not open: %v", fd, err)
			}
		}
		if l.held != nil {
			l.held.close()
		}
		for _, fd := range held {
			if _, err := unix.FcntlInt(uintptr(fd), unix.F_GETFD, 0); !errors.Is(err, unix.EBADF) {
				t.Errorf("descriptor %d still open after the close", fd)
			}
		}
		if b, err := fs.ReadFile(l, "paste-cache/a.txt"); string(b) != "alpha" || err != nil {
			t.Errorf("read after the close: %q %v", b, err)
		}
	})
}

// The listed homes of the process hold at most heldFolderCap folders
// between them: past it (here none may be held) a name is resolved from
// the home's descriptor, with the same answers.
func TestListedHomesHoldAtMostTheCap(t *testing.T) {
	home := listedHome(t)
	was := heldFolderCap
	defer func() { heldFolderCap = was }()
	heldFolderCap = 0
	l := ListOnce(HomeFS(home)).(*listedFS)
	for _, op := range []string{"ReadDir", "OpenRegular", "Stat", "ReadFile"} {
		for _, name := range listedNames {
			if got, want := answer(t, l, op, name), answer(t, HomeFS(home), op, name); got != want {
				t.Errorf("%s %s past the cap: listed home says\n%s\nthe home says\n%s", op, name, got, want)
			}
		}
	}
	if l.held != nil {
		l.held.mu.Lock()
		for dir, fd := range l.held.folders {
			if fd >= 0 {
				t.Errorf("%s held past the cap", dir)
			}
		}
		l.held.mu.Unlock()
	}
}

// A file a listed home opened by name closes once: a second Close says
// so (and closes no descriptor another open got since), as an *os.File's.
func TestListedHomeFileClosesOnce(t *testing.T) {
	eachKernel(t, func(t *testing.T, byName bool) {
		home := listedHome(t)
		f, err := OpenRegular(ListOnce(HomeFS(home)), "paste-cache/a.txt")
		if err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
		other, err := os.Open(filepath.Join(home, "history.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		defer other.Close()
		if err := f.Close(); !errors.Is(err, fs.ErrClosed) {
			t.Errorf("second Close: %v", err)
		}
		if b, err := io.ReadAll(other); string(b) != "{}\n" || err != nil {
			t.Errorf("the file opened after the first Close: %q %v", b, err)
		}
	})
}

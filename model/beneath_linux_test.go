//go:build linux

package model

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// reopenBeneath opens the file the kernel resolved inside the home, and
// leaves to statBeneath's way every name it cannot vouch for as a plain
// file or folder: links out, a pipe, a folder not asked for.
// Without openat2 it answers none (ok false, no error): every name goes
// to ResolveInside (TestHomeFSKernelAndResolveInsideAgree covers that).
func TestReopenBeneathAnswers(t *testing.T) {
	eachKernel(t, testReopenBeneathAnswers)
}

func testReopenBeneathAnswers(t *testing.T, byName bool) {
	home, _ := beneathHome(t)
	if !byName {
		for _, n := range []string{"a/b/f.md", "a/rel.md", "a/out.md", "a/fifo", "a/b", "a/none.md"} {
			for _, dirOK := range []bool{false, true} {
				if f, ok, err := reopenBeneath(home, n, filepath.Join(home, n), dirOK); ok || err != nil || f != nil {
					t.Errorf("%s (folder asked for: %v): ok %v, %v, without openat2", n, dirOK, ok, err)
				}
			}
		}
		return
	}
	for _, n := range []string{"a/b/f.md", "a/rel.md", "a/bdir/f.md"} {
		full := filepath.Join(home, n)
		f, ok, err := reopenBeneath(home, n, full, false)
		if !ok || err != nil {
			t.Fatalf("%s: ok %v, %v", n, ok, err)
		}
		data, err := io.ReadAll(f)
		f.Close()
		if err != nil || string(data) != "inside" || fileName(f) != full {
			t.Errorf("%s: read %q, %v, named %s", n, data, err, fileName(f))
		}
	}
	for _, n := range []string{"a/out.md", "a/outdir/f.md", "a/b/up/f.md", "a/abs.md", "a/fifo", "a/b", "a/loop"} {
		if f, ok, _ := reopenBeneath(home, n, filepath.Join(home, n), false); ok {
			f.Close()
			t.Errorf("%s: reopened a name it cannot vouch for as a plain file inside", n)
		}
	}
	f, ok, err := reopenBeneath(home, "a/b", filepath.Join(home, "a/b"), true)
	if !ok || err != nil {
		t.Fatalf("a folder asked for: ok %v, %v", ok, err)
	}
	ents, err := f.(fs.ReadDirFile).ReadDir(-1)
	f.Close()
	if err != nil || len(ents) != 2 {
		t.Errorf("a folder asked for lists %v, %v", ents, err)
	}
	if _, ok, err := reopenBeneath(home, "a/none.md", filepath.Join(home, "a/none.md"), false); !ok || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing name: ok %v, %v", ok, err)
	}
}

// A plain file of a home is opened without O_NONBLOCK (it is known not
// to be a pipe), so the runtime does not try to add it to its poller (a
// failed epoll_ctl a file): the old way opened every file with it.
// Without openat2 the file is opened ResolveInside's way, with
// O_NONBLOCK (the name is not known to be no pipe before the open), and
// reads the same.
func TestHomeFSOpensPlainFilesBlocking(t *testing.T) {
	eachKernel(t, testHomeFSOpensPlainFilesBlocking)
}

func testHomeFSOpensPlainFilesBlocking(t *testing.T, byName bool) {
	home, _ := beneathHome(t)
	f, err := OpenRegular(HomeFS(home), "a/b/f.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var fd uintptr
	switch f := f.(type) {
	case *heldFile:
		fd = uintptr(f.fd)
	default:
		of, isOS := osFile(f)
		if !isOS {
			t.Fatalf("opened a %T", f)
		}
		fd = of.Fd()
	}
	flags, err := unix.FcntlInt(fd, unix.F_GETFL, 0)
	if err != nil {
		t.Fatal(err)
	}
	if nonblock := flags&unix.O_NONBLOCK != 0; nonblock == byName {
		t.Errorf("openat2 %v: O_NONBLOCK %v (flags %#x)", byName, nonblock, flags)
	}
	if data, err := io.ReadAll(f); err != nil || string(data) != "inside" {
		t.Errorf("read %q, %v", data, err)
	}
}

// A held home reads as one not held: the same content, the same
// refusals and errors for every kind of name (beneathHome's), through
// the home and through a memory folder inside it.
func TestHeldHomeReadsAlike(t *testing.T) {
	home, names := beneathHome(t)
	fsys := HomeFS(home)
	free := reads(fsys, names)
	release := HoldHome(home)
	held := reads(fsys, names)
	release()
	for k, v := range free {
		if held[k] != v {
			t.Errorf("%s:\n held:     %s\n not held: %s", k, held[k], v)
		}
	}
	if held["read a/b/f.md"] != `"inside" <nil>` {
		t.Errorf("a plain file was not read: %v", held)
	}
}

// HoldHome keeps the home a command started with to its end: renamed
// away and replaced, the held home is still the one read; once
// released (twice: a no-op), the new one is, and the descriptor is
// closed (no hold is left for the folder).
func TestHeldHomeIsTheHomeHeld(t *testing.T) {
	parent := t.TempDir()
	home := filepath.Join(parent, "home")
	write := func(dir, text string) {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "f.md"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	read := func() string {
		b, err := fs.ReadFile(HomeFS(home), "f.md")
		if err != nil {
			return err.Error()
		}
		return string(b)
	}
	write(home, "first")
	release := HoldHome(home)
	again := HoldHome(home) // a second hold shares the first's descriptor
	if err := os.Rename(home, home+".away"); err != nil {
		t.Fatal(err)
	}
	write(home, "second")
	if got := read(); got != "first" {
		t.Errorf("held: read %q, want the held home's %q", got, "first")
	}
	release()
	release()
	if got := read(); got != "first" {
		t.Errorf("held once more: read %q, want %q", got, "first")
	}
	again()
	if got := read(); got != "second" {
		t.Errorf("released: read %q, want the new home's %q", got, "second")
	}
	heldHomes.Lock()
	left := len(heldHomes.m)
	heldHomes.Unlock()
	if left != 0 {
		t.Errorf("%d holds left after every release", left)
	}
	if release := HoldHome(filepath.Join(parent, "missing")); release == nil {
		t.Error("HoldHome of a missing folder gave no release")
	} else {
		release()
	}
}

// Every reopen goes through the one descriptor of /proc/self/fd held
// for the process (a lookup of the descriptor's number), not a walk of
// /proc/self/fd/N from the root: the process holds one descriptor of its
// own fd folder, opened once however many files are opened, and what is
// read is the file asked for.
//
// Without openat2 nothing is reopened: /proc/self/fd is not opened for
// it.
func TestReopenBeneathHoldsProcFD(t *testing.T) {
	eachKernel(t, testReopenBeneathHoldsProcFD)
}

func testReopenBeneathHoldsProcFD(t *testing.T, byName bool) {
	home, _ := beneathHome(t)
	if !byName {
		before := procFDOpens.Load()
		for _, n := range []string{"a/b/f.md", "a/rel.md", "a/bdir/f.md"} {
			if f, ok, err := reopenBeneath(home, n, filepath.Join(home, n), false); ok || err != nil || f != nil {
				t.Errorf("%s: ok %v, %v, without openat2", n, ok, err)
			}
		}
		if n := procFDOpens.Load(); n != before {
			t.Errorf("/proc/self/fd opened %d times without openat2", n-before)
		}
		return
	}
	for range 5 {
		for _, n := range []string{"a/b/f.md", "a/rel.md", "a/bdir/f.md"} {
			f, ok, err := reopenBeneath(home, n, filepath.Join(home, n), false)
			if !ok || err != nil {
				t.Fatalf("%s: ok %v, %v", n, ok, err)
			}
			data, err := io.ReadAll(f)
			f.Close()
			if err != nil || string(data) != "inside" {
				t.Fatalf("%s: read %q, %v", n, data, err)
			}
		}
	}
	if held := procFDsHeld(t); held != 1 {
		t.Errorf("%d descriptors of the process's fd folder held, want 1", held)
	}
	if n := procFDOpens.Load(); n != 1 {
		t.Errorf("/proc/self/fd opened %d times, want once for the process", n)
	}
}

// procFDsHeld counts the process's descriptors of its own fd folder.
func procFDsHeld(t *testing.T) int {
	t.Helper()
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	want, held := fmt.Sprintf("/proc/%d/fd", os.Getpid()), 0
	for _, e := range ents {
		if target, err := os.Readlink("/proc/self/fd/" + e.Name()); err == nil && target == want {
			held++
		}
	}
	return held
}

// fileName is the name f was opened by (an *os.File's Name, a
// heldFile's full path).
func fileName(f fs.File) string {
	switch f := f.(type) {
	case *heldFile:
		return f.name
	case interface{ Name() string }:
		return f.Name()
	}
	return ""
}

// A regular file a home's file system opens beneath the home (the
// kernel resolved it: reopenBeneath) is read from its descriptor with
// no *os.File around it, whose making asks fcntl (F_GETFL) once a file:
// some 4 000 calls a cold start on W. Its OpenedInfo is its open's
// fstat; a folder is a heldDir, listed as os lists it (one entry at a
// time here, io.EOF at the end), read as os reads one (is a directory);
// statBeneath's answer is an fstat's too. On the old code each was an
// *os.File.
func TestReopenedRegularFileIsNoOSFile(t *testing.T) {
	home, _ := beneathHome(t)
	if _, ok, _ := reopenBeneath(home, "a/b/f.md", filepath.Join(home, "a/b/f.md"), false); !ok {
		t.Skip("the kernel does not resolve beneath here (no openat2)")
	}
	h0 := reopenedHeld.Load()
	for _, open := range []func(fs.FS, string) (fs.File, error){OpenRegular, func(f fs.FS, n string) (fs.File, error) { return f.Open(n) }} {
		f, err := open(HomeFS(home), "a/b/f.md")
		if err != nil {
			t.Fatal(err)
		}
		if _, held := f.(*heldFile); !held {
			t.Errorf("opened a %T, want a *heldFile", f)
		}
		info, err := OpenedInfo(f)
		if err != nil || !info.Mode().IsRegular() || info.Size() != int64(len("inside")) || info.Name() != "f.md" {
			t.Errorf("OpenedInfo: %v, %v", info, err)
		}
		if data, err := io.ReadAll(f); err != nil || string(data) != "inside" {
			t.Errorf("read %q, %v", data, err)
		}
		f.Close()
	}
	if n := reopenedHeld.Load() - h0; n != 2 {
		t.Errorf("%d files reopened held, want 2", n)
	}
	d, err := HomeFS(home).Open("a/b")
	if err != nil {
		t.Fatal(err)
	}
	if _, held := d.(*heldDir); !held {
		t.Errorf("a folder opened as a %T, want a *heldDir", d)
	}
	if info, err := OpenedInfo(d); err != nil || !info.IsDir() || info.Name() != "b" {
		t.Errorf("a folder's OpenedInfo: %v, %v", info, err)
	}
	if _, err := d.Read(make([]byte, 1)); !errors.Is(err, syscall.EISDIR) {
		t.Errorf("a folder read: %v, want is a directory", err)
	}
	want, err := os.ReadDir(filepath.Join(home, "a/b"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for {
		ents, err := d.(fs.ReadDirFile).ReadDir(1)
		if err == io.EOF {
			break
		}
		if err != nil || len(ents) != 1 {
			t.Fatalf("ReadDir(1): %v, %v", ents, err)
		}
		names = append(names, ents[0].Name())
	}
	slices.Sort(names)
	if len(names) != len(want) || len(want) == 0 {
		t.Errorf("listed %q one at a time, os %v", names, want)
	}
	for i := range min(len(names), len(want)) {
		if names[i] != want[i].Name() {
			t.Errorf("listed %q one at a time, os %v", names, want)
			break
		}
	}
	d.Close()
	info, ok, err := statBeneath("stat", home, "a/b/f.md")
	if !ok || err != nil {
		t.Fatalf("statBeneath: %v, %v", ok, err)
	}
	if _, isStat := info.(*statInfo); !isStat || info.Name() != "f.md" || !info.Mode().IsRegular() {
		t.Errorf("statBeneath: a %T named %s, mode %v", info, info.Name(), info.Mode())
	}
}

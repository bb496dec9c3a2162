//go:build linux

package model

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// reopenBeneath opens the file the kernel resolved inside the home, and
// leaves to statBeneath's way every name it cannot vouch for as a plain
// file or folder: links out, a pipe, a folder not asked for.
func TestReopenBeneathAnswers(t *testing.T) {
	if noOpenat2.Load() {
		t.Skip("this kernel has no openat2: every name goes to ResolveInside (TestHomeFSKernelAndResolveInsideAgree covers that)")
	}
	home, _ := beneathHome(t)
	for _, n := range []string{"a/b/f.md", "a/rel.md", "a/bdir/f.md"} {
		full := filepath.Join(home, n)
		f, ok, err := reopenBeneath(home, n, full, false)
		if !ok || err != nil {
			t.Fatalf("%s: ok %v, %v", n, ok, err)
		}
		data, err := io.ReadAll(f)
		f.Close()
		if err != nil || string(data) != "inside" || f.Name() != full {
			t.Errorf("%s: read %q, %v, named %s", n, data, err, f.Name())
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
	ents, err := f.ReadDir(-1)
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
func TestHomeFSOpensPlainFilesBlocking(t *testing.T) {
	if noOpenat2.Load() {
		t.Skip("this kernel has no openat2: files are opened by ResolveInside's way, with O_NONBLOCK")
	}
	home, _ := beneathHome(t)
	f, err := OpenRegular(HomeFS(home), "a/b/f.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	of, isOS := f.(*os.File)
	if !isOS {
		t.Fatalf("opened a %T", f)
	}
	flags, err := unix.FcntlInt(of.Fd(), unix.F_GETFL, 0)
	if err != nil {
		t.Fatal(err)
	}
	if flags&unix.O_NONBLOCK != 0 {
		t.Errorf("a plain file was opened with O_NONBLOCK (flags %#x)", flags)
	}
}

package model

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// withoutKernel runs f with every name of a home resolved by
// ResolveInside (as where openat2 is missing), then restores the state.
func withoutKernel(t *testing.T, f func()) {
	t.Helper()
	was := noOpenat2.Load()
	noOpenat2.Store(true)
	defer noOpenat2.Store(was)
	f()
}

// beneathHome is a home with every kind of name a reader meets: files
// and folders, links inside (relative, absolute), links out (relative,
// absolute, the folder on the way), a loop, a dangling link, a pipe and
// names that are not there.
func beneathHome(t *testing.T) (home string, names []string) {
	t.Helper()
	home, out := t.TempDir(), t.TempDir()
	mk := func(p string) {
		if err := os.MkdirAll(filepath.Join(home, p), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(p, s string) {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	link := func(target, p string) {
		if err := os.Symlink(target, filepath.Join(home, p)); err != nil {
			t.Fatal(err)
		}
	}
	mk("a/b")
	write(filepath.Join(home, "a/b/f.md"), "inside")
	write(filepath.Join(out, "f.md"), "outside")
	link("b/f.md", "a/rel.md")
	link(filepath.Join(home, "a/b/f.md"), "a/abs.md")
	link("../../..", "a/b/up")
	link(out, "a/outdir")
	link(filepath.Join(out, "f.md"), "a/out.md")
	link("loop", "a/loop")
	link("missing.md", "a/dangling.md")
	link("b", "a/bdir")
	if err := syscall.Mkfifo(filepath.Join(home, "a/fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	names = []string{"a", "a/b", "a/b/f.md", "a/rel.md", "a/abs.md", "a/b/up/f.md", "a/outdir", "a/outdir/f.md",
		"a/out.md", "a/loop", "a/loop/x", "a/dangling.md", "a/bdir/f.md", "a/bdir/../b/f.md", "a/fifo", "a/none.md", "a/none/x.md",
		"a/b/f.md/x"}
	return home, names
}

// reads is what each way of reading a name of fsys gives: content or
// error, listing, stat.
func reads(fsys fs.FS, names []string) map[string]string {
	got := map[string]string{}
	for _, n := range names {
		data, err := fs.ReadFile(fsys, n)
		got["read "+n] = fmt.Sprintf("%q %v", data, err)
		// A folder's listing; for a file, the error's path is the
		// path opened (ResolveInside's resolved one), so only its
		// kind is compared.
		entries, err := fs.ReadDir(fsys, n)
		got["readdir "+n] = fmt.Sprintf("%d %v %v", len(entries), err != nil, IsLinkNotFollowed(err))
		if pe := (*fs.PathError)(nil); errors.As(err, &pe) && pe.Op != "readdirent" {
			got["readdir "+n] += " " + err.Error()
		}
		// Stat's name: the kernel's is the name asked for (as
		// os.DirFS's), ResolveInside's the link's target's.
		info, err := fs.Stat(fsys, n)
		if err == nil {
			got["stat "+n] = fmt.Sprintf("%v %d", info.Mode(), info.Size())
		} else {
			got["stat "+n] = err.Error()
		}
		f, err := OpenRegular(fsys, n)
		if err == nil {
			f.Close()
		}
		got["open regular "+n] = fmt.Sprint(err)
	}
	return got
}

// The kernel's answer (statBeneath) and ResolveInside read a home alike:
// the same content, the same refusals naming the same link, the same
// errors, for every kind of name, through the home and through a
// memory folder inside it.
func TestHomeFSKernelAndResolveInsideAgree(t *testing.T) {
	home, names := beneathHome(t)
	for _, fsys := range []fs.FS{HomeFS(home), MemoryFS(home, filepath.Join(home, "a"))} {
		ns := names
		if _, sub := fsys.(subHomeFS); sub {
			ns = nil
			for _, n := range names[1:] {
				ns = append(ns, n[len("a/"):])
			}
		}
		fast := reads(fsys, ns)
		var slow map[string]string
		withoutKernel(t, func() { slow = reads(fsys, ns) })
		for k, v := range slow {
			if fast[k] != v {
				t.Errorf("%T %s:\n kernel:        %s\n ResolveInside: %s", fsys, k, fast[k], v)
			}
		}
		if fast["read a/b/f.md"] != `"inside" <nil>` && fast["read b/f.md"] != `"inside" <nil>` {
			t.Errorf("%T: a plain file was not read: %v", fsys, fast)
		}
	}
}

// On Linux the kernel resolves a plain name of the home in one call
// (unless it has no openat2: then the flag says so), and refuses to
// vouch for a link out, so ResolveInside names it.
func TestStatBeneathAnswers(t *testing.T) {
	home, _ := beneathHome(t)
	info, ok, err := statBeneath("open", home, "a/rel.md")
	if !ok && !noOpenat2.Load() && isLinux {
		t.Fatalf("the kernel did not resolve a link inside the home: %v", err)
	}
	if ok && (err != nil || info.Size() != int64(len("inside"))) {
		t.Errorf("a link inside the home: %v, %v", info, err)
	}
	for _, n := range []string{"a/out.md", "a/outdir/f.md", "a/b/up/f.md", "a/abs.md"} {
		if _, ok, _ := statBeneath("open", home, n); ok {
			t.Errorf("%s: the kernel vouched for a link it cannot place inside", n)
		}
	}
}

// A folder read through (so any cache of resolved folders holds it),
// then replaced by a link out of the home, is refused: the reader does
// not keep trusting what it resolved before.
func TestHomeFSFolderReplacedByALinkOut(t *testing.T) {
	for _, kernel := range []bool{true, false} {
		t.Run(fmt.Sprintf("kernel=%v", kernel), func(t *testing.T) {
			home, out := t.TempDir(), t.TempDir()
			dir := filepath.Join(home, "projects", "p")
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "s.jsonl"), []byte("in"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(out, "s.jsonl"), []byte("secret"), 0o644); err != nil {
				t.Fatal(err)
			}
			check := func() {
				fsys := HomeFS(home)
				if data, err := fs.ReadFile(fsys, "projects/p/s.jsonl"); err != nil || string(data) != "in" {
					t.Fatalf("before: %q, %v", data, err)
				}
				if err := os.RemoveAll(dir); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink(out, dir); err != nil {
					t.Fatal(err)
				}
				for what, err := range map[string]error{
					"read": func() error { _, err := fs.ReadFile(fsys, "projects/p/s.jsonl"); return err }(),
					"stat": func() error { _, err := fs.Stat(fsys, "projects/p/s.jsonl"); return err }(),
					"list": func() error { _, err := fs.ReadDir(fsys, "projects/p"); return err }(),
				} {
					if !IsLinkNotFollowed(err) {
						t.Errorf("%s after the folder became a link out: %v, want a refused link", what, err)
					}
				}
			}
			if kernel {
				check()
			} else {
				withoutKernel(t, check)
			}
		})
	}
}

// identBeneath (openBeneath's question, without an *os.File) answers as
// statBeneath for every name: the same yes, the same error, the same
// kind of file, the same file.
func TestIdentBeneathIsStatBeneath(t *testing.T) {
	home, names := beneathHome(t)
	for _, n := range append(names, "a", "a/b/f.md", "missing.md") {
		info, ok, err := statBeneath("open", home, n)
		id, idOK, idErr := identBeneath("open", home, n)
		if ok != idOK || (err == nil) != (idErr == nil) {
			t.Errorf("%s: statBeneath %v %v, identBeneath %v %v", n, ok, err, idOK, idErr)
			continue
		}
		if !ok || err != nil {
			continue
		}
		if id.regular != info.Mode().IsRegular() || id.dir != info.IsDir() || !id.is(info) {
			t.Errorf("%s: identBeneath %+v, statBeneath %v %v", n, id, info.Mode(), info.Sys())
		}
	}
}

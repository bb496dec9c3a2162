package cleanup

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/memscope/memscope/engine/internal/enginetest"
	"github.com/memscope/memscope/internal/faultfs"
	"github.com/memscope/memscope/internal/testenv"
	"github.com/memscope/memscope/model"
)

// steadyArchiveHome is archiveHome with every folder's mtime fixed (the
// ones archiveHome leaves are the time the test ran): the .tar.gz then
// has the same bytes on every run, so its writes come in the same number.
func steadyArchiveHome(t *testing.T) *model.Home {
	t.Helper()
	h := archiveHome(t)
	keep := "file-history/11111111-1111-4111-8111-111111111111"
	mt := retNow.Add(-time.Hour)
	err := filepath.WalkDir(h.Dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() || p == h.Dir {
			return err
		}
		if rel, _ := filepath.Rel(h.Dir, p); filepath.ToSlash(rel) == keep {
			return nil
		}
		return os.Chtimes(p, mt, mt)
	})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// archivedTree is the archive at to as a snapshot: the folder itself, or
// the extracted .tar.gz (its files made writable again in the snapshot:
// extraction makes them read-only on purpose).
func archivedTree(t *testing.T, to string) map[string]fileState {
	t.Helper()
	if !IsTarGzPath(to) {
		return snapshotTree(t, to)
	}
	ah, closeHome, probs, err := model.OpenTarHome(to)
	if err != nil || len(probs) != 0 {
		t.Fatalf("open %s: %v %v", to, err, probs)
	}
	defer closeHome()
	arch := snapshotTree(t, ah.Dir)
	for rel, st := range arch {
		if st.sum != "" {
			st.mode |= 0o200
			arch[rel] = st
		}
	}
	return arch
}

// spreadCalls are the calls 1..n of one step that are made to fail: all
// of them up to max, else max calls spread evenly from the first to the
// last (a .tar.gz is written in some 180 calls of the gzip stream, which
// all go the same way: only the first, the last and the file boundaries
// between them differ).
func spreadCalls(n, max int) []int {
	if n <= max {
		out := make([]int, n)
		for i := range out {
			out[i] = i + 1
		}
		return out
	}
	out := make([]int, max)
	for i := range out {
		out[i] = 1 + i*(n-1)/(max-1)
	}
	return out
}

// Every write call of an archive (a folder, a .tar.gz) fails in turn, at
// each of its calls (spread over them for the gzip stream's writes): the error carries the errno and names the path that
// failed, the source home is untouched, no temporary file is left, a
// .tar.gz is not there at all, and once the fault is gone the same
// archive runs to completion, every old file in it with the source's
// bytes, mode and mtime. A failed folder fsync is not a failure. By
// default each step fails at its first and its last call; MEMSCOPE_LONG=1
// spreads five calls over each step.
func TestArchiveFaults(t *testing.T) {
	spread := testenv.Size(t, 5, 2)
	for _, dest := range []string{"arch", "arch.tar.gz"} {
		// The calls an archive makes without a fault.
		count := &faultfs.FS{Base: faultfs.NoSync{}}
		h := steadyArchiveHome(t)
		if _, err := Archive(ArchiveOptions{Home: h, Items: defaultSelection(t, h), To: filepath.Join(t.TempDir(), "out", dest), Writes: count}); err != nil {
			t.Fatal(err)
		}
		for _, step := range []faultfs.Step{faultfs.StepCreateTemp, faultfs.StepRename, faultfs.StepSyncDir} {
			if count.Calls(step) == 0 {
				t.Fatalf("%s: an archive made no %s call: its writes bypass the writer", dest, step)
			}
		}
		for si, step := range faultfs.Steps {
			for _, k := range spreadCalls(count.Calls(step), spread) {
				errno := faultfs.Errnos[(si+k)%len(faultfs.Errnos)]
				t.Run(fmt.Sprintf("%s/%s/%d/%s", dest, step, k, errno), func(t *testing.T) {
					t.Parallel()
					h := steadyArchiveHome(t)
					items := defaultSelection(t, h)
					before := snapshotTree(t, h.Dir)
					parent := t.TempDir()
					to := filepath.Join(parent, "out", dest)
					f := &faultfs.FS{Base: faultfs.NoSync{}, Step: step, Nth: k, Err: errno}
					_, err := Archive(ArchiveOptions{Home: h, Items: items, To: to, Writes: f})
					if step == faultfs.StepSyncDir {
						if err != nil {
							t.Fatalf("a failed folder fsync failed the archive: %v", err)
						}
					} else {
						if !errors.Is(err, errno) {
							t.Fatalf("err = %v, want %v", err, errno)
						}
						if hits := f.Hits(); len(hits) == 0 || !strings.Contains(err.Error(), hits[0]) || !strings.Contains(err.Error(), to) {
							t.Errorf("error %q does not name the destination %s and the path that failed (%q)", err, to, hits)
						}
						if _, serr := os.Lstat(to); IsTarGzPath(to) && !errors.Is(serr, fs.ErrNotExist) {
							t.Errorf("a failed .tar.gz archive is there: %v", serr)
						}
						// Nothing the failed archive made is left, the
						// folders it created included, unless it says so.
						if _, serr := os.Lstat(filepath.Dir(to)); !errors.Is(serr, fs.ErrNotExist) && !strings.Contains(err.Error(), "could not all be removed") {
							t.Errorf("a failed archive left %s (%v)", filepath.Dir(to), serr)
						}
					}
					if left := enginetest.Leftovers(t, parent); len(left) > 0 {
						t.Errorf("left behind: %q", left)
					}
					if after := snapshotTree(t, h.Dir); !reflect.DeepEqual(before, after) {
						t.Error("the source home changed")
					}
					f.Heal()
					if err != nil {
						if _, err := Archive(ArchiveOptions{Home: h, Items: items, To: to, Writes: f}); err != nil {
							t.Fatalf("retry: %v", err)
						}
					}
					checkCopies(t, before, archivedTree(t, to))
				})
			}
		}
	}
}

// appearFS is the real OS where a file appears at path while the archive
// writes it (when its temporary file is created), as if another program
// wrote it then.
type appearFS struct {
	faultfs.NoSync
	path string
}

func (a appearFS) CreateTemp(dir, pattern string) (model.TempFile, error) {
	if strings.HasPrefix(pattern, "."+filepath.Base(a.path)+".") && dir == filepath.Dir(a.path) {
		if err := os.WriteFile(a.path, []byte("theirs"), 0o600); err != nil {
			return nil, err
		}
	}
	return a.NoSync.CreateTemp(dir, pattern)
}

// A file that appears at an archived file's path (or the .tar.gz's)
// after the first pass is not replaced: the archive stops with a
// conflict naming it, and the temporary copy is gone.
func TestArchiveNeverReplacesAFileThatAppeared(t *testing.T) {
	for _, c := range []struct{ dest, appears string }{{"arch", "arch/todos/t.json"}, {"arch.tar.gz", "arch.tar.gz"}} {
		t.Run(c.dest, func(t *testing.T) {
			h := archiveHome(t)
			parent := t.TempDir()
			to, appears := filepath.Join(parent, c.dest), filepath.Join(parent, filepath.FromSlash(c.appears))
			_, err := Archive(ArchiveOptions{Home: h, Items: defaultSelection(t, h), To: to, Writes: appearFS{path: appears}})
			var conflict *ArchiveConflictError
			if !errors.As(err, &conflict) || !strings.Contains(err.Error(), filepath.Base(appears)) {
				t.Fatalf("err = %v, want a conflict on %s", err, appears)
			}
			if got, _ := os.ReadFile(appears); string(got) != "theirs" {
				t.Errorf("the file that appeared became %q", got)
			}
			if left := enginetest.Leftovers(t, parent); len(left) > 0 {
				t.Errorf("left behind: %q", left)
			}
		})
	}
}

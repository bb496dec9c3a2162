package diskcache

import (
	"io/fs"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/memscope/memscope/model"
)

// opensFS counts the files opened through it, and apart the stats by
// name (a Stat is not an open).
type opensFS struct {
	fs.FS
	opens, stats atomic.Int64
}

func (o *opensFS) Open(name string) (fs.File, error) {
	o.opens.Add(1)
	return o.FS.Open(name)
}

func (o *opensFS) Stat(name string) (fs.FileInfo, error) {
	o.stats.Add(1)
	return fs.Stat(o.FS, name)
}

// openStamped opens name of fsys and stamps it from that open.
func openStamped(t *testing.T, fsys fs.FS, name string) (fs.File, model.FileStamp) {
	t.Helper()
	f, err := fsys.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	st, err := model.StampOpened(f, name)
	if err != nil {
		t.Fatal(err)
	}
	return f, st
}

// PerFileStamping opens a file without an entry once (the compute's
// open stamps it), keeps its value under that stamp, and answers it from
// the cache on the next run after one open (PerFile's stamp); a file
// the compute did not stamp, or that changed after its stamp, is not
// kept.
func TestPerFileStampingOpensAFileOnce(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, n := range []string{"a", "b", "c"} {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("text of "+n), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	fsys := &opensFS{FS: model.DirFS(dir)}
	names := []string{"a", "b", "c"}
	computed := 0
	compute := func(miss []int, stamp func(int, model.FileStamp)) []int {
		out := make([]int, len(miss))
		for j, i := range miss {
			computed++
			f, st := openStamped(t, fsys, names[i])
			if names[i] != "c" {
				stamp(j, st) // c: not stamped, so not kept
			}
			b := make([]byte, 64)
			n, _ := f.Read(b)
			f.Close()
			out[j] = n
		}
		return out
	}
	whole := func(int, int64) bool { return true }
	next := map[string]Entry[int]{}
	out, hits := PerFileStamping(fsys, names, nil, next, compute, whole)
	if hits != 0 || computed != 3 || out[0] != len("text of a") {
		t.Fatalf("cold run: hits %d, computed %d, out %v", hits, computed, out)
	}
	if n := fsys.opens.Load(); n != 3 {
		t.Errorf("a cold run opened files %d times, want 3 (each once)", n)
	}
	if _, ok := next["c"]; ok || len(next) != 2 {
		t.Errorf("kept %v: want a and b (c was not stamped)", next)
	}
	fsys.opens.Store(0)
	computed = 0
	again := map[string]Entry[int]{}
	out, hits = PerFileStamping(fsys, names, next, again, compute, whole)
	if hits != 2 || computed != 1 || out[1] != len("text of b") {
		t.Errorf("warm run: hits %d, computed %d, out %v", hits, computed, out)
	}
	// a and b stamped (one open each), c stamped by its compute.
	if n := fsys.opens.Load(); n != 3 {
		t.Errorf("a warm run opened files %d times, want 3", n)
	}
	// A file written after the compute stamped it is not kept.
	changing := func(miss []int, stamp func(int, model.FileStamp)) []int {
		out := compute(miss, stamp)
		if err := os.WriteFile(filepath.Join(dir, "a"), []byte("rewritten, longer"), 0o600); err != nil {
			t.Fatal(err)
		}
		return out
	}
	last := map[string]Entry[int]{}
	PerFileStamping(fsys, []string{"a"}, nil, last, changing, whole)
	if len(last) != 0 {
		t.Errorf("a file written after its stamp was kept: %v", last)
	}
}

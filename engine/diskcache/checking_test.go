package diskcache

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/memscope/memscope/model"
)

// PerFileFoldersChecking keeps a file its compute stamped at its open
// and checked after its read from the same descriptor without stat'ing
// it by name (Unchanged), keeps nothing of a file written during the
// read (stamped before it, checked after it), and asks the name of a
// file the compute hands no check for, as PerFileStamping does.
func TestPerFileCheckingStatsNoName(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	names := []string{"a", "b", "c"}
	for _, n := range names {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("text of "+n), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	fsys := &opensFS{FS: model.DirFS(dir)}
	compute := func(miss []int, stamp, after func(int, model.FileStamp)) []int {
		out := make([]int, len(miss))
		for j, i := range miss {
			var f fs.File
			f, out[j] = readStamped(t, fsys, names[i], func(st model.FileStamp) { stamp(j, st) })
			switch names[i] {
			case "a":
				// Written during the read.
				if err := os.WriteFile(filepath.Join(dir, "a"), []byte("rewritten, longer"), 0o600); err != nil {
					t.Fatal(err)
				}
			case "c":
				f.Close()
				continue // no check: asked by its name
			}
			closeChecked(t, f, func(st model.FileStamp) { after(j, st) })
		}
		return out
	}
	whole := func(int, int64) bool { return true }
	next := map[string]Entry[int]{}
	now := time.Now()
	out, hits, _ := PerFileFoldersChecking(fsys, names, nil, next, nil, Folders{}, now, compute, whole)
	if hits != 0 || out[1] != len("text of b") {
		t.Fatalf("hits %d, out %v", hits, out)
	}
	if _, ok := next["a"]; ok {
		t.Error("a file written during its read was kept")
	}
	if _, ok := next["b"]; !ok {
		t.Error("a file checked unchanged after its read was not kept")
	}
	if _, ok := next["c"]; !ok {
		t.Error("a file without a check, unchanged, was not kept")
	}
	if n := fsys.stats.Load(); n != 1 {
		t.Errorf("%d stats by name, want 1 (c's, which had no check)", n)
	}
}

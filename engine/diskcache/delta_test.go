package diskcache

import (
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/memscope/memscope/model"
)

// folderHome is a temporary folder, a write of a file in it (its
// folders made) and an age of one of its names (times an hour ago).
func folderHome(t *testing.T) (dir string, write func(name, text string), age func(rel string)) {
	dir = t.TempDir()
	write = func(name, text string) {
		t.Helper()
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	hourAgo := time.Now().Add(-time.Hour)
	age = func(rel string) {
		t.Helper()
		if err := os.Chtimes(filepath.Join(dir, filepath.FromSlash(rel)), hourAgo, hourAgo); err != nil {
			t.Fatal(err)
		}
	}
	return dir, write, age
}

// readStamped opens name of fsys, hands stamp its stamp from that open
// and reads up to 64 bytes of it: the file, open, and the bytes read.
func readStamped(t *testing.T, fsys fs.FS, name string, stamp func(model.FileStamp)) (fs.File, int) {
	t.Helper()
	f, st := openStamped(t, fsys, name)
	stamp(st)
	n, _ := f.Read(make([]byte, 64))
	return f, n
}

// closeChecked hands after the stamp of f, an open file, from its
// descriptor (a Checking's check after its read), and closes it.
func closeChecked(t *testing.T, f fs.File, after func(model.FileStamp)) {
	t.Helper()
	info, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	after(model.StampOf(info))
	f.Close()
}

// PerFileFoldersChecking with same answers as it does without
// (values, hits, folder stamps), and the entries it keeps -- next's and
// the cache's of the files marked same -- are the ones
// it puts in next without same, run after run: a write-once
// folder trusted, a file unchanged, one rewritten, one added, one gone.
// An answer from the cache kept as it is goes into same, not next.
func TestPerFileFoldersCheckingDeltaKeepsTheSame(t *testing.T) {
	t.Parallel()
	dir, write, age := folderHome(t)
	write("file-history/s1/a@v1", "one")
	write("file-history/s1/b@v1", "two")
	write("notes/c.md", "three")
	write("notes/d.md", "four")
	age("file-history/s1")
	fsys := model.DirFS(dir)
	compute := func(names []string) Checking[int] {
		return func(miss []int, stamp, after func(int, model.FileStamp)) []int {
			out := make([]int, len(miss))
			for j, i := range miss {
				f, n := readStamped(t, fsys, names[i], func(st model.FileStamp) { stamp(j, st) })
				out[j] = n
				closeChecked(t, f, func(st model.FileStamp) { after(j, st) })
			}
			return out
		}
	}
	whole := func(int, int64) bool { return true }
	cache := map[string]Entry[int]{}
	var folders Folders
	now := time.Now()
	for run, names := range [][]string{
		{"file-history/s1/a@v1", "file-history/s1/b@v1", "notes/c.md", "notes/d.md"},
		{"file-history/s1/a@v1", "file-history/s1/b@v1", "notes/c.md", "notes/d.md"},
		{"file-history/s1/a@v1", "file-history/s1/b@v1", "notes/c.md", "notes/e.md"},
	} {
		if run == 2 {
			write("notes/c.md", "three, again")
			write("notes/e.md", "five")
		}
		at := now.Add(time.Duration(run) * time.Minute)
		full := map[string]Entry[int]{}
		out, hits, kept := PerFileFoldersChecking(fsys, names, cache, full, nil, folders, at, compute(names), whole)
		next := map[string]Entry[int]{}
		same := make([]bool, len(names))
		dout, dhits, dkept := PerFileFoldersChecking(fsys, names, cache, next, same, folders, at, compute(names), whole)
		if !reflect.DeepEqual(out, dout) || hits != dhits || !kept.Equal(dkept) {
			t.Fatalf("run %d: delta answered %v, %d hits, %+v; without same %v, %d, %+v", run, dout, dhits, dkept, out, hits, kept)
		}
		merged := maps.Clone(next)
		nsame := 0
		for i, s := range same {
			if s {
				nsame++
				if _, ok := next[names[i]]; ok {
					t.Fatalf("run %d: %s both in next and same", run, names[i])
				}
				merged[names[i]] = cache[names[i]]
			}
		}
		if !reflect.DeepEqual(merged, full) {
			t.Fatalf("run %d: delta keeps %+v, want %+v", run, merged, full)
		}
		if run > 0 && nsame == 0 {
			t.Fatalf("run %d: no answer from the cache marked same", run)
		}
		cache, folders = full, kept
	}
}

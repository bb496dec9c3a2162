package diskcache

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/memscope/memscope/model"
)

// PerFileFolders answers a stamped write-once folder's files from the
// cache without computing or stamping them; a new file in it, a folder
// written within FolderSettle, and a run FolderFull after the last full
// one go through PerFile; a folder that is not write-once always does.
func TestPerFileFoldersNets(t *testing.T) {
	t.Parallel()
	dir, write, age := folderHome(t)
	write("file-history/s1/a@v1", "one")
	write("file-history/s1/b@v1", "two")
	write("notes/c.md", "three")
	age("file-history/s1")
	age("notes")
	fsys := model.DirFS(dir)
	names := []string{"file-history/s1/a@v1", "file-history/s1/b@v1", "notes/c.md"}
	var computed []string
	compute := func(miss []int) []int64 {
		out := make([]int64, len(miss))
		for j, i := range miss {
			computed = append(computed, names[i])
			b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(names[i])))
			if err != nil {
				t.Fatal(err)
			}
			out[j] = int64(len(b))
		}
		return out
	}
	whole := func(int64, int64) bool { return true }
	cache := map[string]Entry[int64]{}
	var folders Folders
	now := time.Now()
	run := func(at time.Time) (sizes []int64, hits int) {
		t.Helper()
		computed = nil
		next := map[string]Entry[int64]{}
		sizes, hits, folders = PerFileFolders(fsys, names, cache, next, folders, at, compute, whole)
		cache = next
		return sizes, hits
	}
	if sizes, hits := run(now); hits != 0 || len(computed) != 3 || sizes[0] != 3 || sizes[2] != 5 {
		t.Fatalf("first run: sizes %v, hits %d, computed %v", sizes, hits, computed)
	}
	if _, ok := folders.Stamps["file-history/s1"]; !ok || len(folders.Stamps) != 1 {
		t.Fatalf("stamps after the first run %+v: want the file-history folder only", folders.Stamps)
	}
	// Unchanged: answered from the cache; the folder's files are not
	// stamped (a file rewritten in place is the rule's known risk, and
	// shows it: the cache's old answer stands).
	write("file-history/s1/a@v1", "ONE!")
	if sizes, hits := run(now.Add(time.Minute)); hits != 3 || len(computed) != 0 || sizes[0] != 3 {
		t.Fatalf("unchanged folders: sizes %v, hits %d, computed %v", sizes, hits, computed)
	}
	// The full run's net: a day after the last full run every file is
	// stamped, so the rewrite is seen.
	if sizes, _ := run(now.Add(FolderFull + time.Hour)); len(computed) != 1 || sizes[0] != 4 {
		t.Fatalf("full run: sizes %v, computed %v: want a@v1 read again", sizes, computed)
	}
	if !folders.Full.Equal(now.Add(FolderFull+time.Hour)) || folders.Stamps["file-history/s1"].Files != 2 {
		t.Fatalf("after the full run: %+v", folders)
	}
	// The client's way: a new version, a new file (the folder's time
	// moves); just written, so the folder is not stamped again yet.
	write("file-history/s1/a@v2", "one, two")
	names = append(names, "file-history/s1/a@v2")
	if sizes, hits := run(time.Now()); len(computed) != 1 || computed[0] != "file-history/s1/a@v2" || sizes[3] != 8 || hits != 3 {
		t.Fatalf("after a new file: sizes %v, hits %d, computed %v", sizes, hits, computed)
	}
	if _, ok := folders.Stamps["file-history/s1"]; ok {
		t.Errorf("a folder written just now was stamped: %+v", folders.Stamps)
	}
}

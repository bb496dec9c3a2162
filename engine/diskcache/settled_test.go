package diskcache

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/memscope/memscope/model"
)

// A settled entry (stamped WriteOnceSettle after the file's change
// time) is answered on the next run from one stat of its file, no open;
// a file rewritten in place to the same size with its modification
// time set back is still seen (its change time moved), and an entry
// stamped too soon after the file changed is checked by its head.
// Not parallel: it sets the package's clock.
func TestPerFileSettledEntryIsStatOnly(t *testing.T) {
	dir := t.TempDir()
	names := []string{"a", "b"}
	for _, n := range names {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("text of "+n), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	fsys := &opensFS{FS: model.DirFS(dir)}
	computed := 0
	compute := func(miss []int) []string {
		out := make([]string, len(miss))
		for j, i := range miss {
			computed++
			b, err := os.ReadFile(filepath.Join(dir, names[i]))
			if err != nil {
				t.Fatal(err)
			}
			out[j] = string(b)
		}
		return out
	}
	whole := func(string, int64) bool { return true }
	run := func(what string, cache map[string]Entry[string], at time.Time) (map[string]Entry[string], []string, int64) {
		t.Helper()
		clock = func() time.Time { return at }
		defer func() { clock = time.Now }()
		fsys.opens.Store(0)
		computed = 0
		next := map[string]Entry[string]{}
		out, _ := PerFile(fsys, names, cache, next, compute, whole)
		return next, out, fsys.opens.Load()
	}
	// Too soon: the files were just written.
	soon, _, _ := run("cold, too soon", nil, time.Now())
	if soon["a"].Settled {
		t.Fatal("an entry stamped as its file was written is settled")
	}
	if _, _, opens := run("warm, not settled", soon, time.Now()); opens != 2 {
		t.Errorf("entries not settled: %d opens, want 2 (each stamped with its head)", opens)
	}
	later := time.Now().Add(time.Minute)
	kept, _, _ := run("cold", nil, later)
	if !kept["a"].Settled || !kept["b"].Settled {
		t.Fatalf("entries stamped a minute after their files changed are not settled: %+v", kept)
	}
	next, out, opens := run("warm", kept, later)
	if opens != 0 || computed != 0 || out[0] != "text of a" || !next["b"].Settled {
		t.Fatalf("warm on settled entries: %d opens, %d computed, %q, kept %+v (want no open)", opens, computed, out, next)
	}
	// Rewritten in place, same size, modification time set back.
	old, err := os.Stat(filepath.Join(dir, "a"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "a"), []byte("TEXT OF A"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(filepath.Join(dir, "a"), old.ModTime(), old.ModTime()); err != nil {
		t.Fatal(err)
	}
	_, out, _ = run("a rewritten", next, later)
	if out[0] != "TEXT OF A" || out[1] != "text of b" || computed != 1 {
		t.Errorf("after a rewrite in place: %q, %d computed (want a read again)", out, computed)
	}
}

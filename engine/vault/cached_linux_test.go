//go:build linux && (amd64 || arm64)

package vault

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memscope/memscope/model"
)

// pagesCached asks the file the prefetcher holds, a file a listed home
// opened from its held folder or an *os.File: a file just written is in
// memory, or (tmpfs: no RWF_NOWAIT reads) not known, which counts as not
// cached; an empty file is never said cached.
func TestPagesCachedOfAFileJustWritten(t *testing.T) {
	dir := t.TempDir()
	data := strings.Repeat("line\n", 3*pageSize/5+7) // a little over 3 pages
	for _, c := range []struct{ rel, data string }{{"p/three.txt", data}, {"p/one.txt", "x\n"}, {"p/empty.txt", ""}} {
		full := filepath.Join(dir, filepath.FromSlash(c.rel))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c.data), 0o644); err != nil {
			t.Fatal(err)
		}
		osf, err := os.Open(full)
		if err != nil {
			t.Fatal(err)
		}
		defer osf.Close()
		_, known := model.FDCached(osf.Fd(), 0)
		t.Logf("%s: the system can tell whether its pages are cached: %v", c.rel, known)
		h := homeOf(t, dir)
		listed, err := model.OpenRegular(model.ListOnce(h.FS), c.rel)
		if err != nil {
			t.Fatal(err)
		}
		defer listed.Close()
		if _, ok := listed.(interface{ Cached(int64) (bool, bool) }); !ok {
			t.Errorf("%s: a %T from a listed home cannot be asked", c.rel, listed)
		}
		want := known && len(c.data) > 0
		if got := pagesCached(osf, int64(len(c.data))); got != want {
			t.Errorf("%s as an *os.File: cached %v, want %v (the system can tell: %v)", c.rel, got, want, known)
		}
		if got := pagesCached(listed, int64(len(c.data))); got != want {
			t.Errorf("%s from a listed home: cached %v, want %v (the system can tell: %v)", c.rel, got, want, known)
		}
	}
}

package cleanup

import (
	"io/fs"
	"path"
	"testing"
	"testing/fstest"

	"github.com/memscope/memscope/model"
)

// TestInStoreEqualsAStatOfEachHash: listing the paste-store once gives, for
// every hash, what a stat of its file gives — a file, a folder, a name that
// differs only in case, a missing name, and a store that is a file.
func TestInStoreEqualsAStatOfEachHash(t *testing.T) {
	hashes := []model.PasteHash{"aaaa", "bbbb", "CCCC", "cccc", "dddd", "eeee"}
	homes := map[string]fstest.MapFS{
		"store": {
			"paste-store/aaaa": {Data: []byte("a")},
			"paste-store/CCCC": {Data: []byte("c")},
			"paste-store/eeee": {Mode: fs.ModeDir},
		},
		"no store":        {"other": {Data: []byte("x")}},
		"store is a file": {"paste-store": {Data: []byte("x")}},
	}
	for name, fsys := range homes {
		d := newDangler(fsys, nil)
		for _, h := range hashes {
			_, err := fs.Stat(fsys, path.Join(model.PasteStoreDir, string(h)))
			if got, want := d.inStore(h), err == nil; got != want {
				t.Errorf("%s: inStore(%s) = %v, a stat says %v", name, h, got, want)
			}
		}
	}
}

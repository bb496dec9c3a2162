package inventory

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/memscope/memscope/engine/internal/enginetest"
	"github.com/memscope/memscope/internal/testenv"
	"github.com/memscope/memscope/model"
)

// memoryInfoFS counts the Info calls on the entries of memory folders.
type memoryInfoFS struct {
	fs.FS
	n atomic.Int64
}

func (m *memoryInfoFS) ReadDir(name string) ([]fs.DirEntry, error) {
	ents, err := fs.ReadDir(m.FS, name)
	if strings.Contains(name, "/memory") {
		for i, e := range ents {
			ents[i] = testenv.InfoLooked(e, func() { m.n.Add(1) })
		}
	}
	return ents, err
}

// A cold stat with a cache takes a memory folder's count of memory files
// from the walk that fingerprints it, not from a walk of its own: each
// file's entry is asked for its information twice (the fingerprint, the
// scan's read), not three times; the answer is a run's without a cache,
// a folder with a link in it (which the fingerprint refuses) counted by
// CountMemory still.
func TestColdStatCountsMemoryFromItsFingerprint(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{"h/projects/-w-p/memory/MEMORY.md": "- [a](a.md)\n", "h/projects/-w-p/memory/team/t.md": "t",
		"h/projects/-w-p/memory/notes.txt": "x", "h/projects/-w-p/memory/sub/deep.md": "---\nname: deep\n---\nd\n"}
	const n = 40
	for i := range n {
		files[fmt.Sprintf("h/projects/-w-p/memory/m%02d.md", i)] = fmt.Sprintf("---\nname: m%d\ndescription: d\ntype: user\n---\nbody %d\n", i, i)
	}
	files["h/projects/-w-q/memory/q.md"] = "---\nname: q\n---\nq\n"
	files["h/projects/-w-q/target.md"] = "---\nname: linked\n---\nl\n"
	enginetest.WriteTree(t, root, files)
	if err := os.Symlink("../target.md", filepath.Join(root, "h/projects/-w-q/memory/linked.md")); err != nil {
		t.Fatal(err)
	}
	h := openHome(t, filepath.Join(root, "h"))
	want := statJSON(t, h, nil)
	look := &memoryInfoFS{FS: h.FS}
	home := &model.Home{Dir: h.Dir, FS: look, Source: h.Source}
	if got := statJSON(t, home, newCache(t)); got != want {
		t.Fatalf("cold run with a cache:\n%s\nwant\n%s", got, want)
	}
	// 44 files in the project with no link: the fingerprint asks each
	// once and the scan's read each topic file once (86 in all, the
	// linked project's 2 included); a walk of CountMemory's own asked
	// each topic file again (127).
	if got := look.n.Load(); got > 2*(n+6) {
		t.Errorf("a cold stat asked the memory folder's entries for their information %d times (%d files)", got, n+4)
	}
}

package inventory

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"testing/fstest"

	"github.com/memscope/memscope/engine/internal/enginetest"
	"github.com/memscope/memscope/model"
)

// statCounter counts the names looked up (fs.Stat) through an fs.FS.
type statCounter struct {
	fs.FS
	mu     sync.Mutex
	looked []string
}

func (c *statCounter) Stat(name string) (fs.FileInfo, error) {
	c.mu.Lock()
	c.looked = append(c.looked, name)
	c.mu.Unlock()
	return fs.Stat(c.FS, name)
}

func (c *statCounter) ReadDir(name string) ([]fs.DirEntry, error) { return fs.ReadDir(c.FS, name) }

// CountMemory looks up through the home only the names that are
// symbolic links: a plain file's own folder entry gives its size (one
// lstat instead of the home's three-call lookup), and the count is the
// lookup's, links in and out of the home, a link to a folder and a pipe
// included.
func TestCountMemoryLooksUpOnlyLinks(t *testing.T) {
	root := t.TempDir()
	home := filepath.Join(root, "h")
	enginetest.WriteTree(t, root, map[string]string{
		"h/memory/MEMORY.md":    "- x\n",
		"h/memory/a.md":         "aaaa",
		"h/memory/b.md":         "bb",
		"h/memory/sub/c.md":     "ccccccc",
		"h/memory/team/t.md":    "t",
		"h/memory/notes.txt":    "not a memory",
		"h/memory/.hidden/d.md": "d",
		"h/elsewhere/e.md":      "eeeee",
		"h/elsewhere/dir/f.md":  "f",
		"outside.md":            "out of the home",
	})
	for link, target := range map[string]string{
		"h/memory/in.md":     "../elsewhere/e.md",
		"h/memory/out.md":    "../../outside.md",
		"h/memory/dir.md":    "../elsewhere/dir",
		"h/memory/broken.md": "none.md",
	} {
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(home, "memory", "pipe.md"), 0o600); err != nil {
		t.Fatal(err)
	}
	sc := &statCounter{FS: model.HomeFS(home)}
	// a.md, b.md, sub/c.md and the link inside (in.md -> e.md), as
	// main's CountMemory, which looked every name up, counted them; not
	// MEMORY.md, notes.txt, team/, .hidden/, the links out, to a folder
	// or to nothing, nor the pipe.
	if got := CountMemory(sc, "memory"); got != (MemoryCount{Files: 4, Bytes: 4 + 2 + 7 + 5}) {
		t.Errorf("counted %+v, want 4 files, 18 bytes", got)
	}
	// (The walk looks up the folder it starts at.)
	var links []string
	for _, n := range sc.looked {
		switch n {
		case "memory":
			continue
		case "memory/in.md", "memory/out.md", "memory/dir.md", "memory/broken.md":
		default:
			t.Errorf("looked up %s, which is no link: its folder entry says what it is", n)
		}
		links = append(links, n)
	}
	if len(links) != 4 {
		t.Errorf("looked up %v, want the 4 links", sc.looked)
	}
}

// TestCountMemoryAllocatesLittleOverItsWalk: counting a memory folder
// (its name longer than a string made on the stack) allocates little
// more than the walk it rides on and each file's information, not a
// string of the folder's name for each entry.
func TestCountMemoryAllocatesLittleOverItsWalk(t *testing.T) {
	dir := "projects/-home-dev-work-some-long-project-name/memory"
	fsys := fstest.MapFS{dir + "/MEMORY.md": {Data: []byte("- x\n")}}
	const n = 200
	for i := range n {
		fsys[fmt.Sprintf("%s/topic-%03d.md", dir, i)] = &fstest.MapFile{Data: []byte("x")}
	}
	if c := CountMemory(fsys, dir); c.Files != n || c.Bytes != n {
		t.Fatalf("counted %+v, want %d files of a byte", c, n)
	}
	walk := testing.AllocsPerRun(5, func() {
		fs.WalkDir(fsys, dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				d.Info()
			}
			return nil
		})
	})
	count := testing.AllocsPerRun(5, func() { CountMemory(fsys, dir) })
	t.Logf("%d files: the walk %.0f allocations, CountMemory %.0f", n, walk, count)
	// model.IsMemoryTopicPath splits each name (one allocation a file).
	if extra := (count - walk) / n; extra > 1.2 {
		t.Errorf("CountMemory allocates %.2f times a file over its walk, want at most 1.2", extra)
	}
}

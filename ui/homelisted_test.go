package ui

import (
	"io/fs"
	"sort"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/memscope/memscope/engine/inventory"
	"github.com/memscope/memscope/internal/testenv"
)

// memoryLooksFS counts, per memory file, the times a reader asked its
// information through a listing of its memory folder (its entry's Info:
// an lstat on a home): a warm start's CountMemory looks at each so.
type memoryLooksFS struct {
	fs.FS
	mu sync.Mutex
	n  map[string]int
}

func (m *memoryLooksFS) look(name string) {
	if !strings.Contains(name, "/memory/") {
		return
	}
	m.mu.Lock()
	m.n[name]++
	m.mu.Unlock()
}

func (m *memoryLooksFS) ReadDir(name string) ([]fs.DirEntry, error) {
	ents, err := fs.ReadDir(m.FS, name)
	for i, e := range ents {
		p := name + "/" + e.Name()
		ents[i] = testenv.InfoLooked(e, func() { m.look(p) })
	}
	return ents, err
}

// looks is the count of each memory file of project slug.
func (m *memoryLooksFS) looks(slug string) map[string]int {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := map[string]int{}
	for p, n := range m.n {
		if strings.HasPrefix(p, "projects/"+slug+"/memory/") {
			out[p] = n
		}
	}
	return out
}

// At start the Projects list counts each project's memory files through
// the home listed once that the Overview's lines count from: a memory
// file of a project not open is looked at once between them (on the old
// code twice: the list's count looked at each through the home itself,
// and the Overview's listing again), and its row counts what the old
// code counted.
func TestStartLooksAtEachMemoryFileOnce(t *testing.T) {
	h := fixedHome(t)
	mfs := h.FS.(fstest.MapFS)
	const other = "-tmp-rc-work-gamma"
	for _, name := range []string{"a.md", "b.md", "team/t.md", "logs/2026-11-01.md"} {
		mfs["projects/"+other+"/memory/"+name] = &fstest.MapFile{Data: []byte("---\nname: " + name + "\ndescription: d\ntype: user\n---\nbody\n"), Mode: 0o644, ModTime: testNow.Add(-30 * time.Hour)}
	}
	looks := &memoryLooksFS{FS: mfs, n: map[string]int{}}
	h.FS = looks
	m := loadedModel(t, Options{Home: h, Root: fstest.MapFS{}}, 120, 40)
	got := looks.looks(other)
	if len(got) == 0 {
		t.Fatal("no memory file of the project not open was looked at")
	}
	var names []string
	for p := range got {
		names = append(names, p)
	}
	sort.Strings(names)
	for _, p := range names {
		if got[p] > 1 {
			t.Errorf("%s looked at %d times", p, got[p])
		}
	}
	for _, r := range m.feeds.home.Rows() {
		if r.Project.Slug == other {
			if want := inventory.CountMemory(mfs, "projects/"+other+"/memory"); r.Memory != want || want.Files == 0 {
				t.Errorf("the row of %s counts %+v, want %+v", other, r.Memory, want)
			}
			return
		}
	}
	t.Fatalf("no row of %s", other)
}

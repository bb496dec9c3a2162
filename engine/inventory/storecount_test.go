package inventory

import (
	"io/fs"
	"path/filepath"
	"sync"
	"testing"

	"github.com/memscope/memscope/engine/internal/enginetest"
	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/model"
)

// dirCounter counts the folders listed through an fs.FS, by name.
type dirCounter struct {
	fs.FS
	mu     sync.Mutex
	listed map[string]int
}

func (c *dirCounter) ReadDir(name string) ([]fs.DirEntry, error) {
	c.mu.Lock()
	c.listed[name]++
	c.mu.Unlock()
	return fs.ReadDir(c.FS, name)
}

func (c *dirCounter) Stat(name string) (fs.FileInfo, error) { return fs.Stat(c.FS, name) }

// The memory stores' list counts a project's memory folder under the
// home from the count Stat took of it (its cache's, on a warm run): the
// folder is not walked again through the machine's root, and the count
// is the walk's. A store elsewhere (an agent's) is still walked.
func TestStatCountsTheHomesMemoryFoldersOnce(t *testing.T) {
	root := t.TempDir()
	home, proj := filepath.Join(root, "h"), filepath.Join(root, "work", "app")
	slug := model.Slug(proj)
	cwd := `{"type":"user","uuid":"u","cwd":"` + proj + `","sessionId":"s1","message":{"content":"hi"}}` + "\n"
	note := "---\nname: n\ndescription: d\ntype: project\n---\nx\n"
	enginetest.WriteTree(t, root, map[string]string{
		"h/projects/" + slug + "/s1.jsonl":                 cwd,
		"h/projects/" + slug + "/memory/MEMORY.md":         "- [A](a.md) — a\n",
		"h/projects/" + slug + "/memory/a.md":              note,
		"h/projects/" + slug + "/memory/b.md":              note,
		"h/projects/" + slug + "/memory/team/c.md":         note,
		"h/projects/" + slug + "/memory/notes.txt":         "not a memory\n",
		"h/agents/planner.md":                              "---\nname: planner\nmemory: user\n---\n",
		"h/agent-memory/planner/shape.md":                  note,
		"work/app/.git/HEAD":                               "ref: refs/heads/main\n",
		"work/app/.claude/agent-memory/reviewer/MEMORY.md": "- x\n",
	})
	h, err := model.OpenHome(home, model.HomeFromFlag)
	if err != nil {
		t.Fatal(err)
	}
	rc := &dirCounter{FS: testroot.New(t), listed: map[string]int{}}
	r := Stat(Options{Home: h, Root: rc, Workers: 1})
	memDir := filepath.Join(home, "projects", slug, "memory")
	var got *MemoryStore
	for i := range r.MemoryStores {
		if r.MemoryStores[i].Dir == memDir {
			got = &r.MemoryStores[i]
		}
	}
	want := CountMemory(testroot.New(t), model.RootName(filepath.ToSlash(memDir))).Files
	if got == nil || got.Files != want || want != 2 {
		t.Fatalf("the project's store %+v; its folder's count %d (want 2: a.md, b.md)", got, want)
	}
	// (Its team/ folder is a store of its own, counted on its own.)
	if n := rc.listed[model.RootName(filepath.ToSlash(memDir))]; n != 0 {
		t.Errorf("%s listed %d times through the root: the home's memory folder was walked again", memDir, n)
	}
	if rc.listed[model.RootName(filepath.ToSlash(filepath.Join(home, "agent-memory", "planner")))] == 0 {
		t.Error("the agent's store was not walked: the test proves nothing")
	}
}

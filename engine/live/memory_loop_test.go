package live

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/memscope/memscope/model"
)

// A memory file that is a symbolic link to itself (testdata/home's
// loop.md) is not a memory file: stat skips it as unreadable, and the
// Live pane's count, through the home's file system as the app mounts
// it, does the same.
func TestMemoryStateSkipsASelfLink(t *testing.T) {
	home := t.TempDir()
	dir := filepath.Join(home, "projects", "-w", "memory")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{"MEMORY.md": "- [a](a.md) — a\n", "a.md": "---\nname: a\ntype: user\n---\nA\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("loop.md", filepath.Join(dir, "loop.md")); err != nil {
		t.Fatal(err)
	}
	for name, root := range map[string]fs.FS{
		"DirFS":           model.DirFS("/"),
		"home mounted in": model.MountFS(model.DirFS("/"), filepath.ToSlash(home), model.HomeFS(home)),
	} {
		st, _ := ReadMemoryState(root, filepath.ToSlash(dir), MemoryState{})
		if _, ok := st.Files["loop.md"]; ok || st.TopicFiles() != 1 {
			t.Errorf("%s: %d topic files (%v), want 1 without loop.md", name, st.TopicFiles(), st.Files)
		}
	}
}

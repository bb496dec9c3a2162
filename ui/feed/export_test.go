package feed

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/memscope/memscope/engine/export"
	memstore "github.com/memscope/memscope/engine/store"
	"github.com/memscope/memscope/internal/faultfs"
	"github.com/memscope/memscope/model"
)

// Exports write beside what is there, never over it: the same session
// twice is two files, the second named -2; the memory export names the
// project; a write that fails (a full disk, through the writer given)
// says which file and why and leaves nothing in the folder.
func TestExportsWriteNewFiles(t *testing.T) {
	dir := t.TempDir()
	if err := os.CopyFS(filepath.Join(dir, "home"), os.DirFS("../../testdata/home")); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	os.Mkdir(out, 0o755)
	home := testHome(t, filepath.Join(dir, "home"))
	const transcript = "projects/-tmp-rc-work-beta/fedcb1e2-dbe4-5555-90b5-52df88de5bed.jsonl"
	var paths []string
	for range 2 {
		e := ExportSession(home, model.OSWriteFS{}, out, transcript, export.Markdown, testNow)().(Exported)
		if e.Err != nil {
			t.Fatal(e.Err)
		}
		paths = append(paths, e.Path)
	}
	if filepath.Dir(paths[0]) != out || !strings.HasPrefix(filepath.Base(paths[0]), "claude-session-") || !strings.HasSuffix(paths[1], "-2.md") {
		t.Fatalf("the exports went to %v", paths)
	}
	memDir := filepath.Join(dir, "home", "projects", "-tmp-rc-work-beta", "memory")
	s, _ := memstore.Open(memDir, memstore.DirFSIn(filepath.Join(dir, "home"), memDir, model.OSWriteFS{}))
	e := ExportMemory(s, filepath.Join(dir, "work", "beta"), model.OSWriteFS{}, out, export.Markdown, testNow, nil)().(Exported)
	if data, err := os.ReadFile(e.Path); e.Err != nil || filepath.Base(e.Path) != "claude-memory-beta.md" || !strings.Contains(string(data), "MEMORY.md") {
		t.Fatalf("the memory export: %s, %v, %v", e.Path, e.Err, err)
	}

	full := filepath.Join(dir, "full")
	os.Mkdir(full, 0o755)
	f := &faultfs.FS{Step: faultfs.StepWrite, Persist: true, Err: syscall.ENOSPC}
	e = ExportSession(home, f, full, transcript, export.HTML, testNow)().(Exported)
	if e.Err == nil || !strings.Contains(e.Err.Error(), full) || !strings.Contains(e.Err.Error(), syscall.ENOSPC.Error()) {
		t.Fatalf("a full disk: %v", e.Err)
	}
	if es, _ := os.ReadDir(full); len(es) != 0 {
		t.Errorf("a failed export left %d files", len(es))
	}
}

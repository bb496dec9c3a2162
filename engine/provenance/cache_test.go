package provenance

import (
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"sync/atomic"
	"testing"

	"github.com/memscope/memscope/internal/provgen"
	"github.com/memscope/memscope/model"
)

// countFS counts the files opened through it.
type countFS struct {
	fs.FS
	opens atomic.Int64
}

func (c *countFS) Open(name string) (fs.File, error) {
	c.opens.Add(1)
	return c.FS.Open(name)
}

// A scan through a FirstCache answers as a scan without one, reads again
// only what changed, and sees a write appended to a transcript.
func TestFirstCacheRereadsOnlyWhatChanged(t *testing.T) {
	l, err := provgen.Write(t.TempDir(), now)
	if err != nil {
		t.Fatal(err)
	}
	folders := ProjectFolders(l.Home, l.MemoryDir, l.Project)
	list := func() []model.TranscriptFile {
		files, _ := model.FindTranscripts(model.DirFS(l.Home))
		return files
	}
	plain := Scan(Options{Home: model.DirFS(l.Home), Transcripts: list(), Folders: folders})
	c := NewFirstCache()
	home := &countFS{FS: model.DirFS(l.Home)}
	first := Scan(Options{Home: home, Transcripts: list(), Folders: folders, Cache: c})
	if !reflect.DeepEqual(first.Writes, plain.Writes) {
		t.Fatalf("with the cache: %d writes, without: %d", len(first.Writes), len(plain.Writes))
	}
	opensFirst := home.opens.Load()
	home.opens.Store(0)
	again := Scan(Options{Home: home, Transcripts: list(), Folders: folders, Cache: c})
	if !reflect.DeepEqual(again.Writes, plain.Writes) {
		t.Fatal("a second scan from the cache answers differently")
	}
	if got := home.opens.Load(); got >= opensFirst {
		t.Errorf("the second scan opened %d files, the first %d: the cache was not used", got, opensFirst)
	}
	// A session appends a Write to the memory folder: the next scan sees it.
	other := filepath.Join(filepath.Dir(l.MemoryDir), "5e000000-0000-4000-8000-000000000005.jsonl")
	line := `{"type":"user","uuid":"p1","sessionId":"5e","timestamp":"2026-11-22T11:00:00Z","message":{"role":"user","content":"note it"}}` + "\n" +
		`{"type":"assistant","uuid":"u1","parentUuid":"p1","sessionId":"5e","timestamp":"2026-11-22T11:00:01Z","message":{"role":"assistant","content":[{"type":"tool_use","id":"t9","name":"Write","input":{"file_path":"` + l.MemoryDir + `/appended.md","content":"x"}}]}}` + "\n"
	if err := os.WriteFile(other, []byte(line), 0o644); err != nil {
		t.Fatal(err)
	}
	after := Scan(Options{Home: home, Transcripts: list(), Folders: folders, Cache: c})
	if len(after.Writes) != len(plain.Writes)+1 {
		t.Errorf("after a new session's write: %d writes, want %d", len(after.Writes), len(plain.Writes)+1)
	}
}

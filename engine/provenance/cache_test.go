package provenance

import (
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/memscope/memscope/internal/provgen"
	"github.com/memscope/memscope/model"
)

// countFS counts the files opened through it, and the transcripts.
type countFS struct {
	fs.FS
	opens, transcripts atomic.Int64
}

func (c *countFS) Open(name string) (fs.File, error) {
	c.opens.Add(1)
	if strings.HasSuffix(name, ".jsonl") {
		c.transcripts.Add(1)
	}
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
	home.transcripts.Store(0)
	again := Scan(Options{Home: home, Transcripts: list(), Folders: folders, Cache: c})
	if !reflect.DeepEqual(again.Writes, plain.Writes) {
		t.Fatal("a second scan from the cache answers differently")
	}
	if got := home.opens.Load(); got >= opensFirst {
		t.Errorf("the second scan opened %d files, the first %d: the cache was not used", got, opensFirst)
	}
	// Nothing changed: neither pass reads a transcript again (the
	// chains too are answered from the cache).
	if got := home.transcripts.Load(); got != 0 {
		t.Errorf("a scan of an unchanged home read %d transcripts again, want 0", got)
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

// The Projects list's counts (every project's auto memory) and the open
// project's inbox (its auto and agent memory) scan for other folders
// through one cache: after one read for both, neither reads a transcript
// again, and each answers as a scan without the cache.
func TestFirstCacheSharedByFolderSets(t *testing.T) {
	l, err := provgen.Write(t.TempDir(), now)
	if err != nil {
		t.Fatal(err)
	}
	files, _ := model.FindTranscripts(model.DirFS(l.Home))
	project := ProjectFolders(l.Home, l.MemoryDir, l.Project)
	auto := project[:1]
	want := map[string][]Write{}
	for name, fo := range map[string][]Folder{"auto": auto, "project": project} {
		want[name] = Scan(Options{Home: model.DirFS(l.Home), Transcripts: files, Folders: fo}).Writes
	}
	if len(want["project"]) <= len(want["auto"]) {
		t.Fatalf("the fixture's agent memory has no writes: %d with it, %d without", len(want["project"]), len(want["auto"]))
	}
	c := NewFirstCache()
	home := &countFS{FS: model.DirFS(l.Home)}
	for i, step := range []struct {
		name  string
		reads bool
	}{{"auto", true}, {"project", true}, {"auto", false}, {"project", false}, {"auto", false}} {
		home.transcripts.Store(0)
		fo := auto
		if step.name == "project" {
			fo = project
		}
		got := Scan(Options{Home: home, Transcripts: files, Folders: fo, Cache: c})
		if !reflect.DeepEqual(got.Writes, want[step.name]) {
			t.Errorf("step %d (%s): %d writes through the cache, %d without", i, step.name, len(got.Writes), len(want[step.name]))
		}
		if n := home.transcripts.Load(); (n > 0) != step.reads {
			t.Errorf("step %d (%s): read %d transcripts; want reads: %v", i, step.name, n, step.reads)
		}
	}
}

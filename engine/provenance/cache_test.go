package provenance

import (
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/memscope/memscope/engine/diskcache"
	"github.com/memscope/memscope/internal/provgen"
	"github.com/memscope/memscope/internal/testenv"
	"github.com/memscope/memscope/internal/testroot"
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

// scanFixture is provgen's home, its project's folders, a lister of its
// transcripts as they are now, and a scan without a cache.
func scanFixture(t *testing.T) (l provgen.Layout, folders []Folder, list func() []model.TranscriptFile, plain Report) {
	t.Helper()
	l, err := provgen.Write(t.TempDir(), now)
	if err != nil {
		t.Fatal(err)
	}
	folders = ProjectFolders(l.Home, l.MemoryDir, l.Project)
	list = func() []model.TranscriptFile {
		files, _ := model.FindTranscripts(model.DirFS(l.Home))
		return files
	}
	return l, folders, list, Scan(Options{Home: model.DirFS(l.Home), Transcripts: list(), Folders: folders})
}

// A scan through a FirstCache answers as a scan without one, reads again
// only what changed, and sees a write appended to a transcript.
func TestFirstCacheRereadsOnlyWhatChanged(t *testing.T) {
	l, folders, list, plain := scanFixture(t)
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

// readFS counts the bytes read from transcripts through it (N).
func readFS(fsys fs.FS) *testenv.ReadCounter {
	return &testenv.ReadCounter{FS: fsys, Count: func(name string) bool { return strings.HasSuffix(name, ".jsonl") }}
}

// A FirstCache kept on disk lets the next run (a new cache on the same
// store) answer as a scan without a cache while reading only each
// transcript's head (its stamp); a transcript rewritten in place, to the
// same size and mtime, is read again whole.
func TestFirstCacheOnDisk(t *testing.T) {
	l, folders, list, plain := scanFixture(t)
	if len(plain.Writes) == 0 {
		t.Fatal("the fixture has no writes")
	}
	store := diskcache.New(filepath.Join(t.TempDir(), "cache"), testroot.New(t), model.OSWriteFS{})
	scan := func() (Report, int64) {
		home := readFS(model.DirFS(l.Home))
		r := Scan(Options{Home: home, Transcripts: list(), Folders: folders, Cache: NewFirstCacheOn(store, l.Home)})
		return r, home.N.Load()
	}
	first, readFirst := scan()
	if !reflect.DeepEqual(first.Writes, plain.Writes) {
		t.Fatalf("kept on disk: %d writes, without a cache: %d", len(first.Writes), len(plain.Writes))
	}
	var total int64
	files := list()
	for _, f := range files {
		total += f.Size
	}
	if readFirst < total {
		t.Fatalf("the first run read %d bytes of %d: the fixture is not read whole", readFirst, total)
	}
	again, readAgain := scan()
	if !reflect.DeepEqual(again.Writes, plain.Writes) {
		t.Errorf("the next run answers from disk with %d writes, want %d", len(again.Writes), len(plain.Writes))
	}
	if again.Bytes != plain.Bytes || again.Transcripts != plain.Transcripts || again.Decoded != plain.Decoded {
		t.Errorf("the next run counts %d bytes, %d transcripts, %d decoded; without a cache %d, %d, %d",
			again.Bytes, again.Transcripts, again.Decoded, plain.Bytes, plain.Transcripts, plain.Decoded)
	}
	if heads := int64(len(files)) * model.TailHeadMax; readAgain > heads {
		t.Errorf("the next run read %d bytes, more than the %d of the transcripts' heads (the first read %d)", readAgain, heads, readFirst)
	}
	// Rewrite the transcript holding a write: the same size and mtime,
	// the call's file named differently (an Edit of another memory file).
	var target model.TranscriptFile
	for _, f := range files {
		if f.Path == plain.Writes[0].Transcript {
			target = f
		}
	}
	abs := filepath.Join(l.Home, filepath.FromSlash(target.Path))
	data, err := os.ReadFile(abs)
	if err != nil {
		t.Fatal(err)
	}
	old := plain.Writes[0].Rel
	repl := strings.Repeat("z", len(strings.TrimSuffix(old, ".md"))) + ".md"
	if repl == old || !strings.Contains(string(data), old) {
		t.Fatalf("cannot rename %q in %s", old, target.Path)
	}
	edited := strings.ReplaceAll(string(data), old, repl)
	if err := os.WriteFile(abs, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(abs, time.Time{}, target.ModTime); err != nil {
		t.Fatal(err)
	}
	after, _ := scan()
	found := false
	for _, w := range after.Writes {
		if w.Transcript == target.Path && w.Rel == old {
			t.Errorf("after the rewrite the scan still reports %s from %s: the stale entry was used", old, target.Path)
		}
		found = found || w.Rel == repl
	}
	if !found {
		t.Errorf("after the rewrite no write names %s", repl)
	}
}

// The prefilter is the suffix every marker ends with: a line naming any
// folder holds it, also when a folder is outside the usual layout.
func TestCommonSuffix(t *testing.T) {
	for _, c := range []struct {
		markers []string
		want    string
	}{
		{[]string{"/h/projects/-a/memory/", "/projects/-a/memory/", "/h/agent-memory/"}, "memory/"},
		{[]string{"/h/projects/-a/memory/", "/notes/"}, "/"},
		{[]string{"/x/memory/"}, "/x/memory/"},
		{nil, ""},
	} {
		var ms [][]byte
		for _, m := range c.markers {
			ms = append(ms, []byte(m))
		}
		got := string(commonSuffix(ms))
		if got != c.want {
			t.Errorf("commonSuffix(%q) = %q, want %q", c.markers, got, c.want)
		}
		for _, m := range c.markers {
			if !strings.HasSuffix(m, got) {
				t.Errorf("%q does not end with %q", m, got)
			}
		}
	}
}

package model_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/memscope/memscope/model"
)

// listCounter counts, per folder, the listings asked of the FS beneath
// it and, per entry, the Info asked of a listing's entries.
type listCounter struct {
	fs.FS
	mu    sync.Mutex
	dirs  map[string]int
	infos map[string]int
	// stats counts the Stat calls.
	stats int
}

func (c *listCounter) ReadDir(name string) ([]fs.DirEntry, error) {
	c.mu.Lock()
	c.dirs[name]++
	c.mu.Unlock()
	ents, err := fs.ReadDir(c.FS, name)
	for i, e := range ents {
		ents[i] = countedEntry{DirEntry: e, c: c, name: name + "/" + e.Name()}
	}
	return ents, err
}

func (c *listCounter) Stat(name string) (fs.FileInfo, error) {
	c.mu.Lock()
	c.stats++
	c.mu.Unlock()
	return fs.Stat(c.FS, name)
}

type countedEntry struct {
	fs.DirEntry
	c    *listCounter
	name string
}

func (e countedEntry) Info() (fs.FileInfo, error) {
	e.c.mu.Lock()
	e.c.infos[e.name]++
	e.c.mu.Unlock()
	return e.DirEntry.Info()
}

// TestListOnceListsEachFolderOnce: three walks of a home (the session
// files, the projects, a WalkDir of everything), two of them at once,
// through one ListOnce ask the FS beneath for each folder's listing once
// and each entry's Info once, and find what they find on the home itself.
func TestListOnceListsEachFolderOnce(t *testing.T) {
	line := []byte(`{"type":"user","cwd":"/w/app","sessionId":"s1"}` + "\n")
	home := fstest.MapFS{
		"projects/-w-app/s1.jsonl":                             {Data: line},
		"projects/-w-app/s1/subagents/agent-a.jsonl":           {Data: line},
		"projects/-w-app/s1/tool-results/t.txt":                {Data: []byte("out")},
		"projects/-w-app/s1/before-cleanup/1-a.jsonl.replaced": {Data: line},
		"projects/-w-app/memory/MEMORY.md":                     {Data: []byte("- [a](a.md)\n")},
		"projects/-w-b/s2.jsonl":                               {Data: line},
		"paste-cache/a.txt":                                    {Data: []byte("p")},
	}
	wantSF, wantProbs := model.FindSessionFiles(home)
	wantPs, _ := model.ListProjects(home)
	var wantWalk []string
	_ = fs.WalkDir(home, ".", func(p string, d fs.DirEntry, err error) error {
		wantWalk = append(wantWalk, p)
		return err
	})

	c := &listCounter{FS: home, dirs: map[string]int{}, infos: map[string]int{}}
	listed := model.ListOnce(c)
	if model.ListOnce(listed) != listed {
		t.Error("ListOnce of a listed FS lists it again")
	}
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() {
			if sf, probs := model.FindSessionFiles(listed); !reflect.DeepEqual(sf, wantSF) || !reflect.DeepEqual(probs, wantProbs) {
				t.Errorf("listed once: %+v %v\nthe home: %+v %v", sf, probs, wantSF, wantProbs)
			}
		})
	}
	wg.Wait()
	if ps, _ := model.ListProjects(listed); !reflect.DeepEqual(ps, wantPs) {
		t.Errorf("projects listed once: %+v\nthe home's: %+v", ps, wantPs)
	}
	var walk []string
	_ = fs.WalkDir(listed, ".", func(p string, d fs.DirEntry, err error) error {
		walk = append(walk, p)
		return err
	})
	if !reflect.DeepEqual(walk, wantWalk) {
		t.Errorf("walk listed once %q\nthe home's %q", walk, wantWalk)
	}
	if len(c.dirs) < 8 {
		t.Fatalf("only %d folders listed: %v", len(c.dirs), c.dirs)
	}
	for d, n := range c.dirs {
		if n != 1 {
			t.Errorf("%s listed %d times beneath ListOnce, want 1", d, n)
		}
	}
	for e, n := range c.infos {
		if n != 1 {
			t.Errorf("%s: Info asked %d times beneath ListOnce, want 1", e, n)
		}
	}
}

// TestListOnceWalksTheSessionFilesOnce: FindSessionFiles of a listed home
// (the Overview's seven lines ask it) walks it once: a later call asks
// the FS beneath nothing (a seed transcript was stat'ed again at each
// call, each walk's work done again before), and each call's answer is
// the home's, its own copy (one caller sorting or writing into its
// slices changes no other's).
func TestListOnceWalksTheSessionFilesOnce(t *testing.T) {
	line := []byte(`{"type":"user","cwd":"/w/app","sessionId":"s1"}` + "\n")
	home := fstest.MapFS{
		"projects/-w-app/s1.jsonl":                             {Data: line},
		"projects/-w-app/s2.jsonl":                             {Data: line},
		"projects/-w-app/s1/subagents/agent-a.jsonl":           {Data: line},
		"projects/-w-app/s1/subagents/agent-a.meta.json":       {Data: []byte("{}")},
		"projects/-w-app/s1/tool-results/t.txt":                {Data: []byte("out")},
		"projects/-w-app/s1/before-cleanup/1-a.jsonl.replaced": {Data: line},
		"sessions/s9/transcript.jsonl":                         {Data: line},
	}
	wantSF, wantProbs := model.FindSessionFiles(home)
	if len(wantSF.Transcripts) != 4 || len(wantSF.Replaced) != 1 || len(wantSF.ToolResults) != 1 || len(wantSF.SubagentMeta) != 1 {
		t.Fatalf("the home's session files: %+v", wantSF)
	}
	c := &listCounter{FS: home, dirs: map[string]int{}, infos: map[string]int{}}
	listed := model.ListOnce(c)
	for i := range 3 {
		sf, probs := model.FindSessionFiles(listed)
		if !reflect.DeepEqual(sf, wantSF) || !reflect.DeepEqual(probs, wantProbs) {
			t.Fatalf("call %d: %+v %v\nthe home: %+v %v", i, sf, probs, wantSF, wantProbs)
		}
		if i == 0 {
			stats, dirs := c.stats, len(c.dirs)
			defer func() {
				if c.stats != stats || len(c.dirs) != dirs {
					t.Errorf("later walks asked %d stats and %d folders beneath, want none", c.stats-stats, len(c.dirs)-dirs)
				}
			}()
		}
		// A caller's changes to its copy.
		sf.Transcripts[0].Path, sf.Transcripts = "x", append(sf.Transcripts[:1], sf.Transcripts[2:]...)
		sf.Replaced[0].Size, sf.ToolResults[0].ID, sf.SubagentMeta[0] = -1, "y", "z"
		if ts, _ := model.FindTranscripts(listed); !reflect.DeepEqual(ts, wantSF.Transcripts) {
			t.Fatalf("after a caller changed its copy: %+v", ts)
		}
	}
}

// TestListOnceKeepsTheHomesRules: a home on disk with links of every
// sort (out of the home, loops, absolute targets inside it), read
// through ListOnce, gives the session files, problems, a link's
// resolution and a file's bytes the home itself gives: what is listed
// once is only the listing.
func TestListOnceKeepsTheHomesRules(t *testing.T) {
	home, _ := linkHome(t)
	for _, fsys := range []fs.FS{model.DirFS(home), model.HomeFS(home)} {
		listed := model.ListOnce(fsys)
		sf, probs := model.FindSessionFiles(fsys)
		lsf, lprobs := model.FindSessionFiles(listed)
		if !reflect.DeepEqual(sf, lsf) || !reflect.DeepEqual(probs, lprobs) {
			t.Errorf("listed once: %+v %v\nthe home: %+v %v", lsf, lprobs, sf, probs)
		}
		if len(probs) == 0 {
			t.Fatal("the link home reports no problem: nothing compared")
		}
		for _, name := range []string{"debug/latest", "projects/p/top", "projects/p/chain", "projects/out"} {
			want, werr := model.StatInside(fsys, name)
			got, gerr := model.StatInside(listed, name)
			if (werr == nil) != (gerr == nil) || werr != nil && werr.Error() != gerr.Error() ||
				werr == nil && (want.Name() != got.Name() || want.Size() != got.Size()) {
				t.Errorf("StatInside %s listed once: %v %v; the home: %v %v", name, got, gerr, want, werr)
			}
		}
		var buf []byte
		b, err := model.ReadRegularInto(listed, "debug/log.txt", 1<<20, &buf)
		if err != nil || string(b) != "x" {
			t.Errorf("ReadRegularInto through ListOnce: %q %v", b, err)
		}
		if _, err := model.OpenRegular(listed, "projects/p/loopA"); err == nil {
			t.Error("OpenRegular through ListOnce opened a link loop")
		}
	}
	// A file is stamped once through the listing (the stamp it had
	// then); Unchanged sees it written since, so no cache keeps a read
	// of the new bytes under the old stamp. A file the listing found and
	// which is gone since is not there to open: only the listing and the
	// stamps are kept.
	listed := model.ListOnce(model.DirFS(home))
	if _, err := fs.ReadDir(listed, "debug"); err != nil {
		t.Fatal(err)
	}
	st, err := model.StampFile(listed, "debug/log.txt")
	if want, werr := model.StampFile(model.DirFS(home), "debug/log.txt"); err != nil || werr != nil || !st.Equal(want) {
		t.Fatalf("stamp through ListOnce %+v %v; the file's %+v %v", st, err, want, werr)
	}
	if err := os.WriteFile(filepath.Join(home, "debug", "log.txt"), []byte("yy"), 0o600); err != nil {
		t.Fatal(err)
	}
	if again, err := model.StampFile(listed, "debug/log.txt"); err != nil || !again.Equal(st) {
		t.Errorf("stamped again through ListOnce: %+v %v, want the first %+v", again, err, st)
	}
	if model.Unchanged(listed, "debug/log.txt", st) {
		t.Error("Unchanged through ListOnce misses a file written since its stamp")
	}
	if err := os.Remove(filepath.Join(home, "debug", "log.txt")); err != nil {
		t.Fatal(err)
	}
	if _, err := fs.ReadFile(listed, "debug/log.txt"); err == nil {
		t.Error("a file removed after the listing still reads")
	}
}

// TestListProjectsFilesListsEachFolderOnce: the Projects list's read
// (ListProjectsFiles: the session files' walk, then each project's
// memory folder and path probe) lists projects/ and each project folder
// once. On the old code projects/ was listed twice (the walk's, then the
// projects').
func TestListProjectsFilesListsEachFolderOnce(t *testing.T) {
	home := t.TempDir()
	for _, name := range []string{"projects/-a/s1.jsonl", "projects/-a/s1/subagents/agent-x.jsonl", "projects/-b/s2.jsonl", "projects/-b/memory/MEMORY.md"} {
		p := filepath.Join(home, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(`{"type":"user","cwd":"/w/a"}`+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, wantFiles, wantProbs := model.ListProjectsFiles(model.HomeFS(home))
	c := &listCounter{FS: model.HomeFS(home), dirs: map[string]int{}, infos: map[string]int{}}
	got, files, probs := model.ListProjectsFiles(c)
	if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(files, wantFiles) || !reflect.DeepEqual(probs, wantProbs) {
		t.Errorf("through a counter\n%+v %+v %+v\nthe home\n%+v %+v %+v", got, files, probs, want, wantFiles, wantProbs)
	}
	if len(c.dirs) == 0 {
		t.Fatal("nothing listed")
	}
	for d, n := range c.dirs {
		if n != 1 {
			t.Errorf("%s listed %d times, want 1", d, n)
		}
	}
}

package ui

import (
	"io/fs"
	"path"
	"sort"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/memscope/memscope/model"
)

// listingsFS counts the listings of each folder of the home.
type listingsFS struct {
	fs.FS
	mu sync.Mutex
	n  map[string]int
}

func (l *listingsFS) ReadDir(name string) ([]fs.DirEntry, error) {
	l.mu.Lock()
	l.n[name]++
	l.mu.Unlock()
	return fs.ReadDir(l.FS, name)
}

// At start each folder of projects/ (but memory folders) is listed
// once between the Live pane's first listing of the transcripts, the
// review inbox's scan, the open project's loads and Replay list, the
// Projects list and the Overview's lines: on the old code the Live
// pane and the review walked the home on their own, and the loads and
// the Replay list the open project's folders (4 to 6 listings each).
func TestStartListsEachSessionFolderOnce(t *testing.T) {
	h := fixedHome(t)
	mfs := h.FS.(fstest.MapFS)
	// gamma, a project beside the fixture's beta, exists only in the
	// home's transcripts: the root the model gets is empty.
	gamma := path.Join(path.Dir(betaProject), "gamma")
	other := model.Slug(gamma)
	const sess = "aaaaaaaa-0000-4000-8000-00000000000a"
	at := testNow.Add(-30 * time.Hour)
	// A session with subagents and tool results in a project not open and
	// in the open one (beta), whose loads and Replay list read it too.
	for slug, cwd := range map[string]string{other: gamma, model.Slug(betaProject): betaProject} {
		line := `{"type":"user","uuid":"u1","sessionId":"` + sess + `","timestamp":"2026-03-01T10:00:00.000Z","cwd":"` + cwd + `","message":{"role":"user","content":"hi"}}` + "\n"
		for name, data := range map[string]string{
			sess + ".jsonl":                        line,
			sess + "/subagents/agent-a1.jsonl":     line,
			sess + "/subagents/agent-a1.meta.json": `{"agentType":"x"}`,
			sess + "/tool-results/t1.txt":          "result",
		} {
			mfs["projects/"+slug+"/"+name] = &fstest.MapFile{Data: []byte(data), Mode: 0o644, ModTime: at}
		}
	}
	lfs := &listingsFS{FS: mfs, n: map[string]int{}}
	h.FS = lfs
	loadedModel(t, Options{Home: h, Root: fstest.MapFS{}}, 120, 40)
	lfs.mu.Lock()
	defer lfs.mu.Unlock()
	var names []string
	for d := range lfs.n {
		if strings.HasPrefix(d, "projects/") && !strings.Contains(d, "/memory") {
			names = append(names, d)
		}
	}
	sort.Strings(names)
	if len(names) < 8 {
		t.Fatalf("the start listed only %v", names)
	}
	for _, d := range names {
		if lfs.n[d] != 1 {
			t.Errorf("%s listed %d times", d, lfs.n[d])
		}
	}
}

// While the Overview holds its listing of the moment, a file event
// drops it before the reads it asks for start: the Replay list's read
// of a changed session finds a subagent transcript written after the
// listing (on a Replay list read through the held listing, it would
// not).
func TestChangeReadsPastTheHeldListing(t *testing.T) {
	h := fixedHome(t)
	mfs := h.FS.(fstest.MapFS)
	slug := model.Slug(betaProject)
	const sess = "aaaaaaaa-0000-4000-8000-00000000000b"
	line := `{"type":"user","uuid":"u1","sessionId":"` + sess + `","timestamp":"2026-03-01T10:00:00.000Z","cwd":"` + betaProject + `","message":{"role":"user","content":"hi"}}` + "\n"
	at := testNow.Add(-30 * time.Hour)
	mfs["projects/"+slug+"/"+sess+".jsonl"] = &fstest.MapFile{Data: []byte(line), Mode: 0o644, ModTime: at}
	mfs["projects/"+slug+"/"+sess+"/subagents/agent-a1.jsonl"] = &fstest.MapFile{Data: []byte(line), Mode: 0o644, ModTime: at}
	m := loadedModel(t, Options{Home: h, Root: fstest.MapFS{}}, 120, 40)
	// The lines count again (their Cmds not run: a listing held while
	// they run), and it has walked the session's folder.
	m.feeds.overview.Invalidate()
	m.overviewLoad()
	held := m.feeds.overview.Held(m.opts.Home)
	if held == nil {
		t.Fatal("no listing held while the lines count")
	}
	model.FindSessionFiles(held.FS)
	name := "projects/" + slug + "/" + sess + "/subagents/agent-a2.jsonl"
	mfs[name] = &fstest.MapFile{Data: []byte(line), Mode: 0o644, ModTime: testNow}
	m = drain(t, m, m.reload(change{sessions: map[sessionKey]bool{{Slug: slug, ID: sess}: true}, names: map[string]bool{name: true}}))
	for _, s := range m.feeds.sessions.List() {
		if s.File.Path == name {
			return
		}
	}
	t.Errorf("the Replay list after the change misses %s", name)
}

package overview_test

import (
	"encoding/json"
	"io"
	"io/fs"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/memscope/memscope/demo"
	"github.com/memscope/memscope/engine/diskcache"
	"github.com/memscope/memscope/engine/ledger"
	"github.com/memscope/memscope/engine/loads"
	"github.com/memscope/memscope/engine/overview"
	"github.com/memscope/memscope/engine/projectmem"
	"github.com/memscope/memscope/engine/sessions"
	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/model"
)

// passLines are the lines that read every transcript (through the Pass
// when there is a cache).
var passLines = []overview.ID{overview.Review, overview.Secrets, overview.Dropped, overview.Doctor, overview.Problems}

// countingFS counts, per transcript of a home, the reads that went to
// the end of the file (Read returned io.EOF; a stamp's ReadAt of the head
// is not one, nor the projects list's look at the first lines) and the
// bytes they read: the seam that shows how many times a start reads each
// transcript byte.
type countingFS struct {
	fs.FS
	mu    sync.Mutex
	whole map[string]int
	bytes map[string]int64
}

func (c *countingFS) Open(name string) (fs.File, error) {
	f, err := c.FS.Open(name)
	if err != nil || !strings.HasSuffix(name, ".jsonl") || name == model.HistoryPath {
		return f, err
	}
	return &countingFile{File: f, c: c, name: name}, nil
}

func (c *countingFS) Stat(name string) (fs.FileInfo, error) { return fs.Stat(c.FS, name) }

func (c *countingFS) ReadDir(name string) ([]fs.DirEntry, error) { return fs.ReadDir(c.FS, name) }

type countingFile struct {
	fs.File
	c    *countingFS
	name string
	n    int64
	eof  bool
}

func (f *countingFile) Read(p []byte) (int, error) {
	n, err := f.File.Read(p)
	f.n += int64(n)
	if err == io.EOF && !f.eof {
		f.eof = true
		f.c.mu.Lock()
		f.c.whole[f.name]++
		f.c.bytes[f.name] += f.n
		f.c.mu.Unlock()
	}
	return n, err
}

func (f *countingFile) ReadAt(p []byte, off int64) (int, error) {
	return f.File.(io.ReaderAt).ReadAt(p, off)
}

// passHome is one home the tests below count on.
type passHome struct {
	name, dir, project, root string
	now                      time.Time
}

func passHomes(t *testing.T) []passHome {
	t.Helper()
	td, err := filepath.Abs("../../testdata/home")
	if err != nil {
		t.Fatal(err)
	}
	dnow := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	l, err := demo.Materialize(t.TempDir(), dnow)
	if err != nil {
		t.Fatal(err)
	}
	return []passHome{
		{"testdata", td, testroot.BetaProject, td, now},
		{"demo", l.Home, l.Project("shop-api"), l.Root, dnow},
	}
}

// passSource is h with its project open, read through fsys (nil: the
// home's folder), with cache (nil: none, so no pass).
func passSource(t *testing.T, h passHome, fsys fs.FS, cache *diskcache.Store) *overview.Source {
	t.Helper()
	home, err := model.OpenHome(h.dir, model.HomeFromFlag)
	if err != nil {
		t.Fatal(err)
	}
	if fsys != nil {
		home.FS = fsys
	}
	root := model.MountFS(testroot.New(t, h.root), filepath.ToSlash(h.dir), home.FS)
	env := projectmem.Env{Root: root, Home: home, UserHome: t.TempDir(), Getenv: func(string) string { return "" }, Now: h.now}
	return &overview.Source{Env: env, Project: h.project, Alive: func(int) bool { return false }, Cache: cache}
}

// countedSource is passSource on a cold cache with each transcript's
// reads counted (cfs), and the home it reads.
func countedSource(t *testing.T, h passHome) (*model.Home, *countingFS, *overview.Source) {
	t.Helper()
	home, err := model.OpenHome(h.dir, model.HomeFromFlag)
	if err != nil {
		t.Fatal(err)
	}
	cfs := &countingFS{FS: home.FS, whole: map[string]int{}, bytes: map[string]int64{}}
	return home, cfs, passSource(t, h, cfs, newCache(t))
}

func newCache(t *testing.T) *diskcache.Store {
	return diskcache.New(filepath.Join(t.TempDir(), "cache"), testroot.New(t), model.OSWriteFS{})
}

func lineJSON(t *testing.T, l any) string {
	t.Helper()
	b, err := json.Marshal(l)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestSharedPassEqualsOwnPasses: on testdata/home and the demo, the lines
// counted from the shared pass's results (a cold cache: the pass reads
// every transcript once for doctor, the secrets counts, stat, the ledger
// and provenance, and each line answers from the cache it filled) are the
// lines each pass gives reading on its own (no cache, no pass), and a
// second Source on the same cache (a warm start, every answer from the
// pass's entries) gives them again.
func TestSharedPassEqualsOwnPasses(t *testing.T) {
	for _, h := range passHomes(t) {
		t.Run(h.name, func(t *testing.T) {
			cache := newCache(t)
			shared := passSource(t, h, nil, cache)
			own := passSource(t, h, nil, nil)
			warm := passSource(t, h, nil, cache)
			nonzero := 0
			for _, id := range passLines {
				got, want := overview.Compute(shared, id), overview.Compute(own, id)
				if g, w := lineJSON(t, got), lineJSON(t, want); g != w {
					t.Errorf("%s from the shared pass:\n%s\nfrom its own pass:\n%s", id, g, w)
				}
				if g, w := lineJSON(t, overview.Compute(warm, id)), lineJSON(t, want); g != w {
					t.Errorf("%s warm, from the pass's entries:\n%s\nfrom its own pass:\n%s", id, g, w)
				}
				if want.Count > 0 || len(want.Parts) > 0 && want.Parts[0].Count > 0 {
					nonzero++
				}
			}
			if shared.Pass == nil || shared.Pass.Stats.Files == 0 {
				t.Fatalf("the shared pass read nothing: %+v", shared.Pass)
			}
			// The lines compared are not all empty.
			if nonzero < 2 {
				t.Errorf("only %d of the lines count something on %s", nonzero, h.name)
			}
		})
	}
}

// TestColdStartReadsEachTranscriptOnce: counting the bytes read from each
// transcript (a seam beneath the home) while the lines that read them all
// count on a cold cache: each transcript is read once, whole. Only what
// a line reads beyond the first pass reads a file again: the ledger of a
// transcript whose compaction is within the horizon (decoded) and the
// provenance second pass of a transcript with memory writes (decoded for
// their turns). Before the shared pass each was read five times or more.
func TestColdStartReadsEachTranscriptOnce(t *testing.T) {
	for _, h := range passHomes(t) {
		t.Run(h.name, func(t *testing.T) {
			home, cfs, s := countedSource(t, h)
			for _, id := range passLines {
				overview.Compute(s, id)
			}
			// What is read again, by design: the ledgers decoded and the
			// transcripts holding memory writes (and their sessions' main
			// transcripts).
			again := map[string]bool{}
			ss, _ := ledger.HomeSince(home.FS, h.dir, nil, h.now.AddDate(0, 0, -overview.DefaultHorizon))
			for _, se := range ss {
				again[se.File.Path] = true
			}
			prov := passSource(t, h, nil, nil).Env.Open(h.project).Provenance(nil)
			for _, w := range prov.Scan.Writes {
				again[w.Transcript] = true
				again[w.Turn.Transcript] = true
			}
			files, _ := model.FindTranscripts(home.FS)
			once := 0
			for _, f := range files {
				n, b := cfs.whole[f.Path], cfs.bytes[f.Path]
				switch {
				case f.Size == 0:
					// No byte to read twice.
				case again[f.Path] && n > 3:
					t.Errorf("%s: read whole %d times, more than the pass and a decode or two", f.Path, n)
				case !again[f.Path] && (n != 1 || b != f.Size):
					t.Errorf("%s: read whole %d times (%d bytes, the file has %d): want once", f.Path, n, b, f.Size)
				case !again[f.Path]:
					once++
				}
			}
			if once == 0 {
				t.Errorf("no transcript of %s was read exactly once (%d files, %d read again)", h.name, len(files), len(again))
			}
			// The lines counted again from another Source (the app's next
			// Load) on the same Pass and cache read no transcript whole.
			warm := &countingFS{FS: home.FS, whole: map[string]int{}, bytes: map[string]int64{}}
			s2 := passSource(t, h, warm, s.Cache)
			s2.Pass = s.Pass
			before := s.Pass.Stats
			for _, id := range passLines {
				overview.Compute(s2, id)
			}
			for name, n := range warm.bytes {
				if n == 0 {
					delete(warm.whole, name) // an empty file: no byte read
				}
			}
			if len(warm.whole) > 0 || s.Pass.Stats != before {
				t.Errorf("counted again: read whole %v; the pass read %+v", warm.whole, s.Pass.Stats)
			}
		})
	}
}

// TestPassFeedsTheProjectsLoadsAndFollowers: with the project load's
// loads cache (Env.Loads) and the Replay list's Handoff, the pass fills
// both for the open project; the loads read after, and the followers
// taken, read none of the project's transcripts whole again, and the
// loads report is the one a read of its own makes. (Before, the project's
// transcripts were read three times at a cold start: the pass, the
// loads, the list.)
func TestPassFeedsTheProjectsLoadsAndFollowers(t *testing.T) {
	for _, h := range passHomes(t) {
		t.Run(h.name, func(t *testing.T) {
			home, cfs, s := countedSource(t, h)
			s.Env.Loads = loads.NewCache()
			s.Pass = &overview.Pass{Followers: sessions.NewHandoff()}
			overview.Compute(s, overview.Secrets)
			slug, ok := model.FindProjectDir(home.FS, h.project)
			if !ok {
				t.Fatalf("no project folder for %s", h.project)
			}
			files, _ := model.FindProjectTranscripts(home.FS, slug)
			passRead := map[string]int{}
			for _, f := range files {
				passRead[f.Path] = cfs.whole[f.Path]
			}
			got := s.Env.Open(h.project).Loads(0)
			taken := 0
			for _, f := range files {
				if fw := s.Pass.Followers.Take(f); fw != nil {
					if _, err := fw.Update(cfs, f.Path); err != nil {
						t.Fatal(err)
					}
					taken++
				}
			}
			for _, f := range files {
				if f.Size > 0 && cfs.whole[f.Path] != passRead[f.Path] {
					t.Errorf("%s: read whole again after the pass (%d times, the pass %d)", f.Path, cfs.whole[f.Path], passRead[f.Path])
				}
			}
			if taken == 0 {
				t.Error("no follower handed")
			}
			want := passSource(t, h, nil, nil).Env.Open(h.project).Loads(0)
			if g, w := lineJSON(t, got), lineJSON(t, want); g != w {
				t.Errorf("loads from the pass:\n%s\nread alone:\n%s", g, w)
			}
		})
	}
}

package loads

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/memscope/memscope/engine/diskcache"
	"github.com/memscope/memscope/engine/homepass"
	"github.com/memscope/memscope/engine/internal/enginetest"
	"github.com/memscope/memscope/internal/testenv"
	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/model"
)

// A shared pass with the cache's Feed fills the cache: a Build after
// reads no transcript, and answers what a Build reading them alone does.
// (Before the Feed, each Build read every transcript of the project the
// pass had read already.)
func TestFeedFillsTheCacheForBuild(t *testing.T) {
	o, _ := newFixture(t)
	want := Build(o)
	transcriptBytes(t, o)
	c := NewCache()
	all, _ := model.FindTranscripts(o.Home)
	if _, err := homepass.Run(o.Home, all, 2, enginetest.ReadAll{}, c.Feed(o.Slug)); err != nil {
		t.Fatal(err)
	}
	rc := &testenv.ReadCounter{FS: o.Home, Count: func(name string) bool { return strings.HasSuffix(name, ".jsonl") }}
	o.Home, o.Cache = rc, c
	got := Build(o)
	if n := rc.N.Load(); n != 0 {
		t.Errorf("a Build after the pass read %d transcript bytes, want 0", n)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("a Build from the pass's cache answered\n%+v\nalone\n%+v", got, want)
	}
	// CachedOnly (the start's first project load) takes them too, whole.
	o.CachedOnly = true
	if got := Build(o); got.Partial || !reflect.DeepEqual(got.Files, want.Files) {
		t.Errorf("a cached-only Build after the pass: partial %v, files %+v", got.Partial, got.Files)
	}
}

// A transcript written after the pass read it is read again by the next
// Build (the cache is keyed by size and modification time), and the
// Build answers as one alone does.
func TestFeedEntryOfAChangedTranscriptIsReadAgain(t *testing.T) {
	o, f := newFixture(t)
	c := NewCache()
	all, _ := model.FindTranscripts(o.Home)
	if _, err := homepass.Run(o.Home, all, 2, enginetest.ReadAll{}, c.Feed(o.Slug)); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(f.home, "projects", f.slug, "s3.jsonl")
	day := func(d int) time.Time { return now.Add(-time.Duration(d) * 24 * time.Hour) }
	more := nested("s3", day(1), filepath.Join(f.proj, ".claude/rules/web.md"), "web/**/*.tsx")
	fh, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fh.WriteString(more); err != nil {
		t.Fatal(err)
	}
	fh.Close()
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(p, later, later); err != nil {
		t.Fatal(err)
	}
	info, _ := os.Stat(p)
	want := Build(o)
	rc := &testenv.ReadCounter{FS: o.Home, Count: func(name string) bool { return strings.HasSuffix(name, ".jsonl") }}
	o.Home, o.Cache = rc, c
	got := Build(o)
	if n := rc.N.Load(); n != info.Size() {
		t.Errorf("a Build after s3.jsonl changed read %d transcript bytes, want s3.jsonl's %d", n, info.Size())
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("after a change the Build answered\n%+v\nalone\n%+v", got.Files, want.Files)
	}
}

// A pass said to be due (Expect) and a Build running at once read each
// of the project's transcripts once between them, whichever starts
// first: the Build waits for the pass's claims. The Build answers as one
// alone does.
func TestFeedAndBuildAtOnceReadEachTranscriptOnce(t *testing.T) {
	o, _ := newFixture(t)
	want := Build(o)
	bytes := transcriptBytes(t, o)
	for range 20 {
		rc := &testenv.ReadCounter{FS: o.Home, Count: func(name string) bool { return strings.HasSuffix(name, ".jsonl") }}
		files, _ := model.FindProjectTranscripts(o.Home, o.Slug)
		// The pass stamps every file it is asked (a head read each).
		var heads int64
		for _, f := range files {
			heads += min(f.Size, model.TailHeadMax)
		}
		oo := o
		oo.Home, oo.Cache = rc, NewCache()
		var got Report
		var wg sync.WaitGroup
		oo.Cache.Expect()
		wg.Go(func() { _, _ = homepass.Run(rc, files, 2, enginetest.ReadAll{}, oo.Cache.Feed(o.Slug)) })
		wg.Go(func() { got = Build(oo) })
		wg.Wait()
		if n := rc.N.Load(); n != bytes+heads {
			t.Fatalf("a pass and a Build at once read %d transcript bytes, want %d (each once, and the pass's stamps %d)", n, bytes+heads, heads)
		}
		if !reflect.DeepEqual(got.Files, want.Files) || got.Sessions != want.Sessions {
			t.Fatalf("beside the pass the Build answered %+v, alone %+v", got.Files, want.Files)
		}
	}
}

// The reader reads first the files a Firster names (the open project's,
// which a project load waits for), then the rest biggest first.
func TestRunReadsFirstersFilesFirst(t *testing.T) {
	o, f := newFixture(t)
	enginetestWrite(t, filepath.Join(f.home, "projects", "-other", "big.jsonl"), strings.Repeat(`{"type":"user"}`+"\n", 5000))
	all, _ := model.FindTranscripts(o.Home)
	var mu sync.Mutex
	var order []string
	rec := recordOrder{mu: &mu, order: &order}
	if _, err := homepass.Run(o.Home, all, 1, rec, NewCache().Feed(o.Slug)); err != nil {
		t.Fatal(err)
	}
	if len(order) != len(all) || !strings.HasPrefix(order[0], "projects/"+o.Slug+"/") || order[len(order)-1] != "projects/-other/big.jsonl" {
		t.Errorf("read in the order %v: the project's first, then the rest", order)
	}
}

type recordOrder struct {
	mu    *sync.Mutex
	order *[]string
}

func (r recordOrder) Want(t model.TranscriptFile, _ model.FileStamp) homepass.File {
	r.mu.Lock()
	*r.order = append(*r.order, t.Path)
	r.mu.Unlock()
	return nil
}

func (recordOrder) Done() error { return nil }

func enginetestWrite(t *testing.T, p, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// The Feed rides (homepass.Rider): a pass with no other pass wanting the
// project's transcripts (a warm start, their caches full) reads none of
// them for the loads alone, releases its claims, and a Build reads them
// itself.
func TestFeedReadsNothingAlone(t *testing.T) {
	o, _ := newFixture(t)
	bytes := transcriptBytes(t, o)
	c := NewCache()
	all, _ := model.FindTranscripts(o.Home)
	st, err := homepass.Run(o.Home, all, 2, c.Feed(o.Slug))
	if err != nil {
		t.Fatal(err)
	}
	if st.Files != 0 {
		t.Errorf("the pass read %d files for the loads alone, want 0", st.Files)
	}
	rc := &testenv.ReadCounter{FS: o.Home, Count: func(name string) bool { return strings.HasSuffix(name, ".jsonl") }}
	o.Home, o.Cache = rc, c
	Build(o)
	if n := rc.N.Load(); n != bytes {
		t.Errorf("the Build after read %d transcript bytes, want %d (each once)", n, bytes)
	}
}

// What the pass read for the cache is kept on disk like a Build's read
// (NewCacheOn): the next run's Build reads no transcript. Before, the
// pass's entries had no stamp and were not saved, so a warm start after
// a cold one read the open project's transcripts again.
func TestFeedEntriesAreKeptOnDisk(t *testing.T) {
	o, f := newFixture(t)
	want := Build(o)
	store := diskcache.New(filepath.Join(t.TempDir(), "cache"), testroot.New(t), model.OSWriteFS{})
	c := NewCacheOn(store, f.home)
	c.clock = func() time.Time { return time.Now().Add(time.Hour) } // the fixture's files settled
	all, _ := model.FindTranscripts(o.Home)
	if _, err := homepass.Run(o.Home, all, 2, enginetest.ReadAll{}, c.Feed(o.Slug)); err != nil {
		t.Fatal(err)
	}
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	got, n := diskRun(t, o, store, f.home)
	if n != 0 {
		t.Errorf("the next run read %d transcript bytes, want none (the pass's entries on disk)", n)
	}
	if got.Partial = want.Partial; !reflect.DeepEqual(got, want) {
		t.Errorf("from the pass's disk entries:\n%+v\nread:\n%+v", got, want)
	}
}

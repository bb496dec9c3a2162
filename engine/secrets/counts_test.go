package secrets

import (
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/memscope/memscope/engine/diskcache"
	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/model"
)

// countFS counts the transcripts opened through it.
type countFS struct {
	fs.FS
	transcripts atomic.Int64
}

func (c *countFS) Open(name string) (fs.File, error) {
	if strings.HasSuffix(name, ".jsonl") && strings.HasPrefix(name, "projects/") {
		c.transcripts.Add(1)
	}
	return c.FS.Open(name)
}

// Counts answers as Begin's Report (every store's files, bytes and
// findings, the scrub copies) with and without its cache; a second run
// on an unchanged home reads no transcript, and a secret appended to a
// transcript is counted by the next run.
func TestCountsEqualBeginAndCacheReadsNoTranscript(t *testing.T) {
	t.Parallel()
	_, h := plantedHome(t)
	want := Begin(Options{Home: h}).Report
	if want.Count() == 0 {
		t.Fatal("the planted home has no finding: the test proves nothing")
	}
	if got := Counts(Options{Home: h}, nil); !reflect.DeepEqual(got.Stores, want.Stores) || len(got.Copies) != len(want.Copies) {
		t.Fatalf("uncached counts %+v, Begin's %+v", got.Stores, want.Stores)
	}
	cache := diskcache.New(filepath.Join(t.TempDir(), "cache"), testroot.New(t), model.OSWriteFS{})
	cf := &countFS{FS: h.FS}
	ch := *h
	ch.FS = cf
	first := Counts(Options{Home: &ch}, cache)
	if !reflect.DeepEqual(first.Stores, want.Stores) {
		t.Fatalf("first cached counts %+v, Begin's %+v", first.Stores, want.Stores)
	}
	if cf.transcripts.Load() == 0 {
		t.Fatal("the first run read no transcript")
	}
	firstOpens := cf.transcripts.Load()
	cf.transcripts.Store(0)
	again := Counts(Options{Home: &ch}, cache)
	if !reflect.DeepEqual(again.Stores, want.Stores) {
		t.Fatalf("counts from the cache %+v, Begin's %+v", again.Stores, want.Stores)
	}
	// Each transcript is opened once, to be stamped (diskcache.PerFile),
	// and not read: the first run opened each twice, to stamp it and to
	// scan it.
	if n := cf.transcripts.Load(); n == 0 || 2*n != firstOpens {
		t.Errorf("a run on an unchanged home opened transcripts %d times, the first run %d: want half (one stamp each)", n, firstOpens)
	}
	files, _ := model.FindTranscripts(h.FS)
	// A session appends a line holding a key: the next run counts it.
	if len(files) == 0 {
		t.Fatal("no transcript in the planted home")
	}
	name := files[0].Path
	f, err := os.OpenFile(filepath.Join(h.Dir, filepath.FromSlash(name)), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(`{"type":"user","message":{"role":"user","content":"key ghp_Zq7Rk2Lm9Xw4Tb8Yc1Vn5Hs3Jd6Fg0Pa2Qe7 here"}}` + "\n"); err != nil {
		t.Fatal(err)
	}
	f.Close()
	after := Counts(Options{Home: &ch}, cache)
	if got, want := after.Count(), Begin(Options{Home: h}).Report.Count(); got != want || got != first.Count()+1 {
		t.Errorf("after an appended key: %d counted, Begin %d, before %d", got, want, first.Count())
	}
}

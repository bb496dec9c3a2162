package loads

import (
	"io/fs"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/memscope/memscope/internal/testenv"
)

// Builds sharing a Cache at the same moment (an app's Overview lint
// beside its project feed's loads) read each transcript once between
// them, and answer alike; without the wait for a read under way each
// read every transcript.
//
// The builds overlap every run: the first open of a transcript (the
// first build's) is held until another build has reached that
// transcript, by opening it too (each reading it: the bug) or by
// waiting for the first build's read (the cache's waits hook). Before,
// the builds overlapped about one run in three and the test passed on
// the others.
func TestSharedCacheReadsEachTranscriptOnce(t *testing.T) {
	o, _ := newFixture(t)
	want := Build(o)
	bytes := transcriptBytes(t, o)
	rc := &testenv.ReadCounter{FS: o.Home, Count: func(name string) bool { return strings.HasSuffix(name, ".jsonl") }}
	gate := &firstOpenGate{FS: rc, reached: make(chan struct{})}
	o.Home = gate
	o.Cache = NewCache()
	o.Cache.waits = func(string) { gate.reach() }
	const builds = 8
	got := make([]Report, builds)
	var wg sync.WaitGroup
	for i := range builds {
		wg.Go(func() { got[i] = Build(o) })
	}
	wg.Wait()
	if n := rc.N.Load(); n != bytes {
		t.Errorf("%d builds sharing a cache read %d transcript bytes, want %d (each once)", builds, n, bytes)
	}
	for i, r := range got {
		if !reflect.DeepEqual(r.Files, want.Files) || r.Sessions != want.Sessions {
			t.Errorf("build %d answered %+v, alone %+v", i, r.Files, want.Files)
		}
	}
}

// firstOpenGate holds the first open of a transcript until reach is
// called: by a later open of the same transcript, or by whoever knows
// another reader got to it.
type firstOpenGate struct {
	fs.FS
	mu      sync.Mutex
	gated   string // the transcript whose first open is held
	reached chan struct{}
	once    sync.Once
}

func (g *firstOpenGate) Stat(name string) (fs.FileInfo, error) { return fs.Stat(g.FS, name) }

func (g *firstOpenGate) ReadDir(name string) ([]fs.DirEntry, error) { return fs.ReadDir(g.FS, name) }

func (g *firstOpenGate) reach() { g.once.Do(func() { close(g.reached) }) }

func (g *firstOpenGate) Open(name string) (fs.File, error) {
	if strings.HasSuffix(name, ".jsonl") {
		g.mu.Lock()
		first := g.gated == ""
		if first {
			g.gated = name
		}
		again := name == g.gated && !first
		g.mu.Unlock()
		if first {
			<-g.reached
		} else if again {
			g.reach()
		}
	}
	return g.FS.Open(name)
}

package loads

import (
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
func TestSharedCacheReadsEachTranscriptOnce(t *testing.T) {
	o, _ := newFixture(t)
	want := Build(o)
	bytes := transcriptBytes(t, o)
	rc := &testenv.ReadCounter{FS: o.Home, Count: func(name string) bool { return strings.HasSuffix(name, ".jsonl") }}
	o.Home = rc
	o.Cache = NewCache()
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

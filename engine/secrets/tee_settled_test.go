package secrets

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memscope/memscope/engine/diskcache"
	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/model"
)

// A cold Counts stamps a file other than a transcript whose times had
// settled when the process started without hashing its head (settledStamp:
// every reader of its entry compares it by its information alone), and a
// transcript (which the shared pass's Feed asks by the full stamp) with
// it; a warm run answers the same. On the old code every stamp had its
// head hash. Not parallel: it moves processStart, as if the process had
// started an hour from now.
func TestCountsSettledStampNoHeadHash(t *testing.T) {
	_, h := plantedHome(t)
	startAnHourAhead(t)
	cache := diskcache.New(filepath.Join(t.TempDir(), "cache"), testroot.New(t), model.OSWriteFS{})
	check := countsAsBegin(t, h, h, cache)
	check("cold")
	kept, ok := diskcache.LoadShared[keptCounts](cache, countsKind, diskcache.Name(countsKind, h.Dir))
	if !ok || len(kept) == 0 {
		t.Fatal("no counts kept")
	}
	var headless, transcripts int
	for name, e := range kept {
		transcript := strings.HasPrefix(name, "projects/") && strings.HasSuffix(name, ".jsonl")
		switch {
		case e.Stamp.Size == 0:
		case transcript && e.Stamp.HeadLen == 0:
			t.Errorf("%s: a transcript's stamp has no head hash", name)
		case transcript:
			transcripts++
		case e.Stamp.HeadLen != 0:
			t.Errorf("%s: a settled file's stamp hashed its first %d bytes", name, e.Stamp.HeadLen)
		default:
			headless++
		}
	}
	if headless == 0 || transcripts == 0 {
		t.Fatalf("%d settled files, %d transcripts stamped: the test proves nothing", headless, transcripts)
	}
	if r := check("warm"); r.Count() == 0 {
		t.Fatal("no findings: the test proves nothing")
	}
}

// startAnHourAhead moves processStart an hour past now for the test (as
// if the process had started then: the files it wrote have settled).
func startAnHourAhead(t *testing.T) {
	saved := processStart.Load()
	processStart.Store(time.Now().Add(time.Hour).UnixNano())
	t.Cleanup(func() { processStart.Store(saved) })
}

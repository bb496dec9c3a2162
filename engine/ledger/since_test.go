package ledger

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
	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/model"
)

// openCount counts the transcripts opened through it.
type openCount struct {
	fs.FS
	n atomic.Int64
}

func (c *openCount) Open(name string) (fs.File, error) {
	if strings.HasSuffix(name, ".jsonl") {
		c.n.Add(1)
	}
	return c.FS.Open(name)
}

// Stat stats without an open (fs.Stat would open the file through Open).
func (c *openCount) Stat(name string) (fs.FileInfo, error) { return fs.Stat(c.FS, name) }

// TestHomeSince: HomeSince decodes a transcript whose compactions are
// since the cut-off as Home does, and one whose compactions are all
// older only once, raw (by its records' times, not the file's: a file
// dated before its records is still read); with a cache, a second run
// only stamps each transcript.
func TestHomeSince(t *testing.T) {
	dir, name := writeHome(t, true)
	// The file dated long before its records: the times are the records'.
	old := time.Date(2026, 8, 1, 0, 0, 0, 0, time.UTC)
	if err := os.Chtimes(name, old, old); err != nil {
		t.Fatal(err)
	}
	all, _ := Home(model.DirFS(dir), dir, nil)
	if len(all) != 1 || len(all[0].Boundaries) != 2 {
		t.Fatalf("Home: %+v", all)
	}
	first, last := all[0].Boundaries[0].Time, all[0].Boundaries[1].Time
	if !first.After(old) || last.Before(first) {
		t.Fatalf("the fixture's boundaries are not after %s: %+v", old, all[0].Boundaries)
	}
	files, _ := model.FindTranscripts(model.DirFS(dir))
	home := &openCount{FS: model.DirFS(dir)}
	for _, c := range []struct {
		what  string
		since time.Time
		want  int
	}{{"before the first", first.Add(-time.Hour), 1}, {"at the last", last, 1}, {"after the last", last.Add(time.Second), 0}} {
		home.n.Store(0)
		got, _ := HomeSince(home, dir, nil, c.since)
		if len(got) != c.want {
			t.Errorf("since %s: %d sessions, want %d", c.what, len(got), c.want)
			continue
		}
		if c.want == 1 && !reflect.DeepEqual(got, all) {
			t.Errorf("since %s: %+v, Home: %+v", c.what, got, all)
		}
		// One raw read of each transcript; the one that compacted since
		// is read again (Home's reads).
		if n := home.n.Load(); c.want == 0 && n != int64(len(files)) || c.want == 1 && n <= int64(len(files)) {
			t.Errorf("since %s: %d transcript opens for %d transcripts", c.what, n, len(files))
		}
	}
	cache := diskcache.New(filepath.Join(t.TempDir(), "cache"), testroot.New(t), model.OSWriteFS{})
	since := first.Add(-time.Hour)
	want, _ := HomeSince(home, dir, cache, since)
	home.n.Store(0)
	if got, _ := HomeSince(home, dir, cache, since); !reflect.DeepEqual(got, want) || !reflect.DeepEqual(got, all) {
		t.Errorf("from the cache: %+v, want %+v", got, all)
	}
	// Each file stamped twice (the newest time's cache and the ledger's),
	// the one without a recent compaction once; none read.
	if n := home.n.Load(); n != int64(2*len(files)-1) {
		t.Errorf("a second run opened transcripts %d times, want %d (stamps only)", n, 2*len(files)-1)
	}
}

package vault

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/memscope/memscope/model"
)

// A large file whose pages are in memory already is opened ahead and
// handed to its worker, but not advised (WILLNEED of a cached file walks
// its every page for nothing: ~45 µs a file over 1 MiB); a large file
// not in memory is, and a small file is advised without asking. On the
// old code every file the prefetcher opened was advised.
func TestPrefetchLeavesCachedLargeFiles(t *testing.T) {
	if !canAdvise {
		t.Skip("no read-ahead advice on this platform (the prefetcher does not run)")
	}
	home := filepath.Join(t.TempDir(), "home")
	big := strings.Repeat("x", cachedMin+10) + "\n"
	var names []string
	for i := range 3 {
		for _, kind := range []string{"cached", "cold", "small"} {
			name := fmt.Sprintf("paste-cache/%d-%s.txt", i, kind)
			content := big
			if kind == "small" {
				content = "paste\n"
			}
			write(t, home, name, content, t0)
			names = append(names, name)
		}
	}
	var asked sync.Map
	cachedOf = func(rel string, f fs.File, size int64) bool {
		asked.Store(rel, true)
		return strings.HasSuffix(rel, "-cached.txt")
	}
	t.Cleanup(func() { cachedOf = func(rel string, f fs.File, size int64) bool { return pagesCached(f, size) } })
	files := walkHome(homeOf(t, home).FS, "", new([]model.Problem), nil, nil)
	if len(files) != len(names) {
		t.Fatalf("%d files listed, want %d", len(files), len(names))
	}
	got, each := advised(t)
	s := &syncer{home: homeOf(t, home), st: newState(), mu: &sync.Mutex{}}
	var next atomic.Int64 // the worker stays at file 0: every other file is within the bounds
	pf := s.startPrefetch(files, &next, 1)
	// Files 1 … 8 but 0-cached; the last, 2-small, is advised last.
	want := 0
	for _, f := range files[1:] {
		if !strings.HasSuffix(f.rel, "-cached.txt") {
			want++
		}
	}
	for range want {
		<-each
	}
	for i, f := range files[1:] {
		file := pf.take(i + 1)
		if file == nil {
			t.Errorf("%s was not opened ahead", f.rel)
			continue
		}
		file.Close()
	}
	pf.stop()
	adv := got()
	for _, f := range files[1:] {
		_, wasAdvised := adv[f.rel]
		_, wasAsked := asked.Load(f.rel)
		switch kind := f.rel[strings.LastIndex(f.rel, "-")+1:]; kind {
		case "cached.txt":
			if wasAdvised {
				t.Errorf("%s, in memory, was advised", f.rel)
			}
		case "cold.txt":
			if !wasAdvised {
				t.Errorf("%s, not in memory, was not advised", f.rel)
			}
		case "small.txt":
			if !wasAdvised || wasAsked {
				t.Errorf("%s (small): advised %v, asked whether in memory %v; want advised without asking", f.rel, wasAdvised, wasAsked)
			}
		}
	}
}

package vault

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/memscope/memscope/model"
)

// advised records the files the prefetcher advises (adviseHook) for
// the test, with the bytes it held ahead each time.
func advised(t *testing.T) (got func() map[string]int64, each chan string) {
	t.Helper()
	var mu sync.Mutex
	seen := map[string]int64{}
	each = make(chan string, 1024)
	adviseHook = func(rel string, ahead int64) {
		mu.Lock()
		seen[rel] = ahead
		mu.Unlock()
		each <- rel
	}
	t.Cleanup(func() { adviseHook = nil })
	return func() map[string]int64 {
		mu.Lock()
		defer mu.Unlock()
		out := map[string]int64{}
		for k, v := range seen {
			out[k] = v
		}
		return out
	}, each
}

// The prefetcher opens and advises the files in the workers' order,
// leaves the next one to the (here one) worker and never goes more than
// prefetchFiles ahead of them; a worker gets the file it opened, and
// stop closes what no worker took.
func TestPrefetchStaysWithinItsBoundsAhead(t *testing.T) {
	if !canAdvise {
		t.Skip("no read-ahead advice on this platform (the prefetcher does not run)")
	}
	oldB, oldF := prefetchBytes, prefetchFiles
	prefetchBytes, prefetchFiles = 1<<20, 3
	t.Cleanup(func() { prefetchBytes, prefetchFiles = oldB, oldF })
	home := filepath.Join(t.TempDir(), "home")
	const n = 8
	for i := range n {
		write(t, home, fmt.Sprintf("paste-cache/%02d.txt", i), fmt.Sprintf("paste %d\n", i), t0)
	}
	files := walkHome(homeOf(t, home).FS, "", new([]model.Problem), nil, nil)
	if len(files) != n {
		t.Fatalf("%d files listed, want %d", len(files), n)
	}
	var next atomic.Int64
	var order []string
	check := func(i int) {
		// advised files[i] while the workers were at next: within bounds.
		if ahead := i - int(next.Load()); ahead < 1 || ahead >= prefetchFiles {
			t.Errorf("advised file %d while the workers were at %d (at most %d ahead)", i, next.Load(), prefetchFiles)
		}
	}
	_, each := advised(t)
	s := &syncer{home: homeOf(t, home), st: newState(), mu: &sync.Mutex{}}
	pf := s.startPrefetch(files, &next, 1)
	for range 2 {
		order = append(order, <-each)
	}
	for i, rel := range order {
		if rel != files[i+1].rel {
			t.Fatalf("advised %v, want files 1 and 2, in the workers' order", order)
		}
		check(i + 1)
	}
	if pf.take(0) != nil {
		t.Fatal("the prefetcher opened the file the worker is at")
	}
	// The worker takes file 1 (opened ahead: its bytes read from it) and
	// moves on to 2: the prefetcher goes on to 3 and 4, and no further.
	f := pf.take(1)
	if f == nil {
		t.Fatal("the worker did not get the file the prefetcher opened")
	}
	data, err := io.ReadAll(f)
	f.Close()
	if err != nil || string(data) != "paste 1\n" {
		t.Fatalf("the prefetched file read %q, %v", data, err)
	}
	next.Store(2)
	pf.moved()
	for range 2 {
		order = append(order, <-each)
		check(len(order))
	}
	if order[2] != files[3].rel || order[3] != files[4].rel {
		t.Fatalf("advised %v after the workers moved to 2", order)
	}
	pf.stop()
	for i := range n {
		if pf.take(i) != nil {
			t.Errorf("file %d still held after stop", i)
		}
	}
	select {
	case rel := <-each:
		t.Errorf("advised %s after stop", rel)
	default:
	}
}

// A sync reads ahead only the files the vault has no record of: every
// file of a first sync may be, none of a sync with nothing changed nor
// of one after an append (a known file is read from its last chunk on,
// not whole); the vault is the same as without it.
func TestPrefetchOnlyNewFiles(t *testing.T) {
	if !canAdvise {
		t.Skip("no read-ahead advice on this platform (the prefetcher does not run)")
	}
	home := testHome(t, 4000)
	got, _ := advised(t)
	v := openVault(t, nil)
	rep := syncHome(t, v, home, t0.Add(time.Hour))
	first := got()
	for rel, ahead := range first {
		if ahead <= 0 || ahead > prefetchBytes {
			t.Errorf("%s advised with %d bytes ahead (bound %d)", rel, ahead, prefetchBytes)
		}
	}
	if len(first) > rep.New {
		t.Errorf("advised %d files, the sync read %d new", len(first), rep.New)
	}
	adviseHook = nil
	seen, _ := advised(t)
	syncHome(t, v, home, t0.Add(2*time.Hour))
	f, err := os.OpenFile(filepath.Join(home, "projects", proj, sidA+".jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(transcript(sidA, 300, 310, 4000))
	f.Close()
	if r := syncHome(t, v, home, t0.Add(3*time.Hour)); r.Changed != 1 {
		t.Fatalf("after an append: %+v", r)
	}
	if s := seen(); len(s) != 0 {
		t.Errorf("files the vault knows were read ahead: %v", s)
	}
	if r, err := v.Verify(); err != nil || !r.OK() {
		t.Fatalf("verify: %+v %v", r, err)
	}
}

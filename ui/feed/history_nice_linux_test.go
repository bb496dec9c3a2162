package feed

import (
	"io/fs"
	"path/filepath"
	"sync"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/memscope/memscope/engine/diskcache"
	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/model"
)

// niceFS records the nice value of the thread each open of history.jsonl
// runs on.
type niceFS struct {
	fs.FS
	mu    *sync.Mutex
	nices *[]int
}

func (n niceFS) Open(name string) (fs.File, error) {
	if name == model.HistoryPath {
		prio, err := unix.Getpriority(unix.PRIO_PROCESS, unix.Gettid())
		if err != nil {
			prio = 100
		}
		n.mu.Lock()
		*n.nices = append(*n.nices, 20-prio)
		n.mu.Unlock()
	}
	return n.FS.Open(name)
}

// After a start that held the digest, the whole read a pane's showing
// asks for runs on a thread whose nice value is backgroundNice above the
// app's (keys first); the start's own read does not. (On the old code
// every read ran at the app's.)
func TestHistoryPaneReadAtLowPriority(t *testing.T) {
	prio, err := unix.Getpriority(unix.PRIO_PROCESS, unix.Gettid())
	if err != nil {
		t.Fatal(err)
	}
	base := 20 - prio
	if base >= 19 {
		t.Fatalf("the test runs at nice %d: no room above it", base)
	}
	dir := t.TempDir()
	historyFile(t, dir, 50, true)
	cache := diskcache.New(filepath.Join(t.TempDir(), "cache"), testroot.New(t), model.OSWriteFS{})
	digestStart(t, dir, cache)

	home := testHome(t, dir)
	var mu sync.Mutex
	var nices []int
	home.FS = niceFS{home.FS, &mu, &nices}
	h := NewHistory(home, cache)
	settle(t, h, h.Init())
	start := len(nices)
	settle(t, h, h.ShowPastes())
	if h.History() == nil || len(nices) == start {
		t.Fatal("showing the pane read no history")
	}
	want := min(base+backgroundNice, 19)
	for i, n := range nices {
		if i < start && n != base {
			t.Errorf("the start's read ran at nice %d, want the app's %d", n, base)
		}
		if i >= start && n != want {
			t.Errorf("the pane's whole read ran at nice %d, want %d (the app's %d + %d)", n, want, base, backgroundNice)
		}
	}
	// The caller's thread is as it was.
	if p, _ := unix.Getpriority(unix.PRIO_PROCESS, unix.Gettid()); 20-p != base {
		t.Errorf("the test's thread went from nice %d to %d", base, 20-p)
	}
}

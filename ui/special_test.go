package ui

import (
	"runtime"
	"runtime/metrics"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/internal/testenv"
	"github.com/memscope/memscope/scripts/memscope-hostile/hostilehome"
)

// heapGuard stops the test binary when its heap grows by more than limit
// over what it held when the test started (after a collection, so an
// earlier test's garbage does not count): a read of /dev/zero would
// otherwise take the machine's memory before any timeout.
func heapGuard(t *testing.T, limit uint64) {
	t.Helper()
	defaultGCDuring(t)
	stop := make(chan struct{})
	t.Cleanup(func() { close(stop) })
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	runtime.GC()
	metrics.Read(s)
	limit += s[0].Value.Uint64()
	go func() {
		for {
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
			metrics.Read(s)
			if v := s[0].Value.Uint64(); v > limit {
				panic("heap passed the test's limit: a read runs away")
			}
		}
	}()
}

// With a named pipe or a link to /dev/zero in place of every file the
// TUI reads (MEMORY.md, memory files, settings, history, transcripts,
// pastes, CLAUDE.md, the journal, backups…), the app loads and every pane
// can be walked within seconds, and the problem is named somewhere.
func TestHostileTUISpecialFiles(t *testing.T) {
	heapGuard(t, 1<<30)
	for _, kind := range []string{hostilehome.KindFIFO, hostilehome.KindDevZero} {
		t.Run(kind, func(t *testing.T) {
			want := map[string]string{hostilehome.KindFIFO: "named pipe", hostilehome.KindDevZero: "character device"}[kind]
			done := make(chan struct{})
			seen := false
			go func() {
				defer close(done)
				m, _ := hostileModel(t, hostilehome.Special, hostilehome.Options{Kind: kind})
				hostileWalk(t, m, func(what string, v tea.View) {
					// A link to /dev/zero is a link out of the home: the home's
					// file system names it so before anything opens it.
					if c := stripStyling(v.Content); strings.Contains(c, want) || kind == hostilehome.KindDevZero && strings.Contains(c, "outside the home") {
						seen = true
					}
				})
			}()
			select {
			case <-done:
			case <-time.After(60 * time.Second):
				t.Fatal("the TUI did not finish loading and walking its panes: a read blocks")
			}
			if !seen {
				t.Errorf("no pane names a %s", want)
			}
		})
	}
}

// With runs of NUL bytes in every kind of file (64 MiB, 1 GiB with
// MEMSCOPE_LONG=1) the app loads and every pane can be walked without
// its heap passing 400 MiB, and MEMORY.md's problem is shown.
func TestHostileTUIHugeFiles(t *testing.T) {
	heapGuard(t, 400<<20)
	size := int64(testenv.Size(t, 1<<30, 64<<20))
	done := make(chan struct{})
	seen := false
	go func() {
		defer close(done)
		m, _ := hostileModel(t, hostilehome.Huge, hostilehome.Options{Size: size})
		seen = strings.Contains(screen(press(t, m, "9")), "MEMORY.md is "+map[bool]string{true: "1.0 GiB", false: "64.0 MiB"}[size == 1<<30])
		hostileWalk(t, m, func(string, tea.View) {})
	}()
	select {
	case <-done:
	case <-time.After(120 * time.Second):
		t.Fatal("the TUI did not finish loading and walking its panes")
	}
	if !seen {
		t.Error("the Health pane does not say MEMORY.md is too large to read")
	}
}

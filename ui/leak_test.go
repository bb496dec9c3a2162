package ui

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/internal/testenv"
)

// liveHeap is the heap still reachable after a full collection.
func liveHeap() uint64 {
	var ms runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// bigHome is the test home with a history of n prompts for the open
// project and a memory folder of files memory files, so that what one
// reload reads is large next to the rest of the heap.
func bigHome(t testing.TB, n, files int) Options {
	h := fixedHome(t)
	mfs := h.FS.(fstest.MapFS)
	var b strings.Builder
	b.Write(mfs["history.jsonl"].Data)
	pad := strings.Repeat("lorem ipsum dolor sit amet ", 12)
	for i := range n {
		fmt.Fprintf(&b, `{"display":"prompt %d %s","pastedContents":{},"timestamp":%d,"project":%q,"sessionId":"fedcb1e2-dbe4-5555-90b5-52df88de5bed"}`+"\n", i, pad, 1795340000000+int64(i)*1000, betaProject)
	}
	mfs["history.jsonl"] = &fstest.MapFile{Data: []byte(b.String()), Mode: 0o644, ModTime: mfs["history.jsonl"].ModTime}
	mt := mfs["history.jsonl"].ModTime
	for i := range files {
		body := fmt.Sprintf("---\nname: note %d\ndescription: a note\ntype: project\n---\n\n%s\n", i, strings.Repeat(pad+"\n", 8))
		mfs[fmt.Sprintf("projects/-tmp-rc-work-beta/memory/note_%03d.md", i)] = &fstest.MapFile{Data: []byte(body), Mode: 0o644, ModTime: mt}
	}
	o := Options{Home: h, Project: betaProject, Now: func() time.Time { return testNow }, Root: fstest.MapFS{}, Getenv: func(k string) string {
		if k == "NO_COLOR" {
			return "1"
		}
		return ""
	}}
	return o
}

// TestReloadsDoNotLeak reloads a home many times, with each pane in turn
// focused (so the lazily loaded panes get new data too), and checks that
// the heap live after a collection does not grow with the number of
// reloads: a pane must not keep the data of the reloads before the last.
// Each reload reads a few megabytes, so a leak of one reload's data per
// reload grows the heap by far more than the tolerance.
func TestReloadsDoNotLeak(t *testing.T) {
	// Not parallel: the heap is measured, and parallel tests wait until
	// this one is done.
	n := testenv.Size(t, 6000, 2000)
	m := New(bigHome(t, n, 40))
	m = drain(t, m, m.Init())
	next, _ := m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	m = next.(Model)
	if m.p.history.Total() < n {
		t.Fatalf("history pane shows %d prompts, want at least %d", m.p.history.Total(), n)
	}
	before := liveHeap()
	keys := []string{"2", "3", "4", "5", "6", "7", "8", "9", "0", "F"}
	reload := func(i int) {
		m = press(t, m, keys[i%len(keys)], "ctrl+r")
		// The screen is drawn after every reload, as the program does.
		_ = screen(m)
	}
	// Every pane is focused once before the first measurement and, by
	// default, twice more before the last (four times with
	// MEMSCOPE_LONG=1): a leak keeps 20 (40) reloads' data.
	first, last := 10, testenv.Size(t, 50, 30)
	var atFirst uint64
	for i := 1; i <= last; i++ {
		reload(i)
		if i == first {
			atFirst = liveHeap()
		}
	}
	atLast := liveHeap()
	// One reload's data: what the loaded app holds beyond the empty one
	// is at least that; use the first reload's heap as the yardstick.
	perReload := int64(atFirst) - int64(before)
	growth := int64(atLast) - int64(atFirst)
	t.Logf("live heap: loaded %d KB, after %d reloads %d KB, after %d reloads %d KB", before>>10, first, atFirst>>10, last, atLast>>10)
	// The loaded heap holds one copy of the data; a leak keeps one more
	// per reload (20 or 40 between the two measurements). Allow a fifth of the
	// loaded heap for noise (caches, the collector's timing).
	limit := int64(before) / 5
	if growth > limit {
		t.Fatalf("the live heap grew by %d KB over %d reloads (limit %d KB; growth %d KB between load and reload %d): reloads keep old data alive",
			growth>>10, last-first, limit>>10, perReload>>10, first)
	}
	if m.p.history.Total() < n {
		t.Fatalf("after reloads the history pane shows %d prompts", m.p.history.Total())
	}
}

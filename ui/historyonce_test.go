package ui

import (
	"io/fs"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/memscope/memscope/engine/overview"
	"github.com/memscope/memscope/internal/testenv"
	"github.com/memscope/memscope/model"
)

// historyBytesFS counts the bytes of history.jsonl read through its
// decoder (model.HistoryTail: the History feed's reads, the cleanup
// forecast's; and stat's, the Problems line's, whichever way it reads),
// not the secrets scan's reads of the file as bytes.
func historyBytesFS(fsys fs.FS) *testenv.ReadCounter {
	return &testenv.ReadCounter{FS: fsys, Count: func(name string) bool {
		return name == model.HistoryPath && (calledBy("model.(*HistoryTail).") || calledBy("engine/inventory."))
	}}
}

// calledBy says a function whose name contains fn is on the stack.
func calledBy(fn string) bool {
	pc := make([]uintptr, 64)
	frames := runtime.CallersFrames(pc[:runtime.Callers(2, pc)])
	for {
		f, more := frames.Next()
		if strings.Contains(f.Function, fn) {
			return true
		}
		if !more {
			return false
		}
	}
}

// At start the History feed reads history.jsonl once, and the
// Overview's lines that read it (the cleanup forecast's, and the
// Problems line's stat) take its entries: the app reads the file's
// bytes as one whole read does (and the half-written last line once
// more for each), and those lines are what the engine computes reading
// the file itself (as `memscope overview` does). On the old code the
// forecast read the file whole again (a process-wide cache of the last
// whole read shared it only with a file last written a second before),
// and then stat did.
func TestStartReadsHistoryOnceForBothPanes(t *testing.T) {
	h := fixedHome(t)
	one := historyBytesFS(h.FS)
	var tail model.HistoryTail
	if r, err := tail.Read(one, model.HistoryPath); err != nil || len(r.Entries) == 0 {
		t.Fatalf("the fixture's history: %d entries, %v", len(r.Entries), err)
	}
	// The forecast decodes the half-written last line too (Pending), and
	// so does the Problems line's count (stat).
	for range 2 {
		if _, _, err := tail.Pending(one, model.HistoryPath); err != nil {
			t.Fatal(err)
		}
	}
	app := historyBytesFS(h.FS)
	h.FS = app
	m := loadedModel(t, Options{Home: h, Root: fstest.MapFS{}}, 120, 40)
	if m.feeds.history.History() == nil {
		t.Fatal("the History feed holds no history")
	}
	read := app.N.Load()
	want := overview.All(m.overviewSource(m.feeds.overview.Project()))
	rows := m.p.overview.Rows()
	for i, r := range rows {
		if !overview.ReadsHistory(r.Spec.ID) {
			continue
		}
		if r.Counting() {
			t.Fatalf("%s is still counting after the loads settled", r.Spec.ID)
		}
		if !reflect.DeepEqual(*r.Line, want[i]) {
			t.Errorf("%s: the pane shows %+v\nthe engine reading history itself computes %+v", r.Spec.ID, *r.Line, want[i])
		}
	}
	if once := one.N.Load(); read != once {
		t.Errorf("the app read %d bytes of history.jsonl at start; one whole read (and its half-written last line) reads %d", read, once)
	}
}

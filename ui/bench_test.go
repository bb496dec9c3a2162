package ui

import (
	"fmt"
	"github.com/memscope/memscope/ui/feed"
	"os"
	"strings"
	"syscall"
	"testing"
	"testing/fstest"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/internal/keypress"
	"github.com/memscope/memscope/model"
	searchview "github.com/memscope/memscope/views/search"
)

// historyHome is a home whose history has n prompts for one project, a
// tenth of them with a hashed paste.
func historyHome(b *testing.B, n int) *model.Home {
	var sb strings.Builder
	base := testNow.Add(-time.Duration(n) * time.Minute).UnixMilli()
	for i := 0; i < n; i++ {
		if i%10 == 0 {
			fmt.Fprintf(&sb, `{"display":"[Pasted text #1 +40 lines] prompt number %d","pastedContents":{"1":{"id":1,"type":"text","contentHash":"%016x"}},"timestamp":%d,"project":"/home/me/app"}`+"\n", i, i, base+int64(i)*60000)
			continue
		}
		fmt.Fprintf(&sb, `{"display":"prompt number %d about the pricing service","pastedContents":{},"timestamp":%d,"project":"/home/me/app","sessionId":"s"}`+"\n", i, base+int64(i)*60000)
	}
	mfs := fstest.MapFS{
		"history.jsonl":                          {Data: []byte(sb.String()), ModTime: testNow},
		"projects/-home-me-app/memory/MEMORY.md": {Data: []byte("- [A](a.md) — a\n"), ModTime: testNow},
	}
	return &model.Home{Dir: b.TempDir(), FS: mfs, Source: model.HomeFromFlag}
}

// BenchmarkHistoryKeypress is one keypress in the History pane with
// 100 000 prompts loaded: update and full re-render of the screen.
// Target: under 16 ms.
func BenchmarkHistoryKeypress(b *testing.B) {
	m := New(Options{Home: historyHome(b, 100000), Project: "/home/me/app", Now: func() time.Time { return testNow }})
	m = drain(b, m, m.Init())
	next, _ := m.Update(tea.WindowSizeMsg{Width: 160, Height: 50})
	m = next.(Model)
	m = press(b, m, "5")
	if m.p.history.Total() != 100000 {
		b.Fatalf("history pane has %d prompts", m.p.history.Total())
	}
	down, up := keypress.Msg("down"), keypress.Msg("up")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k := down
		if i%200 >= 100 {
			k = up
		}
		next, _ := m.Update(k)
		m = next.(Model)
		_ = m.View()
	}
}

// BenchmarkFirstFrame is the time from nothing to the first full frame:
// building the model and rendering it at the terminal's size. No data is
// read before the first frame, so it does not depend on the home's size;
// set MEMSCOPE_BENCH_HOME to a big home (scripts/memscope-gen W) to check.
// Target: under 150 ms.
func BenchmarkFirstFrame(b *testing.B) {
	home := benchHomeOr(b, func() *model.Home { return historyHome(b, 1000) })
	for i := 0; i < b.N; i++ {
		m := New(Options{Home: home, Now: func() time.Time { return testNow }})
		_ = m.Init()
		next, _ := m.Update(tea.WindowSizeMsg{Width: 160, Height: 50})
		if s := next.(Model).View().Content; !strings.Contains(s, "memscope") {
			b.Fatal("first frame is empty")
		}
	}
}

// BenchmarkSearchFirstHits is the time from enter in the Search overlay
// to the first hits handed to it (the message that puts them on
// screen), through the same command and pump as the app. On the
// fixture home by default; set MEMSCOPE_BENCH_HOME to W (scripts/memscope-gen)
// and MEMSCOPE_BENCH_QUERY to a query (default "queue branch").
// Target: 100 ms on W. It reports the CPU time the process used too
// (user+sys), which a loaded machine disturbs less than wall time.
func BenchmarkSearchFirstHits(b *testing.B) {
	q := os.Getenv("MEMSCOPE_BENCH_QUERY")
	home := benchHomeOr(b, func() *model.Home {
		q = "lorem"
		return fixedHome(b)
	})
	if q == "" {
		q = "queue branch"
	}
	m := New(Options{Home: home, Now: func() time.Time { return testNow }})
	var cpu, wall time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c0, t0 := cpuTime(), time.Now()
		cmd := m.startSearch(searchview.Start{Query: q})
		msg := cmd().(feed.SearchBatch)
		wall += time.Since(t0)
		cpu += cpuTime() - c0
		if len(msg.Hits) == 0 {
			b.Fatalf("no hit for %q", q)
		}
		m.stopSearch()
		for msg.Fin == nil {
			msg = m.feeds.search.Next(msg)().(feed.SearchBatch)
		}
	}
	b.ReportMetric(float64(wall.Milliseconds())/float64(b.N), "ms/first-hits")
	b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/first-hits")
}

// benchHomeOr opens the home MEMSCOPE_BENCH_HOME names, else returns
// fallback's.
func benchHomeOr(b *testing.B, fallback func() *model.Home) *model.Home {
	dir := os.Getenv("MEMSCOPE_BENCH_HOME")
	if dir == "" {
		return fallback()
	}
	h, err := model.OpenHome(dir, model.HomeFromFlag)
	if err != nil {
		b.Fatal(err)
	}
	return h
}

// cpuTime is the process's user and system time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

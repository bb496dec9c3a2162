package live

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/memscope/memscope/model"
)

// BenchmarkTrackerUpdate appends one response (about 1 KB) to a running
// session's transcript and updates the tracker, in homes whose other
// sessions hold 0, 64 and 256 MB: the cost must not grow with the home.
func BenchmarkTrackerUpdate(b *testing.B) {
	for _, mb := range []int{0, 64, 256} {
		b.Run(fmt.Sprintf("home+%dMB", mb), func(b *testing.B) {
			dir := b.TempDir()
			old := now.Add(-48 * time.Hour)
			// One 1 MB transcript per MB, last written two days ago.
			filler := strings.Repeat("x", 100000)
			for i := 0; i < mb; i++ {
				s := newScript(fmt.Sprintf("old%d", i), "/w/old", old)
				for s.b.Len() < 1<<20 {
					s.user(filler)
				}
				p := writeFile(b, dir, fmt.Sprintf("projects/-w-old%d/old%d.jsonl", i%50, i), s.String())
				if err := os.Chtimes(p, old, old); err != nil {
					b.Fatal(err)
				}
			}
			writeFile(b, dir, "sessions/7.json", `{"pid":7,"sessionId":"live","cwd":"/w/app","startedAt":"2026-11-22T11:00:00Z","status":"busy"}`)
			s := newScript("live", "/w/app", now.Add(-time.Hour))
			for i := 0; i < 200; i++ {
				s.user("next")
				s.answer(fmt.Sprintf("a%d", i), 20000+int64(i)*100)
			}
			tp := writeFile(b, dir, "projects/-w-app/live.jsonl", s.String())
			home, err := model.OpenHome(dir, model.HomeFromFlag)
			if err != nil {
				b.Fatal(err)
			}
			tr := NewTracker(Options{Home: home, Now: func() time.Time { return now }, Alive: func(int) bool { return true }})
			if st, ok := tr.Refresh().Session("live"); !ok || st.Turns != 200 {
				b.Fatalf("live session %+v", st)
			}
			done := len(s.String())
			b.ReportAllocs()
			var read int64
			i := 0
			for b.Loop() {
				s.answer(fmt.Sprintf("b%d", i), 40000+int64(i))
				i++
				appendFile(b, tp, s.String()[done:])
				done = len(s.String())
				read += tr.Update("projects/-w-app/live.jsonl").Read
			}
			b.ReportMetric(float64(read)/float64(b.N), "B-read/op")
			if st, _ := tr.Update().Session("live"); st.Turns != 200+i {
				b.Fatalf("turns %d, want %d", st.Turns, 200+i)
			}
		})
	}
}

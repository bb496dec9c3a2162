package sessions

import (
	"os"
	"testing"

	"github.com/memscope/memscope/internal/genhome"
	"github.com/memscope/memscope/model"
)

// BenchmarkLastActiveHome is the Projects pane's last-active read on a
// whole generated home (scripts/memscope-gen, MEMSCOPE_BENCH_SIZES, default
// "64M 256M"): the end of every transcript, so the time should follow
// the number of transcripts, not their size.
func BenchmarkLastActiveHome(b *testing.B) {
	for _, size := range genhome.BenchSizes("64M", "256M") {
		b.Run("size="+size, func(b *testing.B) {
			base, err := genhome.Cached(size, "1")
			if err != nil {
				b.Fatalf("scripts/memscope-gen (in this repository) failed: %v", err)
			}
			fsys := os.DirFS(base)
			sf, _ := model.FindSessionFiles(fsys)
			records := 0
			for b.Loop() {
				for _, t := range sf.Transcripts {
					if LastActive(fsys, t).Clock == ClockRecord {
						records++
					}
				}
			}
			if records == 0 {
				b.Fatal("no transcript had a stamped record")
			}
			b.ReportMetric(float64(len(sf.Transcripts)), "transcripts")
		})
	}
}

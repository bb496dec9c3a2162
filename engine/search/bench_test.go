package search

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memscope/memscope/model"
)

// benchHome writes a home of about n MiB of transcript lines like the
// client's (prompts, replies, tool results), with one planted string.
func benchHome(b *testing.B, n int) (string, int64) {
	b.Helper()
	dir := b.TempDir()
	words := strings.Fields("index prompt remove table release parser schema migration file cache method function field module model the of to review worker")
	var size int64
	for f := range 8 {
		var sb strings.Builder
		for i := 0; sb.Len() < n<<20/8; i++ {
			var text strings.Builder
			for j := range 60 {
				text.WriteString(words[(i*7+j*3+f)%len(words)])
				text.WriteByte(' ')
			}
			if f == 3 && i == 500 {
				text.WriteString("plantedNeedle")
			}
			fmt.Fprintf(&sb, `{"parentUuid":"p%d","isSidechain":false,"message":{"role":"assistant","content":[{"type":"text","text":%q}]},"type":"assistant","uuid":"u%d","timestamp":"2026-11-20T10:00:00.000Z"}`+"\n", i, text.String(), i)
		}
		p := filepath.Join(dir, "projects", "-work-app", fmt.Sprintf("%08d-0000-4000-8000-000000000000.jsonl", f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(sb.String()), 0o644); err != nil {
			b.Fatal(err)
		}
		size += int64(sb.Len())
	}
	return dir, size
}

func benchSearch(b *testing.B, query string, qo QueryOptions, want int) {
	dir, size := benchHome(b, 64)
	q, err := Compile(query, qo)
	if err != nil {
		b.Fatal(err)
	}
	o := Options{Home: model.DirFS(dir), HomeDir: dir, Query: q, Stores: []Store{StoreTranscripts}}
	b.SetBytes(size)
	b.ResetTimer()
	for range b.N {
		sum, err := Run(context.Background(), o, func(Batch) error { return nil })
		if err != nil || sum.Hits != want {
			b.Fatalf("%d hits, %v; want %d", sum.Hits, err, want)
		}
	}
}

func BenchmarkLiteralAnyCase(b *testing.B) { benchSearch(b, "plantedneedle", QueryOptions{}, 1) }
func BenchmarkLiteralCase(b *testing.B)    { benchSearch(b, "plantedNeedle", QueryOptions{Case: true}, 1) }
func BenchmarkRegexLiteral(b *testing.B) {
	benchSearch(b, `planted(Needle|Pin)\b`, QueryOptions{Regex: true}, 1)
}
func BenchmarkRegexNoLiteral(b *testing.B) {
	benchSearch(b, `[pq]lanted[NM]eedle`, QueryOptions{Regex: true}, 1)
}

// BenchmarkHomeTranscripts searches the transcripts of the home
// MEMSCOPE_BENCH_HOME (W: scripts/memscope-gen) for MEMSCOPE_BENCH_QUERY
// (default "deadlock"), any case and with case, and for the regular
// expression MEMSCOPE_BENCH_REGEX (default dead(lock|line)s?), for
// profiling the scan on real sizes. cpu-s/op is the process's CPU time
// a run (both cores), which a busy machine disturbs less than the wall
// time.
func BenchmarkHomeTranscripts(b *testing.B) {
	dir := os.Getenv("MEMSCOPE_BENCH_HOME")
	if dir == "" {
		b.Skip("MEMSCOPE_BENCH_HOME is not set (a home made by scripts/memscope-gen)")
	}
	query := os.Getenv("MEMSCOPE_BENCH_QUERY")
	if query == "" {
		query = "deadlock"
	}
	regex := os.Getenv("MEMSCOPE_BENCH_REGEX")
	if regex == "" {
		regex = `dead(lock|line)s?`
	}
	for _, c := range []struct {
		name string
		q    string
		o    QueryOptions
	}{{"any-case", query, QueryOptions{}}, {"case", query, QueryOptions{Case: true}}, {"regex", regex, QueryOptions{Regex: true}}} {
		b.Run(c.name, func(b *testing.B) {
			q, err := Compile(c.q, c.o)
			if err != nil {
				b.Fatal(err)
			}
			o := Options{Home: model.DirFS(dir), HomeDir: dir, Query: q, Stores: []Store{StoreTranscripts}}
			cpu := processCPU()
			for range b.N {
				sum, err := Run(context.Background(), o, func(Batch) error { return nil })
				if err != nil {
					b.Fatal(err)
				}
				b.SetBytes(sum.Bytes)
			}
			// The CPU a run takes, the figure to read on a busy machine.
			b.ReportMetric((processCPU()-cpu)/float64(b.N), "cpu-s/op")
		})
	}
}

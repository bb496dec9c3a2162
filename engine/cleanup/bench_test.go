package cleanup

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memscope/memscope/model"
)

// benchRetentionHome writes a home with 200 sessions (transcript, two
// subagents, a tool result), 2000 pastes, 200 file-history folders and
// 20 000 history lines, with mtimes spread over 60 days.
func benchRetentionHome(b *testing.B) *model.Home {
	b.Helper()
	dir := b.TempDir()
	write := func(rel, body string, age time.Duration) {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		os.MkdirAll(filepath.Dir(p), 0o700)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			b.Fatal(err)
		}
		mt := retNow.Add(-age)
		os.Chtimes(p, mt, mt)
	}
	age := func(i int) time.Duration { return time.Duration(i%60)*day + time.Duration(i)*time.Minute }
	transcript := strings.Repeat(`{"type":"user","message":{"role":"user","content":"hello"}}`+"\n", 200)
	for i := 0; i < 200; i++ {
		s := fmt.Sprintf("%08d-0000-4000-8000-000000000000", i)
		proj := fmt.Sprintf("projects/-home-me-p%d", i%10)
		write(proj+"/"+s+".jsonl", transcript, age(i))
		write(proj+"/"+s+"/subagents/agent-a.jsonl", transcript[:2000], age(i))
		write(proj+"/"+s+"/subagents/agent-b.jsonl", transcript[:2000], age(i))
		write(proj+"/"+s+"/tool-results/t.txt", strings.Repeat("r", 5000), age(i))
		write("file-history/"+s+"/0123456789abcdef@v1", "v1", age(i))
	}
	var hist strings.Builder
	for i := 0; i < 20000; i++ {
		h := fmt.Sprintf("%016x", i%2500)
		if i < 2000 {
			write("paste-cache/"+h+".txt", strings.Repeat("p", 2000), age(i))
		}
		hist.WriteString(historyLine("prompt", hashed("1", h)))
	}
	write("history.jsonl", hist.String(), 0)
	h, err := model.OpenHome(dir, model.HomeFromFlag)
	if err != nil {
		b.Fatal(err)
	}
	return h
}

func BenchmarkForecastRetention(b *testing.B) {
	h := benchRetentionHome(b)
	b.ResetTimer()
	for b.Loop() {
		f := BuildForecast(Options{Home: h, Settings: period(30), Now: retNow})
		if len(f.Items) != 200*4+2000+200 {
			b.Fatalf("%d items", len(f.Items))
		}
	}
}

func BenchmarkArchiveTarGz(b *testing.B) {
	h := benchRetentionHome(b)
	f := BuildForecast(Options{Home: h, Settings: period(30), Now: retNow})
	items, _ := f.ArchiveSelection(0)
	out := b.TempDir()
	n := 0
	b.ResetTimer()
	for b.Loop() {
		n++
		rep, err := Archive(ArchiveOptions{Home: h, Items: items, To: filepath.Join(out, fmt.Sprintf("a%d.tar.gz", n))})
		if err != nil || rep.Verified != len(rep.Files) {
			b.Fatal(err)
		}
	}
}

// BenchmarkForecastHome forecasts the home MEMSCOPE_BENCH_HOME (W:
// scripts/gen), for profiling the forecast at real sizes.
func BenchmarkForecastHome(b *testing.B) {
	dir := os.Getenv("MEMSCOPE_BENCH_HOME")
	if dir == "" {
		b.Skip("MEMSCOPE_BENCH_HOME is not set (a home made by scripts/gen)")
	}
	h, err := model.OpenHome(dir, model.HomeFromFlag)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		f := BuildForecast(Options{Home: h, Settings: period(30), Now: time.Now()})
		if len(f.Items) == 0 {
			b.Fatal("no items")
		}
	}
}

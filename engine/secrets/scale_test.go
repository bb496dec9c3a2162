package secrets

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memscope/memscope/internal/secretgen"
	"github.com/memscope/memscope/model"
)

const scaleAlnum = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// bigHome writes a home of files transcripts holding perFile secrets
// each (one GitHub token per line, every one different), every file an
// hour old.
func bigHome(tb testing.TB, files, perFile int) *model.Home {
	tb.Helper()
	dir := filepath.Join(tb.TempDir(), "claude")
	proj := filepath.Join(dir, "projects", "-home-me-big")
	if err := os.MkdirAll(proj, 0o700); err != nil {
		tb.Fatal(err)
	}
	old := now.Add(-time.Hour)
	for f := range files {
		sid := fmt.Sprintf("5e55c0de-0000-4000-8000-%012d", f)
		p := filepath.Join(proj, sid+".jsonl")
		out, err := os.Create(p)
		if err != nil {
			tb.Fatal(err)
		}
		w := bufio.NewWriterSize(out, 1<<20)
		for i := range perFile {
			tok := "ghp_" + secretgen.Token(uint64(f*perFile+i+1), scaleAlnum, 36)
			fmt.Fprintf(w, `{"type":"user","uuid":"u-%d","sessionId":%q,"message":{"role":"user","content":"the token is %s, keep it"}}`+"\n", i, sid, tok)
		}
		if err := w.Flush(); err != nil {
			tb.Fatal(err)
		}
		out.Close()
		os.Chtimes(p, old, old)
	}
	h, err := model.OpenHome(dir, model.HomeFromFlag)
	if err != nil {
		tb.Fatal(err)
	}
	return h
}

// BenchmarkPlanScrub plans the scrub of one transcript holding n secrets
// (the scan included): linear in n (docs/SECRETS-SCRUB.md has figures).
func BenchmarkPlanScrub(b *testing.B) {
	for _, n := range []int{10_000, 100_000, 1_000_000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			h := bigHome(b, 1, n)
			o := Options{Home: h, Workers: 1}
			busy := BusyOptions{Now: now}
			b.ResetTimer()
			for range b.N {
				r := Scan(o)
				p := PlanScrub(o, r, nil, busy)
				if p.Secrets() != n {
					b.Fatalf("planned %d secrets, want %d", p.Secrets(), n)
				}
			}
		})
	}
}

// A plan's diff shows at most maxDiffLines lines and says how many more
// there are: a plan is held and shown whole, and a transcript may hold a
// million secrets. Every secret is still planned.
func TestPlanDiffBounded(t *testing.T) {
	t.Parallel()
	n := maxDiffLines + 5
	h := bigHome(t, 1, n)
	o := Options{Home: h}
	p := PlanScrub(o, Scan(o), nil, BusyOptions{Now: now})
	if len(p.Files) != 1 || p.Secrets() != n {
		t.Fatalf("planned %d secrets in %d files, want %d in 1", p.Secrets(), len(p.Files), n)
	}
	d := p.Files[0].Diff
	if got := strings.Count(d, "\n@@ line "); got != maxDiffLines || !strings.HasPrefix(strings.SplitN(d, "\n", 3)[2], "@@ line 1 @@") {
		t.Errorf("the diff shows %d lines, want %d", got, maxDiffLines)
	}
	if !strings.HasSuffix(d, "@@ and 5 more lines @@\n") {
		t.Errorf("the diff ends %q", d[max(0, len(d)-80):])
	}
}

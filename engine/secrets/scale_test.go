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
	"github.com/memscope/memscope/internal/testenv"
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

// A scrub of 520 000 secrets over 52 files (MEMSCOPE_LONG=1; 4 000 over
// 8 otherwise) writes a copy memscope reads back: it is listed with every
// secret, restored byte for byte, and forgotten. Long, the copy is more
// than the 64 MiB a manifest read as one value was bounded by; by
// default a manifest line is bounded to 4 KiB, far less than the copy,
// so the read is shown to be bounded by line, not by file.
func TestBigScrubRestoresAndForgets(t *testing.T) {
	files, per := 52, 10_000
	if !testenv.Long() {
		files, per = 8, 500
		old := manifestLineMax
		manifestLineMax = 4 << 10
		t.Cleanup(func() { manifestLineMax = old })
		t.Logf("%d secrets instead of 520 000 (%s=1 runs the full size)", files*per, testenv.Var)
	}
	h := bigHome(t, files, per)
	before := snapshot(t, h.Dir)
	o := Options{Home: h}
	busy := BusyOptions{Now: now}
	p := PlanScrub(o, Scan(o), nil, busy)
	if p.Secrets() != files*per {
		t.Fatalf("planned %d secrets, want %d", p.Secrets(), files*per)
	}
	res, err := Apply(ApplyOptions{Home: h, Busy: busy, Now: now}, p)
	if err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(filepath.Join(res.Copy, manifestName))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d secrets: manifest %d bytes", res.Secrets, st.Size())
	past := 10 * int64(manifestLineMax)
	if testenv.Long() {
		past = model.MaxJournalBytes
	}
	if st.Size() <= past {
		t.Fatalf("the manifest (%d bytes) is not past the bound it must be read past", st.Size())
	}
	cs, probs := Copies(h)
	if len(probs) > 0 || len(cs) != 1 || cs[0].Secrets != files*per || len(cs[0].Files) != files {
		t.Fatalf("listed %+v %v, want one copy of %d secrets in %d files", cs, probs, files*per, files)
	}
	// Kept aside to forget after the restore.
	aside := filepath.Join(t.TempDir(), "copy")
	if err := os.CopyFS(aside, os.DirFS(res.Copy)); err != nil {
		t.Fatal(err)
	}
	if _, err := Restore(ApplyOptions{Home: h, Now: now}, res.ID); err != nil {
		t.Fatal(err)
	}
	sameState(t, "restored", snapshot(t, h.Dir), before)
	if err := os.CopyFS(res.Copy, os.DirFS(aside)); err != nil {
		t.Fatal(err)
	}
	c, err := Forget(ApplyOptions{Home: h, Now: now}, res.ID)
	if err != nil {
		t.Fatal(err)
	}
	if c.Secrets != files*per {
		t.Errorf("forgot %d secrets, want %d", c.Secrets, files*per)
	}
	if _, err := os.Stat(res.Copy); !os.IsNotExist(err) {
		t.Errorf("the copy is still there: %v", err)
	}
}

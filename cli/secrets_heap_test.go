package cli

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/memscope/memscope/internal/secretgen"
	"github.com/memscope/memscope/internal/testenv"
)

// countingWriter counts the occurrences of one string in what is written
// through it, holding nothing but a few bytes across writes.
type countingWriter struct {
	want  []byte
	carry []byte
	n     int
	bytes int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	c.bytes += int64(len(p))
	buf := append(c.carry, p...)
	c.n += bytes.Count(buf, c.want)
	keep := min(len(buf), len(c.want)-1)
	c.carry = append(c.carry[:0], buf[len(buf)-keep:]...)
	return len(p), nil
}

// secretsTranscript writes a home of one transcript holding n different
// GitHub tokens, one per line, and returns the transcript's size.
func secretsTranscript(t *testing.T, n int) (string, int64) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "claude")
	proj := filepath.Join(dir, "projects", "-home-me-big")
	if err := os.MkdirAll(proj, 0o700); err != nil {
		t.Fatal(err)
	}
	sid := "5e55c0de-0000-4000-8000-000000000001"
	p := filepath.Join(proj, sid+".jsonl")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	const alnum = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	for i := range n {
		fmt.Fprintf(w, `{"type":"user","uuid":"u-%d","timestamp":"2026-11-20T10:00:00.000Z","sessionId":%q,"message":{"role":"user","content":"the token is ghp_%s, keep it"}}`+"\n",
			i, sid, secretgen.Token(uint64(i+1), alnum, 36))
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	// Old enough that a scrub takes it (it leaves alone what changed in
	// the last minutes, by the test's clock).
	old := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	if err := os.Chtimes(p, old, old); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	return dir, st.Size()
}

// Issue 27 item 4: `secrets --json` on a transcript holding 200 000
// different secrets (50 000 unless MEMSCOPE_LONG=1) grows the heap by at
// most three times the file: the findings go to the output as the scan
// hands them over, not held (the old scan held each, about 3 KB apiece
// with the output it built in memory: 122 MB for an 8.5 MB file). So do
// the scrub's plan (`--scrub --json`: its edits are held compact, 40
// bytes and the excerpt each; they were Edit values of about 170 bytes,
// grouped again by line for the diff: 35-48 MB for the 8.5 MB file) and
// the scrub itself (`--scrub --yes --json`, last: it writes the home),
// which holds the file once and streams what it writes (the scrubbed
// copy, the saved secrets, the check of every changed line); it held up
// to four copies of the file and every replaced secret: 416 MB RSS for
// a 44.9 MB file. Every finding and every edit is still printed, and the
// scrubbed file holds no token.
//
// The default size still fails the old code: with 20 000 secrets (a 4.3
// MB file, a 13.4 MB bound) the heap grew 53-75 MB for each command
// before the scan streamed (dd9b750^), and 20.8 MB for the plan and
// 35.1 MB for the scrub before they were held compact (75e0274^); it
// grows 5.6-8.6 MB now. 50 000 (a 10.7 MB file, a 32 MB bound; it grows
// 11-12 MB) leaves room for the garbage a busy machine's collector lets
// pile up: at 25 000 (a 16 MB bound, 7-9 MB grown) the test went over
// at load 10-29 in 3 of 5 runs of the whole suite.
func TestSecretsScanHeapBoundedByFile(t *testing.T) {
	n := testenv.Size(t, 200_000, 50_000)
	home, size := secretsTranscript(t, n)
	for _, args := range [][]string{
		{"secrets", "--home", home, "--json"},
		{"secrets", "--home", home, "--scrub", "--idle", "0", "--json"},
		{"secrets", "--home", home, "--scrub", "--idle", "0", "--yes", "--json"},
	} {
		e, _, errb := testEnv(t)
		cw := &countingWriter{want: []byte(`"rule": "github-pat"`)}
		e.stdout = cw
		code := -1
		grew := testenv.PeakHeap(func() { code = run(e, args) })
		t.Logf("%v: %d findings, %d bytes out, heap grew %.1f MB for a %.1f MB file", args[3:], cw.n, cw.bytes, float64(grew)/(1<<20), float64(size)/(1<<20))
		if code != 0 && code != 1 {
			t.Fatalf("%v: exit %d: %s", args, code, errb)
		}
		if cw.n != n {
			t.Errorf("%v: printed %d findings, want %d", args[3:], cw.n, n)
		}
		if limit := 3 * uint64(size); grew > limit {
			t.Errorf("%v: the heap grew by %d bytes, more than three times the file (%d)", args[3:], grew, limit)
		}
	}
	data, err := os.ReadFile(filepath.Join(home, "projects", "-home-me-big", "5e55c0de-0000-4000-8000-000000000001.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := bytes.Count(data, []byte("[REDACTED:github-pat]")), n; got != want || bytes.Contains(data, []byte("ghp_")) {
		t.Errorf("the scrubbed transcript holds %d markers (want %d); a token left: %v", got, want, bytes.Contains(data, []byte("ghp_")))
	}
}

package cli

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

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
	st, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	return dir, st.Size()
}

// Issue 27 item 4: `secrets --json` on a transcript holding 200 000
// different secrets (40 000 unless MEMSCOPE_LONG=1) grows the heap by at
// most three times the file: the findings go to the output as the scan
// hands them over, not held (the old scan held each, about 3 KB apiece
// with the output it built in memory: 122 MB for an 8.5 MB file).
// `secrets --scrub --json` holds the plan's edits (about 150 bytes each
// live, twice that with the collector's headroom, which a loaded machine
// stretches: 35-48 MB measured), so it may use 1 000 bytes per secret
// more; the old one used 128 MB. Every finding and every edit is still
// printed.
func TestSecretsScanHeapBoundedByFile(t *testing.T) {
	n := testenv.Size(t, 200_000, 40_000)
	home, size := secretsTranscript(t, n)
	for _, c := range []struct {
		args    []string
		perEdit uint64
	}{
		{[]string{"secrets", "--home", home, "--json"}, 0},
		{[]string{"secrets", "--home", home, "--scrub", "--idle", "0", "--json"}, 1000},
	} {
		args := c.args
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
		if limit := 3*uint64(size) + c.perEdit*uint64(n); grew > limit {
			t.Errorf("%v: the heap grew by %d bytes, more than three times the file and %d bytes per secret (%d)", args[3:], grew, c.perEdit, limit)
		}
	}
}

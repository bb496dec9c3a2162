package vault

import (
	"bytes"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
)

// countingReader counts the reads that returned bytes.
type countingReader struct {
	r     io.Reader
	reads int
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	if n > 0 {
		c.reads++
	}
	return n, err
}

// cutLines is a file of n bytes of JSON lines of varied lengths.
func cutLines(n int, seed uint64) []byte {
	r := rand.New(rand.NewPCG(seed, 1))
	var b []byte
	for i := 0; len(b) < n; i++ {
		b = append(b, line(sidA, i, 200+r.IntN(4000))...)
	}
	return b
}

// A file is read in reads of more than a chunk's bound: the cutter reads
// into its own buffer, where chunks are cut in place, not through a
// bufio.Reader of maxChunk bytes whose lines were copied into the chunk
// (an 8 MiB file took 9 reads of at most 1 MiB, now 3).
func TestCutReadsInLargeReads(t *testing.T) {
	data := cutLines(8<<20, 1)
	c := cutter{prefixAt: -1, store: func(key, []byte) (bool, error) { return true, nil }}
	c.norm.enabled = true
	cr := &countingReader{r: bytes.NewReader(data)}
	res, err := c.cut(cr, 0, int64(len(data)), true)
	if err != nil || res.size != int64(len(data)) {
		t.Fatalf("cut: %d of %d bytes, %v", res.size, len(data), err)
	}
	t.Logf("%d MiB in %d reads", len(data)>>20, cr.reads)
	if max := 5; cr.reads > max {
		t.Errorf("%d MiB read in %d reads, want at most %d", len(data)>>20, cr.reads, max)
	}
}

// The chunks do not depend on how the reads split the file: lines
// longer than a chunk (cut in pieces of maxChunk), a line of exactly
// maxChunk bytes, and a last line without its newline (left unread when
// only complete lines are wanted, a piece otherwise), read whole, a
// byte at a time and in halves.
func TestCutDoesNotDependOnReads(t *testing.T) {
	long := strings.Repeat("x", 2*maxChunk+maxChunk/2) + "\n"
	exact := strings.Repeat("y", maxChunk-1) + "\n"
	data := slices.Concat(cutLines(300<<10, 2), []byte(long), cutLines(50<<10, 3), []byte(exact),
		cutLines(700<<10, 4), []byte(strings.Repeat("z", maxChunk+7)+"\n"), []byte(`{"tail":"no newline"}`))
	for _, complete := range []bool{true, false} {
		var want cutResult
		for i, wrap := range []func(io.Reader) io.Reader{
			func(r io.Reader) io.Reader { return r }, iotest.OneByteReader, iotest.HalfReader, iotest.DataErrReader,
		} {
			c := cutter{prefixAt: 1 << 20, store: func(key, []byte) (bool, error) { return true, nil }}
			c.norm.enabled = true
			res, err := c.cut(wrap(bytes.NewReader(data)), 0, int64(len(data)), complete)
			if err != nil {
				t.Fatal(err)
			}
			if wantSize := int64(len(data)); complete && res.size != wantSize-int64(len(`{"tail":"no newline"}`)) || !complete && res.size != wantSize {
				t.Fatalf("complete %v: %d bytes cut of %d", complete, res.size, wantSize)
			}
			var n int64
			for _, ch := range res.chunks {
				if ch.N > maxChunk {
					t.Fatalf("a chunk of %d bytes", ch.N)
				}
				n += ch.N
			}
			if n != res.size {
				t.Fatalf("chunks hold %d bytes of %d", n, res.size)
			}
			if i == 0 {
				want = res
				continue
			}
			if !sameChunks(res.chunks, want.chunks) || res.prefixPart.H != want.prefixPart.H || res.lastStart != want.lastStart {
				t.Errorf("complete %v, reader %d: other chunks than one read", complete, i)
			}
		}
	}
}

package model_test

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/memscope/memscope/model"
)

// zeros is an endless run of NUL bytes with no newline, n bytes long.
type zeros struct{ n int64 }

func (z *zeros) Read(p []byte) (int, error) {
	if z.n <= 0 {
		return 0, io.EOF
	}
	k := min(int64(len(p)), z.n)
	clear(p[:k])
	z.n -= k
	return int(k), nil
}

// A line longer than the limit comes back without its bytes, with its
// number and size, and the lines around it are read as usual; the
// reader's buffer stays near the limit whatever the line's length.
func TestLineReaderTooLong(t *testing.T) {
	const limit = 1 << 20
	long := strings.Repeat("x", 5<<20)
	in := "first\n" + long + "\r\nthird\n" + long
	lr := model.NewLineReader(strings.NewReader(in))
	lr.MaxLine = limit
	var got []model.Line
	for {
		l, ok := lr.Next()
		if !ok {
			break
		}
		l.Bytes = bytes.Clone(l.Bytes)
		got = append(got, l)
	}
	if len(got) != 4 {
		t.Fatalf("%d lines, want 4", len(got))
	}
	if string(got[0].Bytes) != "first" || string(got[2].Bytes) != "third" || got[2].Number != 3 || got[2].Offset != int64(6+len(long)+2) {
		t.Errorf("lines around the long one: %+v / %+v", got[0], got[2])
	}
	for _, i := range []int{1, 3} {
		l := got[i]
		if !l.TooLong || len(l.Bytes) != 0 || l.Number != i+1 {
			t.Errorf("line %d: too long %v, %d bytes kept", i+1, l.TooLong, len(l.Bytes))
		}
		if p := l.TooLongProblem("f.jsonl"); p.Kind != model.ProblemTooLarge || p.Line != i+1 || !strings.Contains(p.Reason, "5.0 MiB") || !strings.Contains(p.Reason, "1.0 MiB") {
			t.Errorf("line %d: problem %+v", i+1, p)
		}
	}
	if got[1].Terminated != true || got[3].Terminated != false {
		t.Errorf("terminated: %v %v", got[1].Terminated, got[3].Terminated)
	}
	// A line exactly at the limit is kept.
	lr = model.NewLineReader(strings.NewReader(long[:limit] + "\n"))
	lr.MaxLine = limit
	if l, _ := lr.Next(); l.TooLong || len(l.Bytes) != limit {
		t.Errorf("a line at the limit: too long %v, %d bytes", l.TooLong, len(l.Bytes))
	}
}

// A 64 MiB line of NUL bytes is skipped with little memory: what is
// allocated stays near the limit, not the line.
func TestLineReaderNULLineMemory(t *testing.T) {
	n := int64(64 << 20)
	var got model.Line
	bytesAlloc := testing.Benchmark(func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			lr := model.NewLineReader(&zeros{n: n})
			lr.MaxLine = 1 << 20
			got, _ = lr.Next()
		}
	}).AllocedBytesPerOp()
	if !got.TooLong || got.Size != n {
		t.Fatalf("got %+v", got)
	}
	if bytesAlloc > 8<<20 {
		t.Errorf("reading a %d MiB line allocated %d MiB", n>>20, bytesAlloc>>20)
	}
}

//go:build linux

package model

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// smallWindows makes MappedLines map windows of 512 KiB (the least that
// holds a LineReader buffer's line and a page) and files of any size,
// for the test.
func smallWindows(t *testing.T) {
	w, m := mapWindow, mapMin
	mapWindow, mapMin = 512<<10, 1
	t.Cleanup(func() { mapWindow, mapMin = w, m })
}

// mappedCorpus is lines of random lengths: short, a few KiB, longer
// than a LineReader's buffer, than a window, than maxLine; "\r\n"
// endings, "\r" inside, empty lines.
func mappedCorpus(r *rand.Rand, n int) []byte {
	var b bytes.Buffer
	for range n {
		var size int
		switch k := r.IntN(100); {
		case k < 70:
			size = r.IntN(300)
		case k < 90:
			size = r.IntN(20 << 10)
		case k < 95:
			size = lineReaderBufSize - 2 + r.IntN(5) // around the buffer
		case k < 98:
			size = lineReaderBufSize + r.IntN(300<<10)
		default:
			size = 512<<10 + r.IntN(600<<10) // longer than a window
		}
		line := make([]byte, size)
		for i := range line {
			line[i] = 'a' + byte(r.IntN(26))
			if r.IntN(5000) == 0 {
				line[i] = '\r'
			}
		}
		b.Write(line)
		if r.IntN(10) == 0 {
			b.WriteByte('\r')
		}
		b.WriteByte('\n')
	}
	return b.Bytes()
}

type readLine struct {
	Line
	Bytes string
}

// linesOf reads every line of next, copied.
func linesOf(next func() (Line, bool)) []readLine {
	var out []readLine
	for {
		l, ok := next()
		if !ok {
			return out
		}
		b := string(l.Bytes)
		l.Bytes = nil
		out = append(out, readLine{Line: l, Bytes: b})
	}
}

// mapFile writes data to a file of dir and opens it as a home's file.
func mapFile(t *testing.T, data []byte) (*os.File, string) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "t.jsonl"), data, 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := OpenRegular(DirFS(dir), "t.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	of, _ := osFile(f)
	return of, filepath.Join(dir, "t.jsonl")
}

// TestMappedLinesEqualLineReader: the mapped reader's lines are a
// LineReader's over the same bytes, whatever the lengths, the limit,
// the byte order mark and the last line.
func TestMappedLinesEqualLineReader(t *testing.T) {
	smallWindows(t)
	r := rand.New(rand.NewPCG(28, 3))
	for i := range 24 {
		data := mappedCorpus(r, 10+r.IntN(60))
		if i%3 == 0 {
			data = append(append([]byte{}, utf8BOM...), data...)
		}
		if i%4 == 1 {
			data = append(data, "no newline at the end"...)
		}
		if i%4 == 2 {
			data = append(data, bytes.Repeat([]byte("x"), 700<<10)...) // a long last line, unterminated
		}
		maxLine := 0
		switch i % 3 {
		case 1:
			maxLine = 300 << 10 // long lines past it are TooLong
		case 2:
			maxLine = 1000 // shorter than the buffer: kept whole, as a LineReader does
		}
		want := NewLineReader(bytes.NewReader(data))
		want.MaxLine = maxLine
		wl := linesOf(want.Next)

		f, _ := mapFile(t, data)
		tail := NewLineReader(f)
		tail.MaxLine = maxLine
		m := MapLines(f, tail)
		if m == nil {
			t.Fatal("MapLines: nil for a regular file")
		}
		gl := linesOf(m.Next)
		m.Close()
		if m.Err() != nil {
			t.Fatalf("corpus %d: %v", i, m.Err())
		}
		if m.N() != int64(len(data)) {
			t.Errorf("corpus %d: N %d, want %d", i, m.N(), len(data))
		}
		if len(gl) != len(wl) {
			t.Fatalf("corpus %d: %d lines, want %d", i, len(gl), len(wl))
		}
		for j := range wl {
			if !reflect.DeepEqual(gl[j], wl[j]) {
				g, w := gl[j], wl[j]
				g.Bytes, w.Bytes = g.Bytes[:min(40, len(g.Bytes))], w.Bytes[:min(40, len(w.Bytes))]
				t.Fatalf("corpus %d line %d:\n got %+v\nwant %+v", i, j, g, w)
			}
		}
	}
}

// TestMappedLinesAppended: bytes appended after the open (the last line
// finished, new lines) are read on, as a LineReader over the file reads
// them.
func TestMappedLinesAppended(t *testing.T) {
	smallWindows(t)
	data := append(mappedCorpus(rand.New(rand.NewPCG(1, 2)), 40), `{"partial":`...)
	f, path := mapFile(t, data)
	m := MapLines(f, NewLineReader(f))
	defer m.Close()
	more := []byte("1}\n{\"next\":2}\n")
	a, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	l, _ := m.Next()
	first := readLine{Line: l, Bytes: string(l.Bytes)}
	first.Line.Bytes = nil
	if _, err := a.Write(more); err != nil {
		t.Fatal(err)
	}
	a.Close()
	all := append(append([]byte{}, data...), more...)
	wl := linesOf(NewLineReader(bytes.NewReader(all)).Next)
	gl := append([]readLine{first}, linesOf(m.Next)...)
	if !reflect.DeepEqual(gl, wl) {
		t.Fatalf("%d lines, want %d; last %+v, want %+v", len(gl), len(wl), gl[len(gl)-1], wl[len(wl)-1])
	}
	if m.Err() != nil || m.N() != int64(len(all)) {
		t.Fatalf("N %d err %v, want %d and nil", m.N(), m.Err(), len(all))
	}
}

// TestMappedLinesTruncated: a file cut short while it is mapped ends
// with an error of the file, not a crash (SIGBUS).
func TestMappedLinesTruncated(t *testing.T) {
	smallWindows(t)
	line := append(bytes.Repeat([]byte("y"), 999), '\n')
	data := bytes.Repeat(line, 3000) // 3 MB: six windows
	f, path := mapFile(t, data)
	m := MapLines(f, NewLineReader(f))
	var err error
	lines := 0
	func() {
		defer func() {
			if v := recover(); v != nil {
				if err = m.Fault(v); err == nil {
					panic(v)
				}
			}
		}()
		for {
			l, ok := m.Next()
			if !ok {
				break
			}
			lines++
			if lines == 1200 { // in the third window
				if err := os.Truncate(path, 4096); err != nil {
					t.Fatal(err)
				}
			}
			_ = bytes.Count(l.Bytes, []byte("y")) // touches the mapping
		}
	}()
	m.Close()
	if err == nil {
		err = m.Err()
	}
	if !errors.Is(err, errTruncated) {
		t.Fatalf("after %d lines: error %v, want one that says the file was truncated", lines, err)
	}
	if lines < 1200 || lines > 1300 {
		t.Errorf("%d lines read", lines)
	}
	if m.N() > int64(len(data)) {
		t.Errorf("N %d", m.N())
	}
}

// TestMapLinesSmall: a file below a window's minimum is read.
func TestMapLinesSmall(t *testing.T) {
	f, _ := mapFile(t, []byte("{}\n"))
	if m := MapLines(f, NewLineReader(f)); m != nil {
		m.Close()
		t.Fatal("a 3-byte file mapped")
	}
}

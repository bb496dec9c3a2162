package model

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
)

// lineReaderBufSize is the read buffer. Lines longer than this are
// assembled in a separate growable buffer, so any line length works
// (bufio.Scanner's 64 KiB token limit is the trap this avoids).
const lineReaderBufSize = 256 << 10

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// LineReader reads lines of any length from r. It strips a UTF-8 byte
// order mark at the start of the input and a trailing "\r" before "\n".
// It tells whether the last line ended with a newline, so callers can tell
// a writer's partial append from a corrupt line.
//
// A line longer than MaxLine (MaxLineBytes unless set) is not kept: its
// bytes past the first MaxLine are read and dropped, and it comes back
// with TooLong set, its Size and no Bytes, so memory stays bounded
// whatever the input (a power loss can leave a gigabyte of NUL bytes
// without a newline). The caller reports it and goes on.
type LineReader struct {
	r     *bufio.Reader
	long  []byte
	n     int
	err   error
	first bool
	off   int64
	// MaxLine is the longest line kept, in bytes; 0 is MaxLineBytes.
	MaxLine int
}

// NewLineReader returns a LineReader over r.
func NewLineReader(r io.Reader) *LineReader {
	return &LineReader{r: bufio.NewReaderSize(r, lineReaderBufSize), first: true}
}

// Reset makes lr read r as a new input (line numbers, offsets and the
// BOM check start over), keeping its buffers, so a reader of many files
// allocates them once.
func (lr *LineReader) Reset(r io.Reader) {
	lr.r.Reset(r)
	lr.long = lr.long[:0]
	lr.n, lr.err, lr.first, lr.off = 0, nil, true, 0
}

// Line is one line of input. Bytes is only valid until the next call to Next.
type Line struct {
	Bytes []byte
	// Number is 1-based.
	Number int
	// Offset is the byte offset of the line's start in the input.
	Offset int64
	// Terminated is false for a last line that had no newline.
	Terminated bool
	// TooLong is set when the line was longer than the reader's MaxLine:
	// Bytes is then empty and Size says how long it was.
	TooLong bool
	// Size is the line's length in bytes, newline excluded.
	Size int64
	// limit is the reader's MaxLine, for TooLongProblem.
	limit int
}

// TooLongProblem reports a line that was too long, in file: its number,
// its size and the limit.
func (l Line) TooLongProblem(file string) Problem {
	return Problem{File: file, Line: l.Number, Kind: ProblemTooLarge,
		Reason: fmt.Sprintf("line is %s, more than the %s memscope reads: skipped", sizeText(l.Size), sizeText(int64(l.limit)))}
}

// Limit is the longest line lr keeps.
func (lr *LineReader) Limit() int {
	if lr.MaxLine > 0 {
		return lr.MaxLine
	}
	return MaxLineBytes
}

// Next returns the next line, or false at the end of the input or on a read
// error (see Err).
func (lr *LineReader) Next() (Line, bool) {
	if lr.err != nil {
		return Line{}, false
	}
	start := lr.off
	chunk, err := lr.r.ReadSlice('\n')
	var data []byte
	var size int64
	tooLong := false
	switch {
	case err == bufio.ErrBufferFull:
		limit := lr.Limit()
		lr.long = append(lr.long[:0], chunk...)
		size = int64(len(chunk))
		for err == bufio.ErrBufferFull {
			chunk, err = lr.r.ReadSlice('\n')
			size += int64(len(chunk))
			if !tooLong && len(lr.long)+len(chunk) > limit+2 { // + "\r\n"
				tooLong = true
				lr.long = lr.long[:0]
			}
			if !tooLong {
				lr.long = appendDoubling(lr.long, chunk, limit+2)
			} else if len(chunk) > 0 && chunk[len(chunk)-1] == '\n' {
				// Keep the newline: it says the line was whole.
				lr.long = append(lr.long[:0], '\n')
			}
		}
		data = lr.long
	default:
		data = chunk
		size = int64(len(chunk))
	}
	lr.off += size
	if err != nil && err != io.EOF {
		lr.err = err
		return Line{}, false
	}
	if err == io.EOF {
		lr.err = io.EOF
		if len(data) == 0 && !tooLong {
			return Line{}, false
		}
	}
	terminated := len(data) > 0 && data[len(data)-1] == '\n'
	if terminated {
		data = data[:len(data)-1]
		size--
		if len(data) > 0 && data[len(data)-1] == '\r' {
			data = data[:len(data)-1]
			size--
		}
	}
	if tooLong {
		lr.n++
		lr.first = false
		return Line{Number: lr.n, Offset: start, Terminated: terminated, TooLong: true, Size: size, limit: lr.Limit()}, true
	}
	if lr.first {
		lr.first = false
		data = bytes.TrimPrefix(data, utf8BOM)
	}
	lr.n++
	return Line{Bytes: data, Number: lr.n, Offset: start, Terminated: terminated, Size: int64(len(data))}, true
}

// appendDoubling is append that at least doubles the capacity when it
// grows (never past most, unless needed): append grows large slices by a
// quarter, which allocates about five times a long line's size on the way.
func appendDoubling(b, more []byte, most int) []byte {
	if need := len(b) + len(more); need > cap(b) {
		nb := make([]byte, len(b), max(need, min(2*cap(b), most)))
		copy(nb, b)
		b = nb
	}
	return append(b, more...)
}

// Err returns the first read error other than io.EOF.
func (lr *LineReader) Err() error {
	if lr.err == io.EOF {
		return nil
	}
	return lr.err
}

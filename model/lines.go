package model

import (
	"bufio"
	"bytes"
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
type LineReader struct {
	r     *bufio.Reader
	long  []byte
	n     int
	err   error
	first bool
	off   int64
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
	switch {
	case err == bufio.ErrBufferFull:
		lr.long = append(lr.long[:0], chunk...)
		for err == bufio.ErrBufferFull {
			chunk, err = lr.r.ReadSlice('\n')
			lr.long = append(lr.long, chunk...)
		}
		data = lr.long
	default:
		data = chunk
	}
	lr.off += int64(len(data))
	if err != nil && err != io.EOF {
		lr.err = err
		return Line{}, false
	}
	if err == io.EOF {
		lr.err = io.EOF
		if len(data) == 0 {
			return Line{}, false
		}
	}
	terminated := len(data) > 0 && data[len(data)-1] == '\n'
	if terminated {
		data = data[:len(data)-1]
		if len(data) > 0 && data[len(data)-1] == '\r' {
			data = data[:len(data)-1]
		}
	}
	if lr.first {
		lr.first = false
		data = bytes.TrimPrefix(data, utf8BOM)
	}
	lr.n++
	return Line{Bytes: data, Number: lr.n, Offset: start, Terminated: terminated}, true
}

// Err returns the first read error other than io.EOF.
func (lr *LineReader) Err() error {
	if lr.err == io.EOF {
		return nil
	}
	return lr.err
}

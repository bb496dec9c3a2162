//go:build linux

package model

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"runtime"
	"runtime/debug"
	"unsafe"

	"golang.org/x/sys/unix"
)

// mapWindow is the most of a file MappedLines maps at once, and mapMin
// the smallest file it maps: a smaller one is read (one or two reads
// cost less than a mapping's set-up and tear-down).
var mapWindow, mapMin int64 = 8 << 20, 64 << 10

// mapPopulate and mapAdvice are the mapping's flag and advice.
var (
	mapPopulate = 0
	mapAdvice   = unix.MADV_SEQUENTIAL
)

// errTruncated is the error of a file cut shorter while it was mapped.
var errTruncated = errors.New("file was truncated while it was read")

// MappedLines reads the lines of a regular file through windows of it
// mapped in memory (MAP_SHARED, read only) instead of read(2): the lines
// come back as slices of the mapping, so no byte is copied out of the
// page cache. It gives the very Lines a LineReader over the file gives
// (see LineReader: BOM, "\r\n", MaxLine, numbers, offsets). The file is
// mapped up to the size it had when it was opened; from the start of the
// first line not ended by then (an unterminated last line, bytes a writer
// appended since) the LineReader it was given reads on with read(2), as
// it would have from the start.
//
// A file truncated while it is mapped makes a touch of the lost pages
// fault (SIGBUS): MapLines sets debug.SetPanicOnFault on the calling
// goroutine until Close, so the fault is a panic, and the caller that
// recovers it asks Fault whether it was this file's (then an error of
// this file, like a read error). A Line's Bytes is valid until the next
// call to Next, as a LineReader's, and only on the goroutine that called
// MapLines, until Close.
type MappedLines struct {
	f    io.ReaderAt
	name string
	// control calls fn with the file's descriptor.
	control func(fn func(fd uintptr)) error
	size    int64
	win     []byte
	wOff    int64
	// off is the offset of the next line.
	off   int64
	n     int
	first bool
	err   error
	// tail reads from the first line not ended within size; tailing
	// once it does, from base, counting in cr.
	tail    *LineReader
	tailing bool
	base    int64
	cr      CountingReader
	fault   bool
}

// MapLines returns a MappedLines over f (just opened, nothing read)
// that reads on with tail, or nil when f is not a file of the operating
// system or smaller than a window's minimum: then read it with a
// LineReader.
func MapLines(f fs.File, tail *LineReader) *MappedLines {
	info, err := OpenedInfo(f)
	if err != nil || !info.Mode().IsRegular() || info.Size() < mapMin {
		return nil
	}
	m := &MappedLines{size: info.Size(), first: true, tail: tail}
	if of, ok := osFile(f); ok {
		conn, err := of.SyscallConn()
		if err != nil {
			return nil
		}
		m.f, m.name, m.control = of, of.Name(), conn.Control
	} else if h, ok := f.(*heldFile); ok {
		m.f, m.name = h, h.name
		m.control = func(fn func(fd uintptr)) error {
			fn(uintptr(h.fd))
			runtime.KeepAlive(h)
			return nil
		}
	} else {
		return nil
	}
	m.fault = debug.SetPanicOnFault(true)
	return m
}

// Close unmaps the window and gives the goroutine back its fault
// setting. It does not close the file.
func (m *MappedLines) Close() {
	m.unmap()
	debug.SetPanicOnFault(m.fault)
}

// N is the bytes read: those of the lines read from the mapping, and
// those read after.
func (m *MappedLines) N() int64 {
	if m.tailing {
		return m.base + m.cr.N
	}
	return m.off
}

// Err returns the first error other than the end of the input.
func (m *MappedLines) Err() error {
	if m.tailing {
		return m.tail.Err()
	}
	return m.err
}

// Fault is the error for v, a value recovered from a panic on the
// goroutine reading m, when v is a fault on m's mapping (the file was
// truncated under it), and nil otherwise (re-panic v then).
func (m *MappedLines) Fault(v any) error {
	re, ok := v.(runtime.Error)
	if !ok {
		return nil
	}
	a, ok := re.(interface{ Addr() uintptr })
	if !ok || len(m.win) == 0 {
		return nil
	}
	lo := uintptr(unsafe.Pointer(unsafe.SliceData(m.win)))
	if addr := a.Addr(); addr < lo || addr >= lo+uintptr(len(m.win)) {
		return nil
	}
	m.err = &fs.PathError{Op: "read", Path: m.name, Err: errTruncated}
	m.tailing = false
	return m.err
}

// unmap unmaps the window, if any.
func (m *MappedLines) unmap() {
	if m.win != nil {
		unix.Munmap(m.win)
		m.win = nil
	}
}

// mapAt maps the window that starts at the page holding at.
func (m *MappedLines) mapAt(at int64) error {
	m.unmap()
	off := at &^ int64(unix.Getpagesize()-1)
	n := min(mapWindow, m.size-off)
	var b []byte
	var err error
	if cerr := m.control(func(fd uintptr) {
		b, err = unix.Mmap(int(fd), off, int(n), unix.PROT_READ, unix.MAP_SHARED|mapPopulate)
	}); cerr != nil {
		err = cerr
	}
	if err != nil {
		return &fs.PathError{Op: "mmap", Path: m.name, Err: err}
	}
	if mapAdvice != 0 {
		unix.Madvise(b, mapAdvice)
	}
	m.win, m.wOff = b, off
	return nil
}

// Next returns the next line, or false at the end of the input or on an
// error (see Err).
func (m *MappedLines) Next() (Line, bool) {
	if m.tailing {
		return m.tail.Next()
	}
	if m.err != nil {
		return Line{}, false
	}
	start := m.off
	if start >= m.size {
		return m.toTail(start)
	}
	// A line that fits a LineReader's buffer, newline included, is
	// found in one window that holds its first lineReaderBufSize bytes.
	want := min(start+lineReaderBufSize, m.size)
	if m.win == nil || want > m.wOff+int64(len(m.win)) {
		if err := m.mapAt(start); err != nil {
			m.err = err
			return Line{}, false
		}
	}
	b := m.win[start-m.wOff : want-m.wOff]
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		m.off = start + int64(i) + 1
		return m.line(b[:i], start, int64(i)+1, false)
	}
	if want == m.size {
		return m.toTail(start)
	}
	return m.longLine(start)
}

// longLine reads the line at start, longer than a LineReader's buffer,
// across windows, joined in the LineReader's long-line buffer unless it
// is longer than the limit (then TooLong), as a LineReader does.
func (m *MappedLines) longLine(start int64) (Line, bool) {
	limit := m.tail.Limit()
	long := m.tail.long[:0]
	total, tooLong := int64(0), false
	for pos := start; ; {
		if pos >= m.size {
			m.tail.long = long
			return m.toTail(start)
		}
		if pos >= m.wOff+int64(len(m.win)) {
			if err := m.mapAt(pos); err != nil {
				m.err = err
				return Line{}, false
			}
		}
		seg := m.win[pos-m.wOff:]
		i := bytes.IndexByte(seg, '\n')
		if i >= 0 {
			seg = seg[:i+1]
		}
		total += int64(len(seg))
		if !tooLong && total > int64(limit)+2 { // + "\r\n"
			tooLong = true
			long = long[:0]
		}
		if !tooLong {
			long = appendDoubling(long, seg, limit+2)
		}
		pos += int64(len(seg))
		if i >= 0 {
			m.off = pos
			m.tail.long = long
			if tooLong {
				return m.line(nil, start, total, true)
			}
			return m.line(long[:len(long)-1], start, total, false)
		}
	}
}

// line is the line data (its newline cut) of total bytes at start.
func (m *MappedLines) line(data []byte, start, total int64, tooLong bool) (Line, bool) {
	m.n++
	if tooLong {
		m.first = false
		return Line{Number: m.n, Offset: start, Terminated: true, TooLong: true, Size: total - 1, limit: m.tail.Limit()}, true
	}
	if len(data) > 0 && data[len(data)-1] == '\r' {
		data = data[:len(data)-1]
	}
	if m.first {
		m.first = false
		data = bytes.TrimPrefix(data, utf8BOM)
	}
	return Line{Bytes: data, Number: m.n, Offset: start, Terminated: true, Size: int64(len(data))}, true
}

// toTail hands the file from start on to the LineReader, which reads
// it with read(2) from there, numbering on.
func (m *MappedLines) toTail(start int64) (Line, bool) {
	m.unmap()
	m.tailing, m.base = true, start
	m.cr = CountingReader{R: io.NewSectionReader(m.f, start, 1<<62)}
	lr := m.tail
	long := lr.long
	lr.Reset(&m.cr)
	lr.long = long
	lr.n, lr.first, lr.off = m.n, m.first, start
	return lr.Next()
}

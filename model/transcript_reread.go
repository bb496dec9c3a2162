package model

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
)

// rereadWindow is how much of the file a Rereader reads at once: records
// asked for in file order are served from one read per window.
const rereadWindow = 256 << 10

// Rereader reads records of a transcript again by the offset and size an
// earlier scan found them at, for readers that index a file and keep only
// the positions of its records (engine/timeline's Index). It reads a
// window of the file at a time, so records asked for in file order cost
// one read per window, and holds one window at a time. A line that is no
// longer what the scan read (the file was rewritten since) is an error
// naming the file and line, never a record from another line.
type Rereader struct {
	name string
	f    fs.File
	ra   io.ReaderAt
	dec  *LineDecoder
	buf  []byte
	off  int64 // file offset of buf[0]
}

// OpenRereader opens the transcript at name in fsys for rereading records
// decoded with opts (the options of the scan that found them).
func OpenRereader(fsys fs.FS, name string, opts ScanOptions) (*Rereader, error) {
	f, err := OpenRegular(fsys, name)
	if err != nil {
		return nil, fmt.Errorf("open transcript %s: %w", name, err)
	}
	return &Rereader{name: name, f: f, ra: readerAt(f), dec: NewLineDecoder(name, opts)}, nil
}

// Close closes the file.
func (rr *Rereader) Close() error { return rr.f.Close() }

// ErrLineChanged is wrapped by the error Read returns for a line that is
// no longer the record the scan found there.
var ErrLineChanged = errors.New("the line changed since it was read")

// Read decodes the line of size bytes at offset again, as line number
// line. uuid is the record's uuid as the scan read it: a line that does
// not decode to a record with that uuid, or is no longer followed by a
// newline or the end of the file, is reported as changed.
func (rr *Rereader) Read(line int, offset int64, size int, uuid string) (*Record, error) {
	// The line as LineReader gave it: a first line without its byte
	// order mark, a line without its "\n" or "\r\n".
	b, err := rr.span(offset, size+len(utf8BOM)+2)
	if err != nil {
		return nil, fmt.Errorf("read %s line %d: %w", rr.name, line, err)
	}
	if offset == 0 {
		b = bytes.TrimPrefix(b, utf8BOM)
	}
	end := []byte(nil)
	if len(b) >= size {
		end = b[size:]
	}
	terminated := bytes.HasPrefix(end, []byte("\n")) || bytes.HasPrefix(end, []byte("\r\n"))
	if len(b) < size || !terminated && len(end) > 0 {
		return nil, fmt.Errorf("%s line %d: %w", rr.name, line, ErrLineChanged)
	}
	rec := new(Record)
	_, ok := rr.dec.Decode(Line{Bytes: b[:size], Number: line, Offset: offset, Terminated: terminated, Size: int64(size)}, rec)
	if !ok || rec.UUID != uuid {
		return nil, fmt.Errorf("%s line %d: %w", rr.name, line, ErrLineChanged)
	}
	return rec, nil
}

// span returns up to n bytes at off (fewer at the end of the file), from
// the window when it holds them.
func (rr *Rereader) span(off int64, n int) ([]byte, error) {
	if off >= rr.off && off+int64(n) <= rr.off+int64(len(rr.buf)) {
		return rr.buf[off-rr.off : off-rr.off+int64(n)], nil
	}
	want := max(n, rereadWindow)
	if cap(rr.buf) < want {
		rr.buf = make([]byte, want)
	}
	rr.buf = rr.buf[:want]
	got, err := rr.ra.ReadAt(rr.buf, off)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
		rr.buf = rr.buf[:0]
		return nil, err
	}
	rr.buf, rr.off = rr.buf[:got], off
	return rr.buf[:min(n, got)], nil
}

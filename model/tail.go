package model

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"sync"
	"time"
)

// This file reads append-only JSONL files (transcripts, history.jsonl)
// incrementally: each call reads only the complete lines appended since
// the previous one. The client only ever appends to these files, so a
// file that shrank, was replaced or whose first bytes changed is no
// longer the file the caller built its state from; the reader then says
// so and reads nothing, and the caller starts over from a zero TailState.

// TailHeadMax is how much of a file's head TailState hashes: enough to
// tell two transcripts apart (the first line holds the session id and a
// timestamp) at the cost of one small read per call.
const TailHeadMax = 4096

// FileID identifies a file on disk independently of its name: a file
// renamed over the watched path (a rotation, an atomic rewrite) has
// another. Known is false where the platform or fs.FS gives no inode.
type FileID struct {
	Dev   uint64 `json:"dev"`
	Ino   uint64 `json:"ino"`
	Known bool   `json:"known"`
}

// TailState is where an incremental read of an append-only file stopped.
// The zero value reads the file from its start. It is plain data, so it
// can be kept across runs.
type TailState struct {
	// Offset is just past the last complete line read: the next call
	// reads from here. An unterminated last line (a write in progress)
	// lies beyond it.
	Offset int64 `json:"offset"`
	// Lines counts the lines before Offset, blank ones included, so line
	// numbers continue across calls.
	Lines int `json:"lines"`
	// Size and ModTime are the file's at the last call.
	Size    int64     `json:"size"`
	ModTime time.Time `json:"modTime"`
	ID      FileID    `json:"id"`
	// Head is the SHA-256 of the file's first HeadLen bytes
	// (min(size, TailHeadMax) when last hashed).
	Head    [sha256.Size]byte `json:"head"`
	HeadLen int               `json:"headLen"`
	// Skip is how much past Offset was already read of one line longer
	// than MaxLineBytes whose end (a line break) has not been seen: the
	// next call looks for that end from Offset+Skip and reads none of it
	// again (a multi-GB sparse file, one line of zeros, is read once).
	Skip int64 `json:"skip,omitempty"`
}

// TailWindow is how much of a file TailLinesWithin reads in one call when
// asked to read a window: more than the longest line memscope reads
// (MaxLineBytes), so every line it reads fits in one window.
const TailWindow = 2*MaxLineBytes + 4096

// TailReset says why a file can no longer be read from where TailState
// stopped. The caller must drop what it built from the file and read it
// again from a zero TailState.
type TailReset string

// The reasons for a full re-read.
const (
	// TailReplaced: another file now has the name (its inode changed): a
	// rotation or an atomic rewrite.
	TailReplaced TailReset = "replaced"
	// TailTruncated: the file is shorter than what was already read.
	TailTruncated TailReset = "truncated"
	// TailRewritten: the file's first bytes changed (rewritten in place,
	// or replaced where inodes are not known).
	TailRewritten TailReset = "rewritten"
)

// TailResult is what one incremental read did.
type TailResult struct {
	// State is where the next call starts. After a reset it is the zero
	// state.
	State TailState
	// Reset is set when nothing was read because the file changed under
	// the previous state; see TailReset.
	Reset TailReset
	// Lines counts the complete lines read (blank ones included); Bytes
	// their size with newlines.
	Lines int
	Bytes int64
	// Read is every byte read from the file, head check and the pending
	// line included.
	Read int64
	// Pending is the size of an unterminated last line left for the next
	// call (most likely a write in progress).
	Pending int64
	// Unchanged says everything had been read and the file's size and
	// mtime were those of the previous state, so nothing was read past
	// the head check.
	Unchanged bool
	// More says the call stopped at its window before the file's end:
	// call again to read the rest.
	More bool
}

// TailLines calls fn with each complete line appended to the file name in
// fsys since prev. Line numbers and offsets continue from prev. An
// unterminated last line is left for a later call. When the file was
// replaced, truncated or rewritten (see TailReset) nothing is read and
// Reset says why. A line for which fn returns an error counts as read;
// the error is returned with the state after it.
func TailLines(fsys fs.FS, name string, prev TailState, fn func(Line) error) (TailResult, error) {
	return TailLinesWithin(fsys, name, prev, 0, fn)
}

// TailLinesWithin is TailLines reading at most window bytes (at least
// TailWindow; 0 is no bound) past where prev stopped, so a caller that
// follows several files never waits long behind one that grew by
// gigabytes: More then says there is more to read.
func TailLinesWithin(fsys fs.FS, name string, prev TailState, window int64, fn func(Line) error) (TailResult, error) {
	// Opening a FIFO or a device could block or never end.
	f, err := OpenRegular(fsys, name)
	if err != nil {
		return TailResult{State: prev}, err
	}
	defer f.Close()
	info, err := OpenedInfo(f)
	if err != nil {
		return TailResult{State: prev}, fmt.Errorf("stat %s: %w", name, err)
	}
	res := TailResult{State: prev}
	id, size := FileIDOf(info), info.Size()
	fresh := prev == TailState{}
	switch {
	case fresh:
	case prev.ID.Known && id.Known && prev.ID != id:
		res.Reset = TailReplaced
	case size < prev.Offset || size < prev.Size:
		res.Reset = TailTruncated
	}
	if res.Reset != "" {
		res.State = TailState{}
		return res, nil
	}
	ra := readerAt(f)
	if !fresh && prev.HeadLen > 0 {
		h, n, err := hashHead(ra, prev.HeadLen)
		res.Read += int64(n)
		if err != nil {
			return res, fmt.Errorf("read %s: %w", name, err)
		}
		if h != prev.Head {
			res.State = TailState{}
			res.Reset = TailRewritten
			return res, nil
		}
	}
	st := prev
	st.ID, st.Size, st.ModTime = id, size, info.ModTime()
	// Unchanged, and everything was read: nothing to do. (With a pending
	// line or after a callback stopped early, the rest is read again.)
	if !fresh && size == prev.Size && info.ModTime().Equal(prev.ModTime) && prev.Offset+prev.Skip == size {
		res.State, res.Unchanged, res.Pending = st, true, prev.Skip
		return res, nil
	}
	if want := int(min(size, TailHeadMax)); want > st.HeadLen {
		h, n, err := hashHead(ra, want)
		res.Read += int64(n)
		if err != nil {
			return res, fmt.Errorf("read %s: %w", name, err)
		}
		st.Head, st.HeadLen = h, want
	}
	end := size
	if window > 0 {
		end = min(size, st.Offset+st.Skip+max(window, TailWindow))
	}
	res.More = end < size
	if st.Skip > 0 {
		// Inside a line too long to read: find its end, reading from
		// where the last call stopped.
		n, found, ferr, err := skipLongLine(ra, &st, end, fn)
		res.Read += n
		if found {
			res.Lines++
			res.Bytes += st.Offset - prev.Offset
		}
		switch {
		case err != nil:
			res.State = prev
			return res, fmt.Errorf("read %s: %w", name, err)
		case ferr != nil || st.Skip > 0:
			res.State, res.Pending = st, st.Skip
			return res, ferr
		}
	}
	skipped := res.Lines
	var cr CountingReader
	cr.R = io.NewSectionReader(ra, st.Offset, end-st.Offset)
	// A small append needs a small buffer: the usual call reads one line.
	buf := int(min(max(end-st.Offset+1, 4096), lineReaderBufSize))
	// A byte order mark is stripped only at the start of the file, as
	// a whole read does.
	lr := &LineReader{r: bufio.NewReaderSize(&cr, buf), first: st.Offset == 0}
	// done is how far into the section the lines handed out reach,
	// newlines included (the line reader's own count of raw bytes).
	var done int64
	var ferr error
	for ferr == nil {
		line, ok := lr.Next()
		if !ok {
			break
		}
		if !line.Terminated {
			if line.TooLong {
				// Longer than memscope reads, and no end yet: remember how
				// far it was read instead of reading it all again.
				st.Skip = lr.off - done
			}
			res.Pending = size - st.Offset - done
			break
		}
		done = lr.off
		line.Number += st.Lines
		line.Offset += st.Offset
		res.Lines++
		ferr = fn(line)
	}
	res.Read += cr.N
	if err := lr.Err(); err != nil && ferr == nil {
		res.State = prev
		return res, fmt.Errorf("read %s: %w", name, err)
	}
	res.Bytes += done
	st.Offset += done
	st.Lines += res.Lines - skipped
	res.State = st
	return res, ferr
}

// skipLongLine reads from st.Offset+st.Skip up to end looking for the
// line break that ends the too-long line at st.Offset. Found, it hands
// fn the line (TooLong, Bytes empty; fn's error is ferr) and moves st
// past it (Skip 0); not found, Skip grows to end. It returns the bytes
// read.
func skipLongLine(ra io.ReaderAt, st *TailState, end int64, fn func(Line) error) (read int64, found bool, ferr, err error) {
	buf := make([]byte, 256<<10)
	for pos := st.Offset + st.Skip; pos < end; {
		n, rerr := ra.ReadAt(buf[:min(int64(len(buf)), end-pos)], pos)
		read += int64(n)
		if i := bytes.IndexByte(buf[:n], '\n'); i >= 0 {
			size := pos + int64(i) - st.Offset
			st.Lines++
			line := Line{Number: st.Lines, Offset: st.Offset, Terminated: true, TooLong: true, Size: size, limit: MaxLineBytes}
			st.Offset, st.Skip = pos+int64(i)+1, 0
			return read, true, fn(line), nil
		}
		pos += int64(n)
		st.Skip = pos - st.Offset
		if rerr != nil && !errors.Is(rerr, io.EOF) {
			return read, false, nil, rerr
		}
		if n == 0 {
			break
		}
	}
	return read, false, nil, nil
}

// readerAt gives random access to f: os files and fstest files have
// ReadAt; anything else is read through a seeker, or from the start.
func readerAt(f fs.File) io.ReaderAt {
	if ra, ok := f.(io.ReaderAt); ok {
		return ra
	}
	return &seekReaderAt{f: f}
}

// seekReaderAt adapts a file without ReadAt. It is only used serially.
type seekReaderAt struct {
	f   fs.File
	pos int64
}

func (s *seekReaderAt) ReadAt(p []byte, off int64) (int, error) {
	if sk, ok := s.f.(io.Seeker); ok {
		if _, err := sk.Seek(off, io.SeekStart); err != nil {
			return 0, err
		}
		return io.ReadFull(s.f, p)
	}
	if off < s.pos {
		return 0, errors.New("file cannot seek back")
	}
	if _, err := io.CopyN(io.Discard, s.f, off-s.pos); err != nil {
		return 0, err
	}
	n, err := io.ReadFull(s.f, p)
	s.pos = off + int64(n)
	return n, err
}

// hashHead hashes the first n bytes of ra.
func hashHead(ra io.ReaderAt, n int) ([sha256.Size]byte, int, error) {
	// A stamp of every file a warm start checks (thousands) reads its
	// head into a buffer of its own: one from the pool when it fits
	// (9.5 MB of garbage a warm start on W otherwise).
	var buf []byte
	if n <= TailHeadMax {
		b := headBufs.Get().(*[TailHeadMax]byte)
		defer headBufs.Put(b)
		buf = b[:n]
	} else {
		buf = make([]byte, n)
	}
	got, err := ra.ReadAt(buf, 0)
	if got < n {
		if err == nil || errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return [sha256.Size]byte{}, got, err
	}
	return sha256.Sum256(buf), got, nil
}

// headBufs are hashHead's buffers.
var headBufs = sync.Pool{New: func() any { return new([TailHeadMax]byte) }}

// LineDecoder decodes transcript lines one at a time, exactly as
// ScanTranscript decodes them. It is for readers that find their own
// lines (TailTranscript, a reader that walks a file backwards).
type LineDecoder struct {
	d     *recordDecoder
	probs []Problem
}

// NewLineDecoder returns a decoder whose problems are labelled name.
func NewLineDecoder(name string, opts ScanOptions) *LineDecoder {
	return &LineDecoder{d: newRecordDecoder(name, opts)}
}

// Decode fills rec from line. It returns false when the line is not a
// record (blank, malformed, or an unterminated tail that does not
// parse); problems then holds why. A kept record may still have field
// problems. The slice is reused by the next call.
func (ld *LineDecoder) Decode(line Line, rec *Record) (problems []Problem, ok bool) {
	ld.probs = ld.probs[:0]
	if line.TooLong {
		return append(ld.probs, line.TooLongProblem(ld.d.name)), false
	}
	if len(bytes.TrimSpace(line.Bytes)) == 0 {
		return nil, false
	}
	p, ok := ld.d.decode(line, rec)
	if !ok {
		return append(ld.probs, p), false
	}
	return append(ld.probs, ld.d.problems...), true
}

// TailTranscriptResult is TailResult plus what the new lines held.
type TailTranscriptResult struct {
	TailResult
	// Records counts the new lines that decoded; Problems lists the
	// others (malformed lines, with file and line) and field problems.
	Records  int
	Problems []Problem
}

// TailTranscript decodes the transcript lines appended since prev (see
// TailLines), calling fn with each record and its line as written (line
// is only valid during the call). opts is as for ScanTranscript.
// fn may be nil.
func TailTranscript(fsys fs.FS, name string, prev TailState, opts ScanOptions, fn func(rec *Record, line []byte) error) (TailTranscriptResult, error) {
	return TailTranscriptWithin(fsys, name, prev, 0, opts, fn)
}

// TailTranscriptWithin is TailTranscript reading at most a window of the
// file (see TailLinesWithin).
func TailTranscriptWithin(fsys fs.FS, name string, prev TailState, window int64, opts ScanOptions, fn func(rec *Record, line []byte) error) (TailTranscriptResult, error) {
	var out TailTranscriptResult
	ld := NewLineDecoder(name, opts)
	var scratch Record
	res, err := TailLinesWithin(fsys, name, prev, window, func(line Line) error {
		rec := &scratch
		if fn != nil {
			rec = new(Record)
		} else {
			scratch = Record{}
		}
		probs, ok := ld.Decode(line, rec)
		out.Problems = append(out.Problems, probs...)
		if !ok {
			return nil
		}
		out.Records++
		if fn != nil {
			return fn(rec, line.Bytes)
		}
		return nil
	})
	out.TailResult = res
	return out, err
}

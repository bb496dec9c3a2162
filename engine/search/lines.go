package search

import (
	"bytes"
	"context"
	"encoding/binary"
	"io"

	"github.com/memscope/memscope/model"
)

// A JSONL file is searched the way grep searches: a large chunk is read
// at a time and the anchor is looked for across the whole chunk; only
// around an anchor found is the line cut out, and line numbers are
// counted (bytes.Count) only up to a line handed over (lineCount). A
// line no anchor falls in costs no work of its own.

// maxSpecials bounds lineScan.specials.
const maxSpecials = 4

// chunkSize is the read buffer of a worker; it grows to hold a longer
// line, up to model.MaxLineBytes, one worker at a time (longLines).
const chunkSize = 1 << 20

// lineScan says which lines of a file to hand over.
type lineScan struct {
	// finds return the offset of the first place in b a wanted line
	// may hold, or -1 (a line is wanted where any of them finds one);
	// none wants every line.
	finds []func(b []byte) int
	// specials find what makes a line worth a closer look although find
	// does not find it there (a \u escape, a Kelvin sign):
	// check decides on those lines. At most maxSpecials.
	specials []*finder
	check    func(line []byte) bool
	// count adds the bytes read to the result (false for a second pass
	// over a file).
	count bool
	// more, when set, is a find the caller can switch on while the scan
	// runs (fn sets more.on): from the line after the one handed over
	// then, its lines are handed over too.
	more *moreFind
	// until, when positive, stops the scan at that file offset (a line
	// boundary).
	until int64
}

// moreFind is a find switched on during a scan: a transcript's compact
// boundaries, looked for in the first pass from its first hit on, so
// that the second pass, which finds the last one, reads only what the
// first passed over before it (often nothing: the last boundary comes
// after the first hit).
type moreFind struct {
	find func(b []byte) int
	on   bool
	// end is the file offset just past the line being handed over: when
	// fn switches the find on, the first the scan looks at with it.
	end int64
}

// scanLines reads u and calls fn with each line (without its line
// break) that ls wants, and its 1-based number.
func (w *worker) scanLines(ctx context.Context, u *unit, res *result, ls lineScan, fn func(line []byte, n int)) {
	f, err := model.OpenRegular(u.fsys, u.name)
	if err != nil {
		res.problems = append(res.problems, openProblem(u.file, err))
		return
	}
	defer f.Close()
	long := false // holding w.o.lines' token: w.buf may grow
	defer func() {
		if long {
			// A long line grew it: give the memory and the token back.
			w.o.lines.grew(-int64(len(w.buf) - chunkSize))
			w.buf = nil
			w.o.lines.release()
		}
	}()
	if w.buf == nil {
		w.buf = make([]byte, chunkSize)
	}
	lc := lineCount{line: 1, buf: &w.countBuf}
	lc.ra, _ = f.(io.ReaderAt)
	var r io.Reader = f
	if ls.until > 0 {
		r = io.LimitReader(f, ls.until)
	}
	keep := 0
	var read int64 // bytes read so far; data[0] is at read-keep before a read
	first, skipping := true, false
	for {
		if ctx.Err() != nil {
			return
		}
		if keep == len(w.buf) {
			if len(w.buf) > model.MaxLineBytes {
				// A line longer than memscope reads: skip to its end.
				if !skipping {
					res.problems = append(res.problems, model.Problem{File: u.file, Line: lc.at(w.buf, read-int64(keep), read-int64(keep)), Kind: model.ProblemTooLarge,
						Reason: "line is longer than the " + format32(model.MaxLineBytes) + " memscope reads: not searched"})
				}
				skipping, keep = true, 0
			} else {
				if !long {
					if long = w.o.lines.acquire(ctx); !long {
						return
					}
				}
				nb := make([]byte, min(2*len(w.buf), model.MaxLineBytes+1))
				copy(nb, w.buf)
				w.o.lines.grew(int64(len(nb) - len(w.buf)))
				w.buf = nb
			}
		}
		base := read - int64(keep)
		n, rerr := r.Read(w.buf[keep:])
		read += int64(n)
		if ls.count {
			res.bytes += int64(n)
		}
		data := w.buf[:keep+n]
		start := 0
		if first && len(data) >= 3 {
			first = false
			if bytes.HasPrefix(data, []byte{0xEF, 0xBB, 0xBF}) {
				start = 3
			}
		}
		eof := rerr != nil
		end := len(data)
		if !eof {
			end = bytes.LastIndexByte(data, '\n') + 1
		}
		if skipping {
			nl := bytes.IndexByte(data[start:end], '\n')
			if nl < 0 {
				keep = 0
				if eof {
					break
				}
				continue
			}
			skipping = false
			start += nl + 1
			if lc.ra == nil {
				lc.line, lc.off = lc.line+1, base+int64(start) // the long line, not counted as read
			}
		}
		if end > start {
			w.scanRegion(data[start:end], base+int64(start), &lc, ls, fn)
		}
		keep = copy(w.buf, data[end:])
		if eof {
			if rerr != io.EOF {
				res.problems = append(res.problems, model.Problem{File: u.file, Kind: model.ProblemUnreadable, Reason: rerr.Error()})
			}
			break
		}
	}
	if lc.err != nil {
		res.problems = append(res.problems, model.Problem{File: u.file, Kind: model.ProblemUnreadable,
			Reason: "line numbers after the file changed may be wrong: " + lc.err.Error()})
	}
}

// lineCount numbers a file's lines only as far as a line handed over
// needs: most files searched have no hit, and counting every line break
// of them was a tenth of a search's time. When a line is handed over
// past what was counted (earlier chunks are gone from the buffer), the
// stretch between is read again (ReadAt) and counted. A file that cannot
// be read at an offset is counted as it is read.
type lineCount struct {
	// line is the number of the line holding offset off, up to which
	// line breaks are counted.
	line int
	off  int64
	ra   io.ReaderAt
	// buf is the worker's buffer for reading a stretch again.
	buf *[]byte
	err error
}

// at is the number of the line holding file offset pos, which is in
// region (starting at file offset base) or at its end.
func (c *lineCount) at(region []byte, base, pos int64) int {
	if c.off < base {
		if c.ra == nil {
			c.off = base // counted as read: only a skipped line is between
		} else {
			c.countFile(base)
		}
	}
	if pos > c.off {
		c.line += bytes.Count(region[c.off-base:pos-base], []byte{'\n'})
		c.off = pos
	}
	return c.line
}

// countFile counts the line breaks of the file from c.off to end.
func (c *lineCount) countFile(end int64) {
	if *c.buf == nil {
		*c.buf = make([]byte, 64<<10)
	}
	buf := *c.buf
	for c.off < end && c.err == nil {
		n, err := c.ra.ReadAt(buf[:min(int64(len(buf)), end-c.off)], c.off)
		c.line += bytes.Count(buf[:n], []byte{'\n'})
		c.off += int64(n)
		if n == 0 && err == nil {
			err = io.ErrUnexpectedEOF
		}
		if err != nil && c.off < end {
			c.err = err
		}
	}
	c.off = end
}

// scanRegion hands over the wanted lines of region (whole lines; it
// starts at file offset base).
func (w *worker) scanRegion(region []byte, base int64, lc *lineCount, ls lineScan, fn func(line []byte, n int)) {
	emit := func(s, e int) {
		n := lc.at(region, base, base+int64(s))
		if ls.more != nil {
			ls.more.end = base + int64(e) + 1
		}
		l := region[s:e]
		if len(l) > 0 && l[len(l)-1] == '\r' {
			l = l[:len(l)-1]
		}
		fn(l, n)
	}
	if lc.ra == nil {
		// Counted as read: at the end of each region.
		defer lc.at(region, base, base+int64(len(region)))
	}
	if len(ls.finds) == 0 {
		for pos := 0; pos < len(region); {
			e := lineEnd(region, pos)
			emit(pos, e)
			pos = e + 1
		}
		return
	}
	// The next place each find and special finds at or after pos (-2:
	// not looked for yet, -1: none left); the finds come first.
	var nextBuf [maxSpecials + 4]int
	next := nextBuf[:0]
	for range len(ls.finds) + len(ls.specials) {
		next = append(next, -2)
	}
	nextMore := -2
	for pos := 0; pos < len(region); {
		p, fromAnchor := -1, false
		if m := ls.more; m != nil && m.on && nextMore != -1 {
			if nextMore < pos {
				nextMore = indexFrom(region, pos, m.find)
			}
			if nextMore >= 0 {
				p, fromAnchor = nextMore, true
			}
		}
		for i := range next {
			if next[i] != -1 && next[i] < pos {
				if i < len(ls.finds) {
					next[i] = indexFrom(region, pos, ls.finds[i])
				} else {
					next[i] = indexFrom(region, pos, ls.specials[i-len(ls.finds)].index)
				}
			}
			// A find wins a tie: its line needs no check.
			if next[i] >= 0 && (p < 0 || next[i] < p) {
				p, fromAnchor = next[i], i < len(ls.finds)
			}
		}
		if p < 0 {
			break
		}
		s := pos + lastNewline(region[pos:p]) + 1
		e := lineEnd(region, p)
		if fromAnchor || ls.check(region[s:e]) {
			emit(s, e)
		}
		pos = e + 1
	}
}

// lastNewline is bytes.LastIndexByte(b, '\n'), eight bytes at a time
// (bytes.LastIndexByte goes one at a time: finding the start of each
// line an anchor is in was a seventh of a search with many candidates).
func lastNewline(b []byte) int {
	const ones, highs, nls = 0x0101010101010101, 0x8080808080808080, 0x0a0a0a0a0a0a0a0a
	i := len(b)
	for i >= 8 {
		v := binary.LittleEndian.Uint64(b[i-8:]) ^ nls
		if (v-ones)&^v&highs != 0 {
			break // a line break in b[i-8:i]
		}
		i -= 8
	}
	for i > 0 {
		i--
		if b[i] == '\n' {
			return i
		}
	}
	return -1
}

// lineEnd is the offset of the line break ending the line at p (or the
// end of region).
func lineEnd(region []byte, p int) int {
	if i := bytes.IndexByte(region[p:], '\n'); i >= 0 {
		return p + i
	}
	return len(region)
}

// indexFrom is find in region from pos, as an offset in region, or -1.
func indexFrom(region []byte, pos int, find func([]byte) int) int {
	if i := find(region[pos:]); i >= 0 {
		return pos + i
	}
	return -1
}

func format32(n int) string {
	return itoa(n>>20) + " MiB"
}

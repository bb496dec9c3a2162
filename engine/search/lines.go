package search

import (
	"bytes"
	"context"
	"encoding/binary"
	"io"

	"github.com/memscope/memscope/model"
)

// A JSONL file is searched the way grep searches: a chunk is read at a
// time and the anchor is looked for across the whole chunk; only around
// an anchor found is the line cut out. A line no anchor falls in costs
// no work of its own. Where the finders are few (a pairSet), one pass
// looks for all of them and counts the line breaks on the way, so the
// line's start and number come with each place found; otherwise each
// finder goes over the chunk, and line numbers are counted (bytes.Count)
// only up to a line handed over (lineCount).

// maxSpecials bounds lineScan.specials.
const maxSpecials = 4

// chunkSize is the read buffer of a worker; it grows to hold a longer
// line, up to model.MaxLineBytes, one worker at a time (longLines).
const chunkSize = 1 << 20

// readSize is the most a read asks for: what a read copies is scanned
// while it is still in the core's cache (the scan of a whole 1 MiB
// chunk read from memory further out).
const readSize = 256 << 10

// lineScan says which lines of a file to hand over.
type lineScan struct {
	// finds find the places a wanted line may hold (a line is wanted
	// where any of them finds one); none wants every line.
	finds []anchor
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
	// set is the finds, the specials and more's find in one pairSet,
	// when they are finders and few enough (withSet): the region is
	// then scanned once for all of them, its lines counted on the way.
	set *pairSet
}

// withSet sets ls.set when the SIMD loop can look for all of ls's
// finders at once.
func (ls *lineScan) withSet() {
	if !pairSetSIMD || len(ls.finds) == 0 {
		return
	}
	var fs []*finder
	for _, a := range ls.finds {
		f, ok := a.(*finder)
		if !ok {
			return
		}
		fs = append(fs, f)
	}
	fs = append(fs, ls.specials...)
	if ls.more != nil {
		fs = append(fs, ls.more.find)
	}
	if len(fs) > maxSetPairs {
		return
	}
	ls.set = newPairSet(fs)
}

// moreFind is a find switched on during a scan: a transcript's compact
// boundaries, looked for in the first pass from its first hit on, so
// that the second pass, which finds the last one, reads only what the
// first passed over before it (often nothing: the last boundary comes
// after the first hit).
type moreFind struct {
	find *finder
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
	ls.withSet()
	lc := lineCount{line: 1, buf: &w.countBuf}
	if ls.set == nil {
		// The set counts every line as it goes: others count lazily.
		lc.ra, _ = f.(io.ReaderAt)
	}
	var r io.Reader = f
	if ls.until > 0 {
		r = io.LimitReader(f, ls.until)
	}
	// The unscanned bytes are w.buf[lo:hi]: the start of a line the
	// last read did not finish. A read fills at most readSize bytes
	// after them, and the lines it finished are scanned while they are
	// still in the core's cache (a read of a whole chunk left them in
	// memory further out: the scan after it went at half the speed).
	lo, hi := 0, 0
	var read int64 // bytes read so far; w.buf[hi] is at offset read
	first, skipping := true, false
	for {
		if ctx.Err() != nil {
			return
		}
		if len(w.buf)-hi < readSize && lo > 0 {
			// Too little room left after the unfinished line: move it to
			// the front.
			hi = copy(w.buf, w.buf[lo:hi])
			lo = 0
		}
		if hi == len(w.buf) {
			if len(w.buf) > model.MaxLineBytes {
				// A line longer than memscope reads: skip to its end.
				if !skipping {
					res.problems = append(res.problems, model.Problem{File: u.file, Line: lc.at(w.buf, read-int64(hi), read-int64(hi)), Kind: model.ProblemTooLarge,
						Reason: "line is longer than the " + format32(model.MaxLineBytes) + " memscope reads: not searched"})
				}
				skipping, hi = true, 0
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
		base := read - int64(hi-lo) // the file offset of w.buf[lo]
		n, rerr := r.Read(w.buf[hi:min(len(w.buf), hi+readSize)])
		read += int64(n)
		if ls.count {
			res.bytes += int64(n)
		}
		hi += n
		if first && hi-lo >= 3 {
			first = false
			if bytes.HasPrefix(w.buf[lo:hi], []byte{0xEF, 0xBB, 0xBF}) {
				lo, base = lo+3, base+3
			}
		}
		data := w.buf[lo:hi]
		start := 0
		eof := rerr != nil
		end := len(data)
		if !eof {
			// Only what was read can end a line: the bytes before it are
			// a line's start.
			from := max(0, len(data)-n)
			end = 0
			if nl := lastNewline(data[from:]); nl >= 0 {
				end = from + nl + 1
			}
		}
		if skipping {
			nl := bytes.IndexByte(data[start:end], '\n')
			if nl < 0 {
				lo, hi = 0, 0
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
		lo += end
		if lo == hi {
			lo, hi = 0, 0
		}
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
	if ls.set != nil {
		w.scanRegionSet(region, base, lc, ls, fn)
		return
	}
	emit := func(s, e int) {
		handOver(region, s, e, base, lc.at(region, base, base+int64(s)), &ls, fn)
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
				nextMore = indexFrom(region, pos, m.find.index)
			}
			if nextMore >= 0 {
				p, fromAnchor = nextMore, true
			}
		}
		for i := range next {
			if next[i] != -1 && next[i] < pos {
				if i < len(ls.finds) {
					next[i] = indexFrom(region, pos, ls.finds[i].index)
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

// handOver hands region[s:e] (a line; the region starts at file offset
// base) to fn as line n, without the carriage return before its line
// break, and tells ls.more where it ends.
func handOver(region []byte, s, e int, base int64, n int, ls *lineScan, fn func(line []byte, n int)) {
	if ls.more != nil {
		ls.more.end = base + int64(e) + 1
	}
	l := region[s:e]
	if len(l) > 0 && l[len(l)-1] == '\r' {
		l = l[:len(l)-1]
	}
	fn(l, n)
}

// scanRegionSet is scanRegion with ls.set: one pass for every finder,
// each line's start and number known where a place is found (lc counts
// every line, as read).
func (w *worker) scanRegionSet(region []byte, base int64, lc *lineCount, ls lineScan, fn func(line []byte, n int)) {
	set := ls.set
	nf, ns := len(ls.finds), len(ls.specials)
	// line is the number of the line holding pos, start where it starts.
	pos, line, start := 0, lc.line, 0
	for pos < len(region) {
		k := nf + ns
		if ls.more != nil && ls.more.on {
			k++
		}
		p, nls, lastnl := set.next(region, pos, k)
		line += nls
		if lastnl >= 0 {
			start = lastnl + 1
		}
		if p < 0 {
			break
		}
		// What is at p: a find or more's (the line is wanted), a
		// special (check decides), or neither (the pairs only agree).
		found, special := false, false
		for j := range k {
			if set.at(region, p, j) {
				if j < nf || j >= nf+ns {
					found = true
					break
				}
				special = true
			}
		}
		if !found && !special {
			if region[p] == '\n' {
				line, start = line+1, p+1
			}
			pos = p + 1
			continue
		}
		e := lineEnd(region, p)
		if found || ls.check(region[start:e]) {
			handOver(region, start, e, base, line, &ls, fn)
		}
		if e == len(region) {
			break
		}
		pos, line, start = e+1, line+1, e+1
	}
	lc.line, lc.off = line, base+int64(len(region))
}

// lastNewline is bytes.LastIndexByte(b, '\n'). The last few hundred
// bytes are looked at eight at a time (lastNewlineSWAR: bytes.LastIndexByte
// goes one at a time, and finding the start of each line an anchor is
// in was a seventh of a search with many candidates); further back,
// blocks of newlineBlock bytes are asked whether they hold one by
// bytes.IndexByte (vector instructions, several times faster), and only
// the block that does is searched backwards. A read that ends inside a
// long line (a 40 KB attachment) was searched back through the whole of
// it eight bytes at a time: 2 % of `queue branch` on W.
func lastNewline(b []byte) int {
	lo := max(0, len(b)-newlineNear)
	if j := lastNewlineSWAR(b[lo:]); j >= 0 {
		return lo + j
	}
	for hi := lo; hi > 0; hi = lo {
		lo = max(0, hi-newlineBlock)
		if bytes.IndexByte(b[lo:hi], '\n') >= 0 {
			return lo + lastNewlineSWAR(b[lo:hi])
		}
	}
	return -1
}

// newlineNear is how far back lastNewline looks eight bytes at a time
// before it asks blocks of newlineBlock bytes.
const (
	newlineNear  = 256
	newlineBlock = 4096
)

// lastNewlineSWAR is bytes.LastIndexByte(b, '\n'), eight bytes at a time.
func lastNewlineSWAR(b []byte) int {
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

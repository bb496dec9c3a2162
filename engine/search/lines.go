package search

import (
	"bytes"
	"context"
	"io"

	"github.com/memscope/memscope/model"
)

// A JSONL file is searched the way grep searches: a large chunk is read
// at a time and the anchor is looked for across the whole chunk; only
// around an anchor found is the line cut out, and line numbers are
// counted in bulk (bytes.Count) over the stretches between. A line no
// anchor falls in costs no work of its own.

// maxSpecials bounds lineScan.specials.
const maxSpecials = 4

// chunkSize is the read buffer of a worker; it grows to hold a longer
// line, up to model.MaxLineBytes.
const chunkSize = 1 << 20

// lineScan says which lines of a file to hand over.
type lineScan struct {
	// find returns the offset of the first place in b a wanted line may
	// hold, or -1; nil wants every line.
	find func(b []byte) int
	// specials are byte strings that make a line worth a closer look
	// although find does not find it there (a \u escape, a Kelvin sign):
	// check decides on those lines. At most maxSpecials.
	specials [][]byte
	check    func(line []byte) bool
	// count adds the bytes read to the result (false for a second pass
	// over a file).
	count bool
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
	defer func() {
		if len(w.buf) > 4*chunkSize {
			w.buf = nil // a long line grew it: give the memory back
		}
	}()
	if w.buf == nil {
		w.buf = make([]byte, chunkSize)
	}
	keep := 0
	line := 1
	first, skipping := true, false
	for {
		if ctx.Err() != nil {
			return
		}
		if keep == len(w.buf) {
			if len(w.buf) > model.MaxLineBytes {
				// A line longer than memscope reads: skip to its end.
				if !skipping {
					res.problems = append(res.problems, model.Problem{File: u.file, Line: line, Kind: model.ProblemTooLarge,
						Reason: "line is longer than the " + format32(model.MaxLineBytes) + " memscope reads: not searched"})
				}
				skipping, keep = true, 0
			} else {
				nb := make([]byte, min(2*len(w.buf), model.MaxLineBytes+1))
				copy(nb, w.buf)
				w.buf = nb
			}
		}
		n, rerr := f.Read(w.buf[keep:])
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
			line++
			start += nl + 1
		}
		if end > start {
			line = w.scanRegion(data[start:end], line, ls, fn)
		}
		keep = copy(w.buf, data[end:])
		if eof {
			if rerr != io.EOF {
				res.problems = append(res.problems, model.Problem{File: u.file, Kind: model.ProblemUnreadable, Reason: rerr.Error()})
			}
			return
		}
	}
}

// scanRegion hands over the wanted lines of region (whole lines, the
// first numbered line) and returns the number of the line after it.
func (w *worker) scanRegion(region []byte, line int, ls lineScan, fn func(line []byte, n int)) int {
	counted := 0
	emit := func(s, e int) {
		line += bytes.Count(region[counted:s], []byte{'\n'})
		counted = s
		l := region[s:e]
		if len(l) > 0 && l[len(l)-1] == '\r' {
			l = l[:len(l)-1]
		}
		fn(l, line)
	}
	if ls.find == nil {
		for pos := 0; pos < len(region); {
			e := lineEnd(region, pos)
			emit(pos, e)
			pos = e + 1
		}
	} else {
		// The next anchor and special at or after pos (-2: not looked
		// for yet, -1: none left).
		a := -2
		var next [maxSpecials]int
		for i := range next {
			next[i] = -2
		}
		for pos := 0; pos < len(region); {
			if a != -1 && a < pos {
				a = indexFrom(region, pos, ls.find)
			}
			p, fromAnchor := a, true
			for i, sp := range ls.specials {
				if next[i] != -1 && next[i] < pos {
					if j := bytes.Index(region[pos:], sp); j >= 0 {
						next[i] = pos + j
					} else {
						next[i] = -1
					}
				}
				if next[i] >= 0 && (p < 0 || next[i] < p) {
					p, fromAnchor = next[i], false
				}
			}
			if p < 0 {
				break
			}
			s := bytes.LastIndexByte(region[:p], '\n') + 1
			e := lineEnd(region, p)
			if fromAnchor || ls.check(region[s:e]) {
				emit(s, e)
			}
			pos = e + 1
		}
	}
	return line + bytes.Count(region[counted:], []byte{'\n'})
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

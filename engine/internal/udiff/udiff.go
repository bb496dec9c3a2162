package udiff

import (
	"fmt"
	"strings"
)

// diffContext is how many unchanged lines a hunk shows around a change.
const diffContext = 3

// Unified returns the unified diff (diff -u style, three lines of
// context) that turns a into b, the file name's content before and after;
// a missing side is /dev/null. Lines are compared with their endings, so
// a CRLF change shows; a last line without a newline is marked as diff
// marks it. Identical input gives "".
func Unified(name string, a []byte, aExists bool, b []byte, bExists bool) string {
	return Named(name, name, a, aExists, b, bExists)
}

// Named is UnifiedDiff of a file that moved from one name to another.
func Named(fromName, toName string, a []byte, aExists bool, b []byte, bExists bool) string {
	if aExists == bExists && string(a) == string(b) {
		return ""
	}
	x, y := splitLinesKeepEOL(string(a)), splitLinesKeepEOL(string(b))
	var out strings.Builder
	from, to := "a/"+fromName, "b/"+toName
	if !aExists {
		from = "/dev/null"
	}
	if !bExists {
		to = "/dev/null"
	}
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", from, to)
	if len(x) == 0 && len(y) == 0 {
		return out.String()
	}
	ops := diffLines(x, y)
	for _, h := range hunks(ops) {
		fmt.Fprintf(&out, "@@ -%s +%s @@\n", hunkRange(h.aStart, h.aLen), hunkRange(h.bStart, h.bLen))
		for _, op := range ops[h.from:h.to] {
			line, prefix := "", op.kind
			if op.kind == '-' {
				line = x[op.a]
			} else {
				line = y[op.b]
			}
			out.WriteByte(prefix)
			out.WriteString(strings.TrimSuffix(line, "\n"))
			out.WriteByte('\n')
			if !strings.HasSuffix(line, "\n") {
				out.WriteString("\\ No newline at end of file\n")
			}
		}
	}
	return out.String()
}

func hunkRange(start, n int) string {
	switch n {
	case 0:
		return fmt.Sprintf("%d,0", start)
	case 1:
		return fmt.Sprintf("%d", start+1)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}

// MostlySame reports whether b keeps at least half of a's lines: a file
// removed and one created that are mostly the same read as a move.
func MostlySame(a, b []byte) bool {
	x, y := splitLinesKeepEOL(string(a)), splitLinesKeepEOL(string(b))
	if len(x)+len(y) > maxMyersLines {
		return false
	}
	same := 0
	for _, op := range diffLines(x, y) {
		if op.kind == ' ' {
			same++
		}
	}
	return same*2 >= max(len(x), len(y))
}

// splitLinesKeepEOL splits s after each "\n".
func splitLinesKeepEOL(s string) []string {
	var out []string
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			out = append(out, s)
			break
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
	return out
}

// maxMyersLines bounds the middle part (after the common head and tail)
// that gets a shortest edit script; Myers keeps D frontiers of N+M, so a
// huge rewrite is shown as removed-then-added instead.
const maxMyersLines = 4000

// diffLines is the edit script from x to y: the common head and tail kept,
// the middle by Myers' algorithm.
func diffLines(x, y []string) []diffOp {
	head := 0
	for head < len(x) && head < len(y) && x[head] == y[head] {
		head++
	}
	tail := 0
	for tail < len(x)-head && tail < len(y)-head && x[len(x)-1-tail] == y[len(y)-1-tail] {
		tail++
	}
	var ops []diffOp
	for i := 0; i < head; i++ {
		ops = append(ops, diffOp{' ', i, i})
	}
	mx, my := x[head:len(x)-tail], y[head:len(y)-tail]
	var mid []diffOp
	if len(mx)+len(my) <= maxMyersLines {
		mid = myersDiff(mx, my)
	} else {
		for i := range mx {
			mid = append(mid, diffOp{'-', i, 0})
		}
		for j := range my {
			mid = append(mid, diffOp{'+', len(mx), j})
		}
	}
	for _, op := range mid {
		ops = append(ops, diffOp{op.kind, op.a + head, op.b + head})
	}
	for i := 0; i < tail; i++ {
		ops = append(ops, diffOp{' ', len(x) - tail + i, len(y) - tail + i})
	}
	return ops
}

// diffOp is one line of an edit script: ' ' keeps x[a] (= y[b]), '-'
// drops x[a], '+' adds y[b].
type diffOp struct {
	kind byte
	a, b int
}

// myersDiff is Myers' O(ND) shortest edit script between x and y.
func myersDiff(x, y []string) []diffOp {
	n, m := len(x), len(y)
	maxD := n + m
	off := maxD + 1
	// The frontier holds line indexes below maxMyersLines: int32 halves
	// it and the trace of it (the review's diffs at a warm start, 1.5 MB
	// as int).
	v := make([]int32, 2*maxD+3)
	// Round d reads only diagonals -d-1..d+1, so only that window of the
	// frontier is saved (one flat buffer, O(D^2) rather than O(D*(n+m))).
	var trace traceBuf
	for d := 0; d <= maxD; d++ {
		trace.save(v[off-d-1 : off+d+2])
		for k := -d; k <= d; k += 2 {
			var i int
			if k == -d || k != d && v[off+k-1] < v[off+k+1] {
				i = int(v[off+k+1])
			} else {
				i = int(v[off+k-1]) + 1
			}
			j := i - k
			for i < n && j < m && x[i] == y[j] {
				i++
				j++
			}
			v[off+k] = int32(i)
			if i >= n && j >= m {
				return backtrack(trace, n, m)
			}
		}
	}
	return nil
}

// traceBuf holds the frontier before each round d: diagonals -d-1..d+1,
// in rows[d]. The rows are cut from chunks that grow by doubling and
// are never copied: one flat slice grown by append (by a quarter at a
// time once large) allocated five times the trace a rewrite saves.
type traceBuf struct {
	rows  [][]int32
	chunk []int32
}

// save appends the row w (copied).
func (t *traceBuf) save(w []int32) {
	if len(w) > cap(t.chunk)-len(t.chunk) {
		t.chunk = make([]int32, 0, max(len(w), 2*cap(t.chunk), 256))
	}
	n := len(t.chunk)
	t.chunk = append(t.chunk, w...)
	t.rows = append(t.rows, t.chunk[n:len(t.chunk):len(t.chunk)])
}

// backtrack walks the saved frontiers back from (n, m) to the start.
func backtrack(trace traceBuf, n, m int) []diffOp {
	var rev []diffOp
	x, y := n, m
	for d := len(trace.rows) - 1; d >= 0; d-- {
		v, off := trace.rows[d], d+1
		k := x - y
		pk := k - 1
		if k == -d || k != d && v[off+k-1] < v[off+k+1] {
			pk = k + 1
		}
		px := int(v[off+pk])
		py := px - pk
		for x > px && y > py {
			x--
			y--
			rev = append(rev, diffOp{' ', x, y})
		}
		if d > 0 {
			if x == px {
				rev = append(rev, diffOp{'+', px, py})
			} else {
				rev = append(rev, diffOp{'-', px, py})
			}
		}
		x, y = px, py
	}
	out := make([]diffOp, len(rev))
	for k, op := range rev {
		out[len(rev)-1-k] = op
	}
	return out
}

// hunk is a run of ops[from:to] with its line ranges (0-based starts).
type hunk struct {
	from, to     int
	aStart, aLen int
	bStart, bLen int
}

// hunks groups changes that are at most 2*diffContext unchanged lines
// apart, with diffContext lines of context on each side.
func hunks(ops []diffOp) []hunk {
	var out []hunk
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			i++
			continue
		}
		from := max(i-diffContext, 0)
		if len(out) > 0 && from <= out[len(out)-1].to {
			from = out[len(out)-1].from
			out = out[:len(out)-1]
		}
		end := i
		for end < len(ops) {
			if ops[end].kind != ' ' {
				end++
				continue
			}
			run := end
			for run < len(ops) && ops[run].kind == ' ' {
				run++
			}
			if run == len(ops) || run-end > 2*diffContext {
				break
			}
			end = run
		}
		to := min(end+diffContext, len(ops))
		h := hunk{from: from, to: to}
		for k, op := range ops[from:to] {
			if k == 0 {
				h.aStart, h.bStart = op.a, op.b
			}
			switch op.kind {
			case ' ':
				h.aLen++
				h.bLen++
			case '-':
				h.aLen++
			case '+':
				h.bLen++
			}
		}
		out = append(out, h)
		i = end
	}
	return out
}

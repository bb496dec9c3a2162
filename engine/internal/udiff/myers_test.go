package udiff

import (
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// myersDiffFull and backtrackFull are myersDiff as it was before only the
// frontier's window was saved: a full copy of it per round.
func myersDiffFull(x, y []string) []diffOp {
	n, m := len(x), len(y)
	maxD := n + m
	off := maxD + 1
	v := make([]int, 2*maxD+3)
	var trace [][]int
	for d := 0; d <= maxD; d++ {
		trace = append(trace, append([]int(nil), v...))
		for k := -d; k <= d; k += 2 {
			var i int
			if k == -d || k != d && v[off+k-1] < v[off+k+1] {
				i = v[off+k+1]
			} else {
				i = v[off+k-1] + 1
			}
			j := i - k
			for i < n && j < m && x[i] == y[j] {
				i++
				j++
			}
			v[off+k] = i
			if i >= n && j >= m {
				return backtrackFull(trace, off, n, m)
			}
		}
	}
	return nil
}

// backtrackFull walks the saved frontiers back from (n, m) to the start.
// trace[d] is the frontier before round d.
func backtrackFull(trace [][]int, off, n, m int) []diffOp {
	var rev []diffOp
	x, y := n, m
	for d := len(trace) - 1; d >= 0; d-- {
		v := trace[d]
		k := x - y
		pk := k - 1
		if k == -d || k != d && v[off+k-1] < v[off+k+1] {
			pk = k + 1
		}
		px := v[off+pk]
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

// FuzzMyersSameAsFull holds the windowed trace's ops equal to the full
// copies' on line lists made of a small alphabet (so that lines repeat).
func FuzzMyersSameAsFull(f *testing.F) {
	f.Add("abcabba", "cbabac")
	f.Add("", "xyz")
	f.Add("aaaa", "")
	f.Fuzz(func(t *testing.T, a, b string) {
		x, y := strings.Split(a, ""), strings.Split(b, "")
		if got, want := myersDiff(x, y), myersDiffFull(x, y); !reflect.DeepEqual(got, want) {
			t.Fatalf("myersDiff(%q, %q) = %v, want %v", a, b, got, want)
		}
	})
}

// TestMyersDiffTraceBytes: a few changes in a long file save a few small
// frontiers, not a copy of the whole frontier per round (the old code:
// 2*(n+m)*8 bytes per round, ~700 KB more here).
func TestMyersDiffTraceBytes(t *testing.T) {
	var x, y []string
	for i := 0; i < 2000; i++ {
		x = append(x, "line "+strconv.Itoa(i))
		if i%400 != 7 {
			y = append(y, "line "+strconv.Itoa(i))
		} else {
			y = append(y, "changed "+strconv.Itoa(i))
		}
	}
	bytes := func(diff func(x, y []string) []diffOp) uint64 {
		const runs = 10
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for i := 0; i < runs; i++ {
			diff(x, y)
		}
		runtime.ReadMemStats(&after)
		return (after.TotalAlloc - before.TotalAlloc) / runs
	}
	got, full := bytes(myersDiff), bytes(myersDiffFull)
	t.Logf("%d bytes per diff (full copies: %d)", got, full)
	// The frontier (64 KB) and the ops (~2000) are the same in both; the
	// full copies add ~64 KB per round.
	if got > 300<<10 {
		t.Errorf("myersDiff allocates %d bytes, want <= 300 KiB", got)
	}
}

// TestMyersDiffTraceOfARewrite: a rewrite (every line changed, D = n+m)
// saves some D² frontier values; as int32 (line indexes below
// maxMyersLines) they take half the bytes they took as int, in chunks
// never copied (one slice grown by append allocated five times what it
// held: some 40 bytes a value in all, 14 MB here).
func TestMyersDiffTraceOfARewrite(t *testing.T) {
	var x, y []string
	for i := range 300 {
		x, y = append(x, "old "+strconv.Itoa(i)), append(y, "new "+strconv.Itoa(i))
	}
	least := ^uint64(0)
	for range 3 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		myersDiff(x, y)
		runtime.ReadMemStats(&after)
		least = min(least, after.TotalAlloc-before.TotalAlloc)
	}
	// D = 600: 360 000 values, 1.44 MB as int32; the chunks' doubling
	// leaves at most as much again unused.
	if values := uint64(600 * 600); least > values*8 {
		t.Errorf("a rewrite of 300 lines allocated %d bytes (%.1f a frontier value)", least, float64(least)/float64(values))
	}
}

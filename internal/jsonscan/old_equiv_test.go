package jsonscan

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// walker is what the equivalence tests need of a scanner: Scanner and
// oldScanner (scanner_old_test.go, the walk before branch i32j's fast
// paths) both have it.
type walker interface {
	Line(d []byte, member MemberFunc) error
	Members(d []byte, fn func(key, val []byte)) error
	Value(i, depth int) (int, error)
	Object(i, depth int, member MemberFunc) (int, error)
	Array(i, depth int, elem ElemFunc) (int, error)
	String(i int) (end int, escaped bool, err error)
	Bytes() []byte
	ASCII() bool
}

// walkLog is everything a walk of d says: Line's members (each key,
// value offset, depth and end), walked into with Object and Array at
// even depths and checked with Value at odd ones; Line's error; Members'
// members and error; ASCII; and String at every quote of d.
func walkLog(w walker, d []byte) string {
	var b strings.Builder
	var member MemberFunc
	var elem ElemFunc
	value := func(v, depth int) (int, error) {
		t := w.Bytes()
		switch {
		case depth%2 == 0 && t[v] == '{':
			return w.Object(v, depth, member)
		case depth%2 == 0 && t[v] == '[':
			return w.Array(v, depth, elem)
		}
		return w.Value(v, depth)
	}
	member = func(key []byte, v, depth int) (int, error) {
		end, err := value(v, depth)
		fmt.Fprintf(&b, "m %q %d %d -> %d %v\n", key, v, depth, end, err)
		return end, err
	}
	elem = func(i, depth int) (int, error) {
		end, err := value(i, depth)
		fmt.Fprintf(&b, "e %d %d -> %d %v\n", i, depth, end, err)
		return end, err
	}
	err := w.Line(d, member)
	fmt.Fprintf(&b, "line %v ascii %v\n", err, w.ASCII())
	for i := range d {
		if d[i] == '"' {
			end, esc, err := w.String(i)
			fmt.Fprintf(&b, "s %d %d %v %v\n", i, end, esc, err)
		}
	}
	err = w.Members(d, func(k, v []byte) { fmt.Fprintf(&b, "mm %q %q\n", k, v) })
	fmt.Fprintf(&b, "members %v ascii %v\n", err, w.ASCII())
	return b.String()
}

// eachLoop runs fn with each classify loop this processor has forced:
// AVX-512, AVX2 and the generic Go one.
func eachLoop(fn func(name string)) {
	avx2, avx512 := hasAVX2, hasAVX512
	defer func() { hasAVX2, hasAVX512 = avx2, avx512 }()
	if avx512 {
		fn("avx512")
	}
	hasAVX512 = false
	if avx2 {
		fn("avx2")
	}
	hasAVX2 = false
	fn("go")
}

// checkLikeOld fails t when Scanner's walk of d says anything oldScanner's
// does not, with every loop.
func checkLikeOld(t testing.TB, d []byte) {
	t.Helper()
	eachLoop(func(loop string) {
		var s Scanner
		var o oldScanner
		if got, want := walkLog(&s, d), walkLog(&o, d); got != want {
			t.Fatalf("%s loop, %.200q:\nnew:\n%s\nold:\n%s", loop, d, got, want)
		}
	})
}

// wLike are lines shaped like the bench home's transcripts: records with
// uuids, numbers, nested content arrays, long texts with escapes, and
// each cut or spoilt at a random byte.
func wLike(rng *rand.Rand, n int) [][]byte {
	words := []string{"column", "writer", "index", `\n`, `\"`, `\\`, `\u00e9`, `\t`, "é", " ", "{", "}", "[", "]", ":", ","}
	text := func(k int) string {
		var b strings.Builder
		for range k {
			b.WriteString(words[rng.IntN(len(words))])
			b.WriteByte(' ')
		}
		return b.String()
	}
	var lines [][]byte
	for range n {
		l := fmt.Sprintf(`{"parentUuid":"8d05fdfc-e1a0-479a-9c2a-7cd88d885dd9","isSidechain":false,"message":{"id":"msg_01","role":"assistant","content":[{"type":"thinking","thinking":"%s","signature":"1200"},{"type":"tool_use","input":{"a":[1,-2.5e3,0,true,null,{}],"b" : [ ] , "c":{"d":"%s"}}}],"usage":{"input_tokens":%d,"output_tokens":%d,"x":1.5E+3}},"timestamp":"2026-11-11T05:00:57.451Z"}`,
			text(rng.IntN(200)), text(rng.IntN(30)), rng.IntN(100000), rng.IntN(9))
		lines = append(lines, []byte(l))
		b := []byte(l)
		switch p := rng.IntN(len(b)); rng.IntN(4) {
		case 0:
			b = b[:p]
		case 1:
			b[p] = byte(rng.IntN(256))
		case 2:
			b = append(b[:p:p], b[p+1:]...)
		case 3:
			const some = " \t\n\"\\,:{}[]0e-"
			b = append(b[:p:p], append([]byte{some[rng.IntN(len(some))]}, b[p:]...)...)
		}
		lines = append(lines, b)
	}
	return lines
}

// Scanner says what the walk before branch i32j said (the same members,
// offsets, errors and ASCII) on the repository's lines, the hostile and
// tricky ones and W-like ones, whole and spoilt, with every loop.
func TestLineEqualsOld(t *testing.T) {
	rng := rand.New(rand.NewPCG(32, 28))
	lines := append(repoLines(t), trickySeeds()...)
	lines = append(lines, hostileLines(rng, 2000)...)
	lines = append(lines, wLike(rng, 500)...)
	for _, l := range lines {
		checkLikeOld(t, l)
	}
}

// FuzzLineEqualsOld is TestLineEqualsOld on any text.
func FuzzLineEqualsOld(f *testing.F) {
	for _, l := range trickySeeds() {
		f.Add(l)
	}
	for _, l := range wLike(rand.New(rand.NewPCG(1, 2)), 20) {
		f.Add(l)
	}
	f.Add([]byte(`{"a" :1 ,"b":[1 , 2],"c":{ "d" : "e" } }`))
	f.Fuzz(func(t *testing.T, d []byte) { checkLikeOld(t, d) })
}

// stringEnd, String without the escape note, gives String's end and
// error at every quote of every line, long strings included, with every
// loop.
func TestStringEndIsString(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	lines := append(repoLines(t), trickySeeds()...)
	lines = append(lines, hostileLines(rng, 500)...)
	lines = append(lines, wLike(rng, 200)...)
	for _, n := range []int{63, 64, 65, 127, 128, 129, 200, 1000} {
		long := `{"a":"` + strings.Repeat(`x\n`, n/3) + strings.Repeat("y", n%3) + `"}`
		lines = append(lines, []byte(long), []byte(long[:len(long)-2]), []byte(strings.Replace(long, "y", "\x01", 1)))
	}
	eachLoop(func(loop string) {
		var s Scanner
		for _, l := range lines {
			s.Reset(l)
			for i := range l {
				if l[i] != '"' {
					continue
				}
				end, err := s.stringEnd(i)
				wend, _, werr := s.String(i)
				if end != wend || fmt.Sprint(err) != fmt.Sprint(werr) {
					t.Fatalf("%s loop, %.120q at %d: stringEnd %d %v, String %d %v", loop, l, i, end, err, wend, werr)
				}
			}
		}
	})
}

package search

import (
	"bytes"
	"unsafe"
)

// finder looks for a byte pattern, ignoring ASCII case when fold is set:
// it jumps to the pattern's rarest byte (both cases of it) with
// bytes.IndexByte, which runs at memory speed, and compares the pattern
// around each one found.
type finder struct {
	// pat is the pattern, with ASCII letters lowered when fold is set.
	pat  []byte
	fold bool
	// rare is the offset in pat of the byte looked for; lo and up are
	// its two cases (equal when it has one).
	rare   int
	lo, up byte
}

func newFinder(pat []byte, fold bool) *finder {
	f := &finder{pat: bytes.Clone(pat), fold: fold}
	if fold {
		for i, c := range f.pat {
			f.pat[i] = lower(c)
		}
	}
	best := -1
	for i, c := range f.pat {
		if r := f.rank(c); best < 0 || r < best {
			best, f.rare = r, i
		}
	}
	f.lo, f.up = f.pat[f.rare], f.pat[f.rare]
	if fold && f.lo >= 'a' && f.lo <= 'z' {
		f.up = f.lo - 'a' + 'A'
	}
	return f
}

// rank is how often byte c (both cases of it, when folding) is expected
// in transcripts: lower is rarer.
func (f *finder) rank(c byte) int {
	r := int(byteFreq[c])
	if f.fold && c >= 'a' && c <= 'z' {
		r += int(byteFreq[c-'a'+'A'])
	}
	return r
}

func lower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// index is the offset of the first match in s, or -1.
func (f *finder) index(s []byte) int {
	n := len(f.pat)
	if len(s) < n {
		return -1
	}
	last := len(s) - n + f.rare // the last offset the rare byte can be at
	next := func(c byte, from int) int {
		if from > last {
			return -1
		}
		j := bytes.IndexByte(s[from:last+1], c)
		if j < 0 {
			return -1
		}
		return from + j
	}
	a := next(f.lo, f.rare)
	b := -1
	if f.up != f.lo {
		b = next(f.up, f.rare)
	}
	for a >= 0 || b >= 0 {
		p := a
		if p < 0 || (b >= 0 && b < p) {
			p = b
		}
		if start := p - f.rare; f.equal(s[start : start+n]) {
			return start
		}
		if p == a {
			a = next(f.lo, p+1)
		} else {
			b = next(f.up, p+1)
		}
	}
	return -1
}

// equal compares s with the pattern.
func (f *finder) equal(s []byte) bool {
	if f.fold {
		return equalFold(s, f.pat)
	}
	return bytes.Equal(s, f.pat)
}

// equalFold compares s with the lowered pattern pat, folding s's ASCII
// letters.
func equalFold(s, pat []byte) bool {
	for i, c := range pat {
		if lower(s[i]) != c {
			return false
		}
	}
	return true
}

// indexString is index for a string.
func (f *finder) indexString(s string) int {
	return f.index(stringBytes(s))
}

// byteFreq ranks bytes by how common they are in transcripts (JSON of
// English text and code): 255 for the most common. It only steers which
// byte of a pattern the finder jumps to; any order is correct.
var byteFreq = func() [256]byte {
	var t [256]byte
	for i := range t {
		t[i] = 10 // other bytes: rare
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = 120
	}
	// English letter frequency, lower case; capitals are rarer.
	const byFreq = "etaoinsrhldcumfpgwybvkxjqz"
	for i, c := range byFreq {
		t[c] = byte(200 - i*6)
		t[c-'a'+'A'] = byte(90 - i*3)
	}
	for _, c := range []byte{'"', ' ', ':', ','} {
		t[c] = 250
	}
	for _, c := range []byte{'\\', '-', '_', '.', '/', '{', '}', '[', ']'} {
		t[c] = 160
	}
	for _, c := range []byte{'(', ')', '=', '\'', '<', '>', '#', '*', '+', ';'} {
		t[c] = 60
	}
	for c := 0x80; c < 0x100; c++ {
		t[c] = 40
	}
	return t
}()

// stringBytes is s's bytes, not copied; they must not be written.
func stringBytes(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

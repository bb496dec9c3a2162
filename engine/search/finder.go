package search

import (
	"bytes"
	"unsafe"
)

// finder looks for a byte pattern, ignoring ASCII case when fold is set:
// it finds the places where two of the pattern's rarer bytes sit at
// their distance from each other (a pair, 16 places at a time) and
// compares the pattern at each.
type finder struct {
	// pat is the pattern, with ASCII letters lowered when fold is set.
	pat  []byte
	fold bool
	pair pair
}

func newFinder(pat []byte, fold bool) *finder {
	f := &finder{pat: bytes.Clone(pat), fold: fold}
	if fold {
		for i, c := range f.pat {
			f.pat[i] = lower(c)
		}
	}
	o1, o2 := f.rarest()
	f.pair = newPair(f.pat, o1, o2, fold)
	return f
}

// newFinderPair is newFinder with the pair at offsets o1 and o2, for a
// pattern of memscope's own whose bytes the frequency table ranks badly.
func newFinderPair(pat []byte, fold bool, o1, o2 int) *finder {
	f := newFinder(pat, fold)
	f.pair = newPair(f.pat, o1, o2, fold)
	return f
}

// rarest picks the pair's offsets: the pattern's rarest byte, and the
// rarest of the bytes some way from it (at least half the pattern's
// length, or 4, away), a different byte where there is one; a pattern of
// one byte gives that byte twice. Neighbours are not paired when others
// can be: two letters side by side come together far more often than
// two letters apart (the c and k of "deadlock" sit together in every
// "check"; its d and k only in words like it).
func (f *finder) rarest() (o1, o2 int) {
	for i, c := range f.pat {
		if f.rank(c) < f.rank(f.pat[o1]) {
			o1 = i
		}
	}
	far := max(1, min(len(f.pat)/2, 4))
	o2 = -1
	for pass := 0; pass < 3 && o2 < 0; pass++ {
		for i, c := range f.pat {
			d := i - o1
			if d < 0 {
				d = -d
			}
			if i == o1 || (pass == 0 && (c == f.pat[o1] || d < far)) || (pass == 1 && c == f.pat[o1]) {
				continue
			}
			if o2 < 0 || f.rank(c) < f.rank(f.pat[o2]) {
				o2 = i
			}
		}
	}
	if o2 < 0 {
		o2 = o1
	}
	return o1, o2
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
	end := len(s) - n + 1 // the places a match can start at
	for from := 0; from < end; {
		i := f.pair.next(s, from, end)
		if i < 0 {
			return -1
		}
		if f.equal(s[i : i+n]) {
			return i
		}
		from = i + 1
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
// two bytes of a pattern the pair compares; any order is correct.
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

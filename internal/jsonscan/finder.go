package jsonscan

import "bytes"

// commonBytes are the bytes of transcript lines, most frequent first
// (measured on generated homes and the fixtures); a byte not listed is
// rarer than every listed one.
const commonBytes = " ertnoaiscumldhfp\"\\bygkvwq:-,01x42369587j_{}/.ITB\n[]USZRCMDPHAFEON@<>L"

// Finder says whether a line holds a fixed string. bytes.Index looks for
// the string's first byte and checks each place it is: for a string that
// starts with a common letter ('c' of compact_boundary, '"' of a JSON
// key) that is a check every few bytes of every line. A Finder looks for
// the string from its rarest byte on (with bytes.Index, so by that byte)
// and checks the bytes before it only where that part is: the same
// answer, most lines passed over at memchr's speed.
type Finder struct {
	head, tail []byte
}

// NewFinder is the Finder of s (not empty).
func NewFinder(s string) Finder {
	k := 0
	rank := func(c byte) int {
		if i := bytes.IndexByte([]byte(commonBytes), c); i >= 0 {
			return i
		}
		return len(commonBytes)
	}
	for i := 1; i < len(s); i++ {
		if rank(s[i]) > rank(s[k]) {
			k = i
		}
	}
	return Finder{head: []byte(s[:k]), tail: []byte(s[k:])}
}

// In says whether d holds the string.
func (f Finder) In(d []byte) bool {
	for i := len(f.head); i <= len(d); {
		j := bytes.Index(d[i:], f.tail)
		if j < 0 {
			return false
		}
		j += i
		if bytes.Equal(d[j-len(f.head):j], f.head) {
			return true
		}
		i = j + 1
	}
	return false
}

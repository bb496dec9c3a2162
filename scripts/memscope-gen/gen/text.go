package gen

import (
	"encoding/hex"
	"math/rand/v2"
	"strings"
	"time"
)

// words make the filler prose. Everything written is made up here; no
// text is copied from real sessions.
var words = strings.Fields(`the a of to and in for with on that this from by build test cache index
memory session token context parser reader writer folder file line record prompt paste
history boundary summary usage request response model tool result output input value field
error check config setting branch commit review change update remove rename refactor module
package function method struct interface channel buffer stream chunk batch queue worker
deploy release version schema migration table column query filter sort merge split join`)

// fillerPool is a long run of filler text with JSON-escaped line breaks
// ("\n" as two characters), sliced to make large string fields without
// building text for each one.
var fillerPool = buildFillerPool(1<<20, 7)

func buildFillerPool(n int, seed uint64) string {
	return jsonEscape(plainText(rand.New(rand.NewPCG(seed, 0x5eed)), n))
}

// filler returns about n bytes of JSON-escaped filler text, never ending
// inside an escape sequence.
func filler(r *rand.Rand, n int) string {
	if n <= 0 {
		return ""
	}
	if n > len(fillerPool)-2 {
		n = len(fillerPool) - 2
	}
	start := r.IntN(len(fillerPool) - n)
	if start > 0 && fillerPool[start-1] == '\\' {
		start++
	}
	end := start + n
	for end > start && fillerPool[end-1] == '\\' {
		end--
	}
	return fillerPool[start:end]
}

// plainText returns n bytes of unescaped filler with real line breaks
// every few words (for pastes, whose sha256 is over the raw text).
func plainText(r *rand.Rand, n int) string {
	var b strings.Builder
	b.Grow(n + 16)
	col := 0
	for b.Len() < n {
		w := words[r.IntN(len(words))]
		b.WriteString(w)
		col += len(w) + 1
		if col > 30+r.IntN(60) {
			b.WriteByte('\n')
			col = 0
		} else {
			b.WriteByte(' ')
		}
	}
	return b.String()[:n]
}

// sentence returns a few plain words (no characters that need escaping).
func sentence(r *rand.Rand, nWords int) string {
	parts := make([]string, nWords)
	for i := range parts {
		parts[i] = words[r.IntN(len(words))]
	}
	return strings.Join(parts, " ")
}

// jsonEscape escapes s for use inside a JSON string.
func jsonEscape(s string) string {
	var b strings.Builder
	b.Grow(len(s) + len(s)/16)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\t':
			b.WriteString(`\t`)
		case c < 0x20:
			b.WriteString(`\u00`)
			b.WriteByte("0123456789abcdef"[c>>4])
			b.WriteByte("0123456789abcdef"[c&15])
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// newUUID makes a version-4-shaped uuid from r, so ids repeat by seed.
func newUUID(r *rand.Rand) string {
	var u [16]byte
	for i := 0; i < 16; i += 8 {
		v := r.Uint64()
		for j := 0; j < 8; j++ {
			u[i+j] = byte(v >> (8 * j))
		}
	}
	u[6] = u[6]&0x0f | 0x40
	u[8] = u[8]&0x3f | 0x80
	var b [36]byte
	hex.Encode(b[0:8], u[0:4])
	b[8] = '-'
	hex.Encode(b[9:13], u[4:6])
	b[13] = '-'
	hex.Encode(b[14:18], u[6:8])
	b[18] = '-'
	hex.Encode(b[19:23], u[8:10])
	b[23] = '-'
	hex.Encode(b[24:], u[10:])
	return string(b[:])
}

// randHex returns n random hex digits.
func randHex(r *rand.Rand, n int) string {
	b := make([]byte, (n+1)/2)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return hex.EncodeToString(b)[:n]
}

// isoMillis formats t the way the client does: UTC with milliseconds.
func isoMillis(t time.Time) string {
	return t.UTC().Format("2006-01-02T15:04:05.000Z")
}

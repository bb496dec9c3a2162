package jsonscan

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// blockLoops are the block loops of this processor: blocks (the
// assembly one where the processor has it) and blocksGo.
var blockLoops = map[string]func(d []byte, bitmap []words, c *carry, pad *[64]byte) bool{
	"blocks": blocks,
	"blocksGo": func(d []byte, bitmap []words, c *carry, pad *[64]byte) bool {
		return padded(blocksGo, d, bitmap, c, pad)
	},
}

// byteRule is what classify's bitmaps mean, a byte at a time in order:
// stops, then quote, esc and bad for each 64 bytes (bits past the text
// cleared).
func byteRule(d []byte) (stops []uint64, bitmap []words) {
	n := (len(d) + 63) / 64
	stops, bitmap = make([]uint64, n), make([]words, n)
	escaped, hexLeft := false, 0
	for p, c := range d {
		word, bit := p/64, uint64(1)<<(p%64)
		if c == '"' || c == '\\' || c < 0x20 {
			stops[word] |= bit
		}
		isEsc := escaped
		escaped = !isEsc && c == '\\'
		bad := c < 0x20
		if hexLeft > 0 {
			hexLeft--
			if !isHex[c] {
				bad = true
			}
		}
		if isEsc {
			bitmap[word].esc |= bit
			switch {
			case c == 'u':
				hexLeft = 4
			case c == '"' || c == '\\' || isShortEscape[c]:
			default:
				bad = true
			}
		}
		if c == '"' && !isEsc {
			bitmap[word].quote |= bit
		}
		if bad {
			bitmap[word].bad |= bit
		}
	}
	return stops, bitmap
}

// cleared is bitmap with the bits at and past n cleared.
func cleared(bitmap []words, n int) []words {
	w := append([]words(nil), bitmap...)
	for k := range w {
		if end := n - 64*k; end < 64 {
			keep := uint64(1)<<uint(max(end, 0)) - 1
			w[k] = words{w[k].quote & keep, w[k].esc & keep, w[k].bad & keep}
		}
	}
	return w
}

// TestClassifyIsTheByteRule holds both block loops to the byte rule on
// random texts of the bytes that matter (quotes, runs of backslashes,
// every escape letter, hex digits and not, control and high bytes) of
// every length up to five blocks, so each falls on every place of a
// block and across blocks; and the two loops to each other bit for bit.
func TestClassifyIsTheByteRule(t *testing.T) {
	alphabet := []byte("\"\\\\\\\\uuu0aF9gGxbfnrt/ \x00\x1f\n\x7f\x80\xff\xc3\xa9")
	rng := rand.New(rand.NewPCG(5, 6))
	for iter := range 30000 {
		n := iter % 330
		d := make([]byte, n)
		for i := range d {
			d[i] = alphabet[rng.IntN(len(alphabet))]
		}
		if iter%5 == 0 { // long runs of backslashes
			for i := 0; i < n; i++ {
				if rng.IntN(3) == 0 {
					for r := rng.IntN(9); r > 0 && i < n; r-- {
						d[i] = '\\'
						i++
					}
				}
			}
		}
		wantStops, wantBits := byteRule(d)
		var got []string
		for name := range blockLoops {
			stops, bm := make([]uint64, len(wantStops)), make([]words, len(wantBits))
			high := classify(blockLoops[name], d, bm, new(classifyState))
			stopBits(d, stops)
			if high == isASCII(string(d)) {
				t.Fatalf("%s(%q): high %v", name, d, high)
			}
			if fmt.Sprint(stops) != fmt.Sprint(wantStops) {
				t.Fatalf("%s(%q): stops %x, want %x", name, d, stops, wantStops)
			}
			if g := cleared(bm, n); fmt.Sprint(g) != fmt.Sprint(wantBits) {
				t.Fatalf("%s(%q): bitmaps %x, want %x", name, d, g, wantBits)
			}
			got = append(got, fmt.Sprintf("%x %x", stops, bm))
		}
		for _, g := range got[1:] {
			if g != got[0] {
				t.Fatalf("the block loops differ on %q: %s", d, got)
			}
		}
	}
}

// repoLines are the JSON lines of the repository's transcripts (the
// real-client-shaped ones of model/testdata and the generated home of
// testdata), read from the checkout only.
func repoLines(t testing.TB) [][]byte {
	var lines [][]byte
	for _, root := range []string{"../../testdata", "../../model/testdata", "../../engine/ledger/testdata"} {
		eachJSONLLine(root, func(l []byte) bool {
			lines = append(lines, l)
			return true
		})
	}
	if len(lines) < 100 {
		t.Fatalf("only %d transcript lines in the repository", len(lines))
	}
	return lines
}

// FuzzString holds String (read from the bitmaps) to the walk from stop
// to stop at every quote of any text, errors and offsets included.
func FuzzString(f *testing.F) {
	for _, in := range trickySeeds() {
		f.Add(in)
	}
	f.Add([]byte(`"\u00e9\"\\\/\b\f\n\r\t" "\u12" "\\\"" "` + strings.Repeat(`a\n`, 40) + `"`))
	// Real-client-shaped lines (every 40th of the repository's, up to
	// 16 KB each).
	for i, l := range repoLines(f) {
		if i%40 == 0 && len(l) <= 16<<10 {
			f.Add(l)
		}
	}
	f.Fuzz(func(t *testing.T, d []byte) {
		checkStrings(t, d)
	})
}

func checkStrings(t testing.TB, d []byte) {
	var s Scanner
	s.Reset(d)
	for i, c := range d {
		if c != '"' {
			continue
		}
		end, esc, err := s.String(i)
		wend, wesc, werr := s.stringWalk(i)
		if end != wend || esc != wesc || fmt.Sprint(err) != fmt.Sprint(werr) {
			t.Fatalf("String(%q, %d) = %d, %v, %v; the walk says %d, %v, %v", d, i, end, esc, err, wend, wesc, werr)
		}
	}
}

// TestStringOnRepoLines is FuzzString's check on every line of the
// repository's transcripts, and on each cut short and with a byte
// changed at random places (a quote, a backslash, a control byte).
func TestStringOnRepoLines(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, l := range repoLines(t) {
		checkStrings(t, l)
		for range 3 {
			m := bytes.Clone(l[:rng.IntN(len(l)+1)])
			if len(m) > 0 {
				m[rng.IntN(len(m))] = "\"\\\x01u"[rng.IntN(4)]
			}
			checkStrings(t, m)
		}
	}
}

// hostileLines are lines built to fall on the bitmaps' edges: strings of
// random escapes, good and bad, runs of backslashes and \u escapes cut
// anywhere across 64-byte blocks, control and invalid UTF-8 bytes, deep
// nesting and numbers of every shape.
func hostileLines(rng *rand.Rand, n int) [][]byte {
	parts := []string{`a`, `é`, "\xff", "\xc3", `\"`, `\\`, `\/`, `\b`, `\n`, `\u00e9`, `\uD83D\uDE00`, `\u12`, `\u12G4`, `\x`, `\`, `\\\`, `\\\\`, "\n", "\x01", "\t", `"`, ` `, `{`, `[`, `:`, `,`}
	nums := []string{`0`, `-0`, `1.5`, `-1e9`, `1E+2`, `2e-3`, `01`, `1.`, `.5`, `-`, `1e`, `+1`, `1e+`, `-01.0e-00`, `123456789012345678901234567890`}
	good := []string{`a`, `é`, "\xff", `\"`, `\\`, `\/`, `\b`, `\n`, `\u00e9`, `\uD83D\uDE00`, `\\\\`, ` `, `{`, `[`, `:`, `,`}
	var lines [][]byte
	for range n {
		// Half the lines are built to be valid, but for their nesting.
		fair := rng.IntN(2) == 0
		var b strings.Builder
		b.WriteString(`{"k":"`)
		for range rng.IntN(200) {
			if fair {
				b.WriteString(good[rng.IntN(len(good))])
			} else {
				b.WriteString(parts[rng.IntN(len(parts))])
			}
			if rng.IntN(8) == 0 {
				b.WriteString(strings.Repeat("y", rng.IntN(70)))
			}
		}
		b.WriteString(`","n":`)
		if fair {
			b.WriteString(nums[rng.IntN(6)])
		} else {
			b.WriteString(nums[rng.IntN(len(nums))])
		}
		if rng.IntN(2) == 0 {
			depth := rng.IntN(MaxDepth + 2)
			if rng.IntN(4) > 0 {
				depth = rng.IntN(40)
			}
			b.WriteString(`,"d":` + strings.Repeat("[", depth) + `"\\"` + strings.Repeat("]", depth))
		}
		if fair || rng.IntN(4) > 0 {
			b.WriteString("}")
		}
		line := []byte(b.String())
		if !fair && rng.IntN(5) == 0 {
			line = line[:rng.IntN(len(line)+1)]
		}
		lines = append(lines, line)
	}
	return lines
}

// TestHostileLinesAgree holds Members to json.Valid and String to the
// walk on the hostile lines.
func TestHostileLinesAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	valid := 0
	for _, l := range hostileLines(rng, 3000) {
		var s Scanner
		err := s.Members(l, func(k, v []byte) {})
		if (err == nil) != json.Valid(l) {
			t.Fatalf("Members(%q) = %v, json.Valid %v", l, err, json.Valid(l))
		}
		if err == nil {
			valid++
		}
		checkStrings(t, l)
	}
	if valid < 50 {
		t.Fatalf("only %d valid lines: the generator tests too little", valid)
	}
}

package jsonscan

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
)

// asciiPieces are the parts the random strings of TestUnquoteASCIIIsUnquote
// are made of: plain runs, every one-letter escape, \u escapes (ASCII,
// not, surrogates whole, lone, reversed, followed by another escape).
var asciiPieces = []string{
	"a", "plain text ", " ", `\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`, `\u0041`, `\u00e9`, `\u4E2D`,
	`\uD83D\uDE00`, `\uD83D`, `\uDE00`, `\uDE00\uD83D`, `\uD83D\u0041`, `\uD83D\n`, `\u0000`, `\uFFFF`, "{}[],:",
}

// isASCIIValidString says raw is one valid JSON string of ASCII bytes,
// the input UnquoteASCII is for.
func isASCIIValidString(raw []byte) bool {
	for _, c := range raw {
		if c >= 0x80 {
			return false
		}
	}
	var s Scanner
	s.Reset(raw)
	end, err := s.Value(0, 0)
	return err == nil && end == len(raw) && raw[0] == '"'
}

// UnquoteASCII answers as Unquote (json.Unmarshal's answer) on every
// valid ASCII string: the cases of unquoteCases that are, and random
// strings of asciiPieces.
func TestUnquoteASCIIIsUnquote(t *testing.T) {
	cases := []string{}
	for _, c := range unquoteCases {
		if isASCIIValidString([]byte(c)) {
			cases = append(cases, c)
		}
	}
	rng := rand.New(rand.NewPCG(32, 7))
	for range 20000 {
		var b strings.Builder
		b.WriteByte('"')
		for range rng.IntN(12) {
			b.WriteString(asciiPieces[rng.IntN(len(asciiPieces))])
		}
		b.WriteByte('"')
		cases = append(cases, b.String())
	}
	for _, c := range cases {
		if !isASCIIValidString([]byte(c)) || !json.Valid([]byte(c)) {
			t.Fatalf("%q: not a valid ASCII string", c)
		}
		want, _ := Unquote([]byte(c))
		if got := UnquoteASCII([]byte(c)); got != want {
			t.Fatalf("UnquoteASCII(%q) = %q, Unquote %q", c, got, want)
		}
	}
}

// FuzzUnquoteASCII: on any valid ASCII string, UnquoteASCII and
// Unquote agree.
func FuzzUnquoteASCII(f *testing.F) {
	for _, c := range unquoteCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if !isASCIIValidString(raw) {
			return
		}
		want, _ := Unquote(raw)
		if got := UnquoteASCII(raw); got != want {
			t.Fatalf("UnquoteASCII(%q) = %q, Unquote %q", raw, got, want)
		}
	})
}

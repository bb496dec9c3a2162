package cli

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/memscope/memscope/engine/search"
)

// appendHitJSON writes exactly what encoding/json writes for a hit (HTML
// not escaped): on hits with every optional field set and unset, and
// strings of every byte, invalid UTF-8, U+2028/U+2029 and the HTML
// characters encoding/json would escape by default.
func TestAppendHitJSONEqualsEncodingJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	pieces := []string{"", "a", "é", "日本", "\u2028", "\u2029", "<tag>&amp;", "\x7f", "\xff", "\xe2\x80", "\"q\"", `\`, "\U0001F600", "\ufffd"}
	for c := range 0x20 {
		pieces = append(pieces, string(rune(c)))
	}
	str := func() string {
		var b []byte
		for range rng.IntN(6) {
			if rng.IntN(3) == 0 {
				b = append(b, byte(rng.IntN(256)))
			} else {
				b = append(b, pieces[rng.IntN(len(pieces))]...)
			}
		}
		return string(b)
	}
	opt := func() string {
		if rng.IntN(2) == 0 {
			return ""
		}
		return str()
	}
	written := 0
	for i := range 5000 {
		h := search.Hit{Store: search.Store(str()), File: str(), Line: rng.IntN(1 << 20), Where: str(),
			Project: opt(), SessionID: opt(), AgentID: opt(), UUID: opt(), Role: opt(), Compaction: search.Compaction(opt()),
			Label: opt(), Snippet: str(), Match: [2]int{rng.IntN(100), rng.IntN(100)}, Count: rng.IntN(9), Offset: rng.IntN(1 << 30),
			Vault: rng.IntN(2) == 0}
		if rng.IntN(2) == 0 {
			h.Time = time.Unix(rng.Int64N(4e9), rng.Int64N(1e9)).In(time.FixedZone("", 3600*(rng.IntN(25)-12)))
		}
		if rng.IntN(3) > 0 {
			seen := rng.IntN(2) == 0
			h.Seen = &seen
		}
		if i%50 == 0 {
			h.Prompts = []search.PromptRef{{Line: 3}}
		}
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(h); err != nil {
			t.Fatal(err)
		}
		got, ok := appendHitJSON(nil, &h)
		if len(h.Prompts) > 0 {
			if ok {
				t.Fatalf("a hit with prompts was written by hand")
			}
			continue
		}
		if !ok || !bytes.Equal(got, want.Bytes()) {
			t.Fatalf("hit %d:\n got %q\nwant %q", i, got, want.Bytes())
		}
		written++
	}
	if written < 4000 {
		t.Errorf("only %d hits compared", written)
	}
}

// The eight-at-a-time paths (internal/jsonstr's plain8 behind
// appendJSONString, the ASCII run of needsRuneEscape) see every byte: a
// byte that needs an escape, or a rune escapeTerminalRunes rewrites, at
// every place of strings of plain ASCII around the word size is escaped
// as encoding/json escapes it, and found.
func TestEscapesAtEveryPlaceOfAWord(t *testing.T) {
	specials := []string{"\"", `\`, "\x00", "\x1f", "\n", "\x7f", "\x80", "\xff", "é", "\u2028", "\u202e", "\u0085", " ", "~", "!"}
	for n := range 40 {
		for at := 0; at < n; at++ {
			for _, sp := range specials {
				b := []byte(strings.Repeat("a~ Z", n)[:n])
				s := string(b[:at]) + sp + string(b[at+1:])
				var want bytes.Buffer
				enc := json.NewEncoder(&want)
				enc.SetEscapeHTML(false)
				if err := enc.Encode(s); err != nil {
					t.Fatal(err)
				}
				if got := string(appendJSONString(nil, s)) + "\n"; got != want.String() {
					t.Fatalf("%q: %q, want %q", s, got, want.String())
				}
				wantRune := false
				for _, r := range s {
					wantRune = wantRune || isTerminalRune(r)
				}
				if got := needsRuneEscape([]byte(s)); got != wantRune {
					t.Fatalf("needsRuneEscape(%q) = %v, want %v", s, got, wantRune)
				}
			}
		}
	}
}

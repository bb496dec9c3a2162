package jsonscan

import (
	"encoding/json"
	"testing"
)

// unquoteCases are strings where a hand-written decoder goes wrong:
// escapes, surrogate pairs (whole, lone, reversed, cut), invalid UTF-8,
// control bytes, stray quotes, \' (which encoding/json's scanner refuses),
// and values that are not strings at all.
var unquoteCases = []string{
	`""`, `"plain"`, `"tab\there"`, `"\"\\\/\b\f\n\r\t"`, `"\u00e9\u4e2d"`, `"\uD83D\uDE00"`,
	`"\uD83D"`, `"\uDE00"`, `"\uDE00\uD83D"`, `"\uD83Dx"`, `"\uD83D\u0041"`, `"\uD83D\uDE0"`, `"\uD83D\`,
	`"\u12"`, `"\u12G4"`, `"\x41"`, `"\'"`, `"a"b"`, "\"a\x01b\"", "\"\xff\xfe\"", "\"caf\xc3\"", "\"é\"",
	`"\`, `"`, `null`, `123`, ` "a" `, `"a" `, `"\\"`, `"\\\"`,
}

// unmarshal is encoding/json's answer, the one Unquote must give.
func unmarshal(raw []byte) (string, bool) {
	var t string
	if err := json.Unmarshal(raw, &t); err != nil {
		return "", false
	}
	return t, true
}

// Unquote answers as json.Unmarshal into a string does, case by case.
func TestUnquoteAsEncodingJSON(t *testing.T) {
	for _, c := range unquoteCases {
		got, gotOK := Unquote([]byte(c))
		want, wantOK := unmarshal([]byte(c))
		if got != want || gotOK != wantOK {
			t.Errorf("Unquote(%q) = %q, %v; encoding/json says %q, %v", c, got, gotOK, want, wantOK)
		}
	}
}

// FuzzUnquote: on any input, Unquote and json.Unmarshal agree.
func FuzzUnquote(f *testing.F) {
	for _, c := range unquoteCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		got, gotOK := Unquote(raw)
		want, wantOK := unmarshal(raw)
		if got != want || gotOK != wantOK {
			t.Fatalf("Unquote(%q) = %q, %v; encoding/json says %q, %v", raw, got, gotOK, want, wantOK)
		}
	})
}

// BenchmarkUnquote: a tool result's text with a few escapes.
func BenchmarkUnquote(b *testing.B) {
	raw := []byte(`"` + string(make([]byte, 0)) + "line one of the output\\nline two, \\\"quoted\\\" and a tab\\t" + `"`)
	for len(raw) < 4096 {
		raw = append(raw[:len(raw)-1], []byte(`more output text here\n"`)...)
	}
	b.SetBytes(int64(len(raw)))
	for b.Loop() {
		Unquote(raw)
	}
}

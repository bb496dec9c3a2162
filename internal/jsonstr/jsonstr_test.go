package jsonstr

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// marshal is encoding/json's quoting of s, HTML escaped or not.
func marshal(t testing.TB, s string, html bool) string {
	var buf bytes.Buffer
	e := json.NewEncoder(&buf)
	e.SetEscapeHTML(html)
	if err := e.Encode(s); err != nil {
		t.Fatal(err)
	}
	return strings.TrimSuffix(buf.String(), "\n")
}

// Every escape, at every offset from the eight-byte steps, with and
// without HTML escaping, as encoding/json writes it.
func TestAppendMatchesEncodingJSON(t *testing.T) {
	specials := []string{
		"\"", "\\", "\b", "\f", "\n", "\r", "\t", "\x00", "\x1f", "\x7f", "<", ">", "&",
		"\u2028", "\u2029", "\u2027", "\xff", "\xc3", "\xed\xa0\x80", "é", "✓", "𝄞",
	}
	for _, sp := range specials {
		for pre := 0; pre <= 17; pre++ {
			for _, post := range []int{0, 1, 7, 8, 9} {
				s := strings.Repeat("a", pre) + sp + strings.Repeat("b", post)
				for _, html := range []bool{false, true} {
					if got, want := string(Append([]byte("x"), s, html)), "x"+marshal(t, s, html); got != want {
						t.Errorf("%q html %v: %s, want %s", s, html, got, want)
					}
				}
			}
		}
	}
}

func FuzzAppend(f *testing.F) {
	f.Add("plain ascii text, long enough", true)
	f.Add("<a&b>\u2028\xff\"\\\n", false)
	f.Fuzz(func(t *testing.T, s string, html bool) {
		if got, want := string(Append(nil, s, html)), marshal(t, s, html); got != want {
			t.Fatalf("%q html %v: %s, want %s", s, html, got, want)
		}
	})
}

package model

import (
	"strings"
	"testing"
)

func TestSanitizeLine(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain name.md", "plain name.md"},
		{"line\nbreak.md", `line\nbreak.md`},
		{"tab\tname", `tab\tname`},
		{"crlf\r\nname", `crlf\nname`},
		{"esc\x1b[2Jclear\x1b]0;T\x07", "escclear"},
		{"bidi\u202eevil", "bidi<U+202E>evil"},
		{"", ""},
	} {
		got := SanitizeLine(tc.in)
		if got != tc.want {
			t.Errorf("SanitizeLine(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if strings.ContainsAny(got, "\n\t\r\x1b") {
			t.Errorf("SanitizeLine(%q) = %q keeps a row-breaking byte", tc.in, got)
		}
		if SanitizeLine(got) != got {
			t.Errorf("SanitizeLine is not idempotent on %q", tc.in)
		}
	}
}

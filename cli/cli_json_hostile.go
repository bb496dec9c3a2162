package cli

import (
	"bytes"
	"fmt"
	"unicode/utf8"

	"github.com/memscope/memscope/model"
)

// escapeTerminalRunes rewrites, in encoded JSON, the characters that
// encoding/json leaves raw but a terminal may act on or display out of
// order: DEL, the C1 controls U+0080–U+009F and the bidi controls. Each
// becomes a \u escape, which decodes to the same string, so `--json | cat`
// cannot retitle a terminal or reorder what a reader sees. Outside
// strings, JSON holds only ASCII punctuation, so every such rune is
// inside a string.
func escapeTerminalRunes(data []byte) []byte {
	if !needsRuneEscape(data) {
		return data
	}
	var b bytes.Buffer
	b.Grow(len(data) + 64)
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if isTerminalRune(r) {
			fmt.Fprintf(&b, `\u%04x`, r)
		} else {
			b.Write(data[i : i+size])
		}
		i += size
	}
	return b.Bytes()
}

// needsRuneEscape reports whether data holds any rune escapeTerminalRunes
// rewrites, so the common case costs one pass and no copy.
func needsRuneEscape(data []byte) bool {
	for i := 0; i < len(data); {
		if data[i] < utf8.RuneSelf {
			if data[i] == 0x7f {
				return true
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(data[i:])
		if isTerminalRune(r) {
			return true
		}
		i += size
	}
	return false
}

// isTerminalRune is DEL, a C1 control or a bidi control.
func isTerminalRune(r rune) bool {
	return r == 0x7f || (r >= 0x80 && r <= 0x9f) || model.IsBidiControl(r)
}

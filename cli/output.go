package cli

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"unicode/utf8"

	"github.com/memscope/memscope/model"
)

// output prints a command's result: as indented JSON when asJSON, else
// the text report, written through the stdout meant for people
// (terminal controls stripped).
func (e *env) output(asJSON bool, v any, text func(w io.Writer)) error {
	if asJSON {
		return writeJSON(e.stdout, v)
	}
	text(humanOutput(e.stdout))
	return nil
}

// writeJSON prints v as indented JSON, with terminal controls escaped.
func writeJSON(w io.Writer, v any) error {
	var buf bytes.Buffer
	if err := jsonEncoder(&buf, "").Encode(v); err != nil {
		return err
	}
	_, err := w.Write(escapeTerminalRunes(buf.Bytes()))
	return err
}

// jsonEncoder is writeJSON's encoder: two-space indents after prefix
// (the indent of a value inside the document), HTML left as it is.
func jsonEncoder(w io.Writer, prefix string) *json.Encoder {
	enc := json.NewEncoder(w)
	enc.SetIndent(prefix, "  ")
	enc.SetEscapeHTML(false)
	return enc
}

// sanitizingWriter strips terminal control sequences from what is written
// through it: text reports print content from transcripts, memory files
// and CLAUDE.md, which is untrusted. Each Fprintf is one Write, so a
// sequence inside one printed value is never split across writes.
type sanitizingWriter struct{ w io.Writer }

func (s sanitizingWriter) Write(p []byte) (int, error) {
	if _, err := io.WriteString(s.w, model.SanitizeForTerminal(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// humanOutput is w for a text report meant for people.
func humanOutput(w io.Writer) io.Writer { return sanitizingWriter{w: w} }

// exactOutput is w for bytes that must stay exact when piped (an export,
// the assembled prompt text), made safe only when w is a terminal.
func exactOutput(w io.Writer) io.Writer {
	if isTerminal(w) {
		return humanOutput(w)
	}
	return w
}

// isTerminal reports whether f (a writer or a reader) is a terminal.
func isTerminal(w any) bool {
	f, ok := w.(*os.File)
	return ok && isTerminalFd(f.Fd())
}

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
		if i+8 <= len(data) {
			// Eight ASCII bytes without DEL: most of the output.
			if v := binary.LittleEndian.Uint64(data[i:]); v&swarHighs == 0 && !swarZero(v^0x7f*swarOnes) {
				i += 8
				continue
			}
		}
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

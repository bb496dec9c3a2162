package model

import (
	"strings"
	"unicode/utf8"
)

// Control bytes and runes the sanitizer treats specially.
const (
	termESC = 0x1b
	termBEL = 0x07
	termDEL = 0x7f

	termC1First = 0x80
	termC1Last  = 0x9f
	termC1DCS   = 0x90
	termC1SOS   = 0x98
	termC1CSI   = 0x9b
	termC1ST    = 0x9c
	termC1OSC   = 0x9d
	termC1PM    = 0x9e
	termC1APC   = 0x9f
)

// ControlKind names a kind of terminal control found in text.
type ControlKind string

// The kinds of terminal control ControlAt recognises.
const (
	// ControlNone means no control starts at the position.
	ControlNone ControlKind = ""
	// ControlCSI is a control sequence (ESC [ or U+009B): cursor movement,
	// colours, screen clearing.
	ControlCSI ControlKind = "CSI"
	// ControlOSC is an operating system command string (ESC ] or U+009D):
	// window titles, hyperlinks, clipboard writes.
	ControlOSC ControlKind = "OSC"
	// ControlDCS is a device control string (ESC P or U+0090).
	ControlDCS ControlKind = "DCS"
	// ControlSOS is a start-of-string string (ESC X or U+0098).
	ControlSOS ControlKind = "SOS"
	// ControlPM is a privacy message string (ESC ^ or U+009E).
	ControlPM ControlKind = "PM"
	// ControlAPC is an application program command string (ESC _ or U+009F).
	ControlAPC ControlKind = "APC"
	// ControlESC is any other escape sequence, or a lone ESC.
	ControlESC ControlKind = "ESC"
	// ControlC1 is a C1 control (U+0080–U+009F) that introduces nothing.
	ControlC1 ControlKind = "C1"
	// ControlC0 is a C0 control byte other than "\n" and "\t", or DEL.
	ControlC0 ControlKind = "C0"
)

// IsBidiControl reports whether r is a bidirectional embedding, override or
// isolate control (U+202A–U+202E, U+2066–U+2069): the characters
// "Trojan Source" attacks use to make text display in another order than it
// is read.
func IsBidiControl(r rune) bool {
	return (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069)
}

// BidiPlaceholder is what SanitizeForTerminal shows instead of a bidi
// control: visible, plain ASCII, and naming the code point ("<U+202E>").
func BidiPlaceholder(r rune) string {
	var b strings.Builder
	writeCodePoint(&b, r)
	return b.String()
}

// writeCodePoint writes r as "<U+XXXX>" without allocating per call.
func writeCodePoint(b *strings.Builder, r rune) {
	const hex = "0123456789ABCDEF"
	var buf [16]byte
	n := len(buf)
	for v := uint32(r); v > 0 || n > len(buf)-4; v >>= 4 {
		n--
		buf[n] = hex[v&0xf]
	}
	b.WriteString("<U+")
	b.Write(buf[n:])
	b.WriteByte('>')
}

// ControlAt reports whether a terminal control starts at s[i]: its kind and
// the index just past the whole control, sequence or string it introduces.
// It returns ControlNone and i when s[i] starts ordinary text (including
// "\n", "\t" and invalid UTF-8).
//
// A control string (OSC, DCS, SOS, PM, APC) ends at BEL, ESC \ or U+009C;
// one that is never terminated ends before the next newline rather than
// swallowing the rest of the text, so one stray introducer cannot hide a
// whole file from the person reviewing it.
func ControlAt(s string, i int) (ControlKind, int) {
	if i < 0 || i >= len(s) {
		return ControlNone, i
	}
	c := s[i]
	switch {
	case c == termESC:
		return termEscape(s, i)
	case c == '\n' || c == '\t':
		return ControlNone, i
	case c < 0x20 || c == termDEL:
		return ControlC0, i + 1
	case c < utf8.RuneSelf:
		return ControlNone, i
	}
	r, size := utf8.DecodeRuneInString(s[i:])
	if r < termC1First || r > termC1Last || size != 2 {
		return ControlNone, i
	}
	if r == termC1CSI {
		return ControlCSI, termSkipCSI(s, i+size)
	}
	if kind := termStringKind(r); kind != ControlNone {
		return kind, termSkipString(s, i+size)
	}
	return ControlC1, i + size
}

// SanitizeForTerminal returns s made safe to print on a terminal. Transcript
// and memory content is untrusted: an escape sequence in it could recolour,
// retitle or hyperlink the screen, write the clipboard, or hide text. The
// result
//   - has no escape sequences: everything ControlAt finds is removed whole;
//   - has no C0 controls except "\n" and "\t", no DEL and no C1 controls
//     (U+0080–U+009F), so a lone "\r" cannot overwrite a line;
//   - shows bidi controls as a visible placeholder (see BidiPlaceholder);
//   - is valid UTF-8: each invalid byte becomes U+FFFD.
//
// Sanitizing is idempotent, and text without anything to remove is returned
// unchanged without copying.
func SanitizeForTerminal(s string) string {
	if termClean(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		if kind, end := ControlAt(s, i); kind != ControlNone {
			i = end
			continue
		}
		if c := s[i]; c < utf8.RuneSelf {
			b.WriteByte(c)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteRune(utf8.RuneError)
		case IsBidiControl(r):
			writeCodePoint(&b, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// termClean reports whether s needs no change, so the common case costs one
// pass and no allocation.
func termClean(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if (c < 0x20 && c != '\n' && c != '\t') || c == termDEL {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || (r >= termC1First && r <= termC1Last) || IsBidiControl(r) {
			return false
		}
		i += size
	}
	return true
}

// termEscape classifies the escape sequence that starts with the ESC at
// s[i] and returns the index just past it.
func termEscape(s string, i int) (ControlKind, int) {
	j := i + 1
	if j >= len(s) {
		return ControlESC, j
	}
	if s[j] == '[' {
		return ControlCSI, termSkipCSI(s, j+1)
	}
	if kind := termStringKind(rune(s[j])); kind != ControlNone && s[j] < utf8.RuneSelf {
		return kind, termSkipString(s, j+1)
	}
	// nF sequences: intermediates 0x20–0x2F, then one final 0x30–0x7E.
	for j < len(s) && s[j] >= 0x20 && s[j] <= 0x2f {
		j++
	}
	if j < len(s) && s[j] >= 0x30 && s[j] <= 0x7e {
		return ControlESC, j + 1
	}
	// Not a valid sequence: the ESC and its intermediates go; whatever
	// follows is ordinary input.
	return ControlESC, j
}

// termStringKind is the kind of control string that r introduces, as the
// byte after ESC or as a C1 control, or ControlNone.
func termStringKind(r rune) ControlKind {
	switch r {
	case ']', termC1OSC:
		return ControlOSC
	case 'P', termC1DCS:
		return ControlDCS
	case 'X', termC1SOS:
		return ControlSOS
	case '^', termC1PM:
		return ControlPM
	case '_', termC1APC:
		return ControlAPC
	}
	return ControlNone
}

// termSkipCSI skips the parameter bytes (0x30–0x3F), intermediate bytes
// (0x20–0x2F) and final byte (0x40–0x7E) of a control sequence starting at
// s[j]. A byte outside those ranges ends the sequence early and is left for
// the caller, as terminals do.
func termSkipCSI(s string, j int) int {
	for j < len(s) && s[j] >= 0x30 && s[j] <= 0x3f {
		j++
	}
	for j < len(s) && s[j] >= 0x20 && s[j] <= 0x2f {
		j++
	}
	if j < len(s) && s[j] >= 0x40 && s[j] <= 0x7e {
		j++
	}
	return j
}

// termSkipString skips the body of an OSC, DCS, SOS, PM or APC string
// starting at s[j], up to and including its terminator: BEL, ESC \ or the
// C1 ST. An unterminated string ends before the next newline (kept) or at
// the end of s.
func termSkipString(s string, j int) int {
	for j < len(s) {
		switch s[j] {
		case termBEL:
			return j + 1
		case '\n':
			return j
		case termESC:
			if j+1 < len(s) && s[j+1] == '\\' {
				return j + 2
			}
			// An ESC that is not ST aborts the string; the caller then
			// reads the ESC as the start of a new sequence.
			return j
		}
		if s[j] == 0xc2 && j+1 < len(s) && s[j+1] == termC1ST {
			return j + 2
		}
		j++
	}
	return j
}

// SanitizeLine is SanitizeForTerminal for text that must stay on one row:
// a file name, a session id, a project path, a one-line message. A name
// may legally hold a newline or a tab; shown raw it would split a row in
// two or shift its columns, so each shows as the two characters `\n` or
// `\t` (and "\r\n" as `\n`).
func SanitizeLine(s string) string {
	s = SanitizeForTerminal(s)
	if !strings.ContainsAny(s, "\n\t") {
		return s
	}
	return lineReplacer.Replace(s)
}

// lineReplacer spells out the white space SanitizeLine keeps off a row.
var lineReplacer = strings.NewReplacer("\n", `\n`, "\t", `\t`)

// Package hostilehome writes Claude homes whose content is hostile to a
// terminal or to a reader: escape sequences, bidi controls, a huge single
// line, deeply nested JSON, a million files, odd file names and symlinks
// that leave the home. scripts/memscope-hostile is its command line; memscope's
// hostile-content tests use it directly so the script and the tests cannot
// drift apart.
package hostilehome

// Payload is one named piece of hostile text.
type Payload struct {
	// Name says what the text would do to a terminal that printed it raw.
	Name string
	// Text is the text itself.
	Text string
}

// EscapePayloads are terminal control sequences: each would change the
// screen, the window title, the clipboard or a hyperlink if printed raw.
var EscapePayloads = []Payload{
	{"csi-clear", "\x1b[2J\x1b[H"},
	{"csi-cursor", "\x1b[10;5H\x1b[3A\x1b[2K"},
	{"csi-color", "\x1b[31;1mred\x1b[0m"},
	{"osc0-title-bel", "\x1b]0;PWNED-TITLE\x07"},
	{"osc2-title-st", "\x1b]2;PWNED-TITLE\x1b\\"},
	{"osc52-clipboard", "\x1b]52;c;cm0gLXJmIH4K\x07"},
	{"osc8-hyperlink", "\x1b]8;;https://evil.example/\x1b\\click\x1b]8;;\x1b\\"},
	{"dcs", "\x1bP1$qm\x1b\\"},
	{"c1-csi", "\u009b2J"},
	{"c1-osc", "\u009d0;C1-TITLE\u009c"},
	{"c1-nel", "a\u0085b"},
	{"bel", "ding\a"},
	{"backspace-cr", "safe\b\b\b\bEVIL\roverwrite"},
	{"lone-esc", "tail\x1b"},
}

// BidiPayloads are bidirectional controls that make text display in another
// order than it is read ("Trojan Source").
var BidiPayloads = []Payload{
	{"rlo", "access\u202e level: user\u202c"},
	{"lre-rle", "\u202aleft\u202c \u202bright\u202c"},
	{"lro", "\u202doverride\u202c"},
	{"isolates", "\u2066lri\u2069 \u2067rli\u2069 \u2068fsi\u2069"},
	{"trojan", "if (isAdmin) { \u202e } \u2066 // check later \u2069 \u2066"},
}

// Joined returns every payload's text in one string, each after its name so
// a reader can tell where each landed.
func Joined(ps []Payload) string {
	s := ""
	for _, p := range ps {
		s += " [" + p.Name + "] " + p.Text
	}
	return s
}

// ForbiddenInOutput reports the first byte or rune of out that a terminal
// would act on: ESC, BEL, any other C0 control except "\n" and "\t", DEL, a
// C1 control (U+0080–U+009F) or a bidi control. ok is false when one is
// found, with its byte offset.
func ForbiddenInOutput(out string) (offset int, r rune, ok bool) {
	for i, c := range out {
		switch {
		case c == '\n' || c == '\t':
		case c < 0x20 || c == 0x7f:
			return i, c, false
		case c >= 0x80 && c <= 0x9f:
			return i, c, false
		case (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069):
			return i, c, false
		}
	}
	return -1, 0, true
}

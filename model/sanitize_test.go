package model

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestSanitizeForTerminal(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string
	}{
		{"empty", "", ""},
		{"plain text kept", "hello, world\n\tindented", "hello, world\n\tindented"},
		{"unicode kept", "naïve café — 日本語 👍", "naïve café — 日本語 👍"},
		{"SGR colour removed", "\x1b[31mred\x1b[0m text", "red text"},
		{"CSI with intermediates", "a\x1b[1 qb", "ab"},
		{"CSI private params", "\x1b[?1049hscreen\x1b[?25l", "screen"},
		{"clear screen and home", "\x1b[2J\x1b[Hx", "x"},
		{"CSI cut short by newline keeps newline", "a\x1b[12\nb", "a\nb"},
		{"OSC title BEL", "\x1b]0;pwned\x07after", "after"},
		{"OSC title ST", "\x1b]2;pwned\x1b\\after", "after"},
		{"OSC 8 hyperlink keeps label", "\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\ me", "click me"},
		{"OSC 52 clipboard", "x\x1b]52;c;ZWNobyBoaQ==\x07y", "xy"},
		{"OSC with C1 ST", "\x1b]0;t\u009cafter", "after"},
		{"unterminated OSC stops at newline", "a\x1b]0;title\nnext line", "a\nnext line"},
		{"unterminated OSC at end", "a\x1b]0;title", "a"},
		{"DCS string", "a\x1bPq#0;2;0;0;0\x1b\\b", "ab"},
		{"APC string", "a\x1b_Gf=100;AAAA\x1b\\b", "ab"},
		{"PM and SOS strings", "a\x1b^pm\x1b\\b\x1bXsos\x1b\\c", "abc"},
		{"string aborted by new ESC", "a\x1b]0;t\x1b[31mb", "ab"},
		{"two char ESC", "a\x1bcb\x1b7c\x1b8d", "abcd"},
		{"nF ESC with intermediate", "a\x1b(Bb", "ab"},
		{"lone ESC at end", "abc\x1b", "abc"},
		{"ESC before non ASCII", "a\x1bé", "aé"},
		{"C1 CSI", "a\u009b31mb", "ab"},
		{"C1 OSC with BEL", "a\u009d0;t\x07b", "ab"},
		{"C1 NEL and others dropped", "a\u0085b\u0080c\u0084d", "abcd"},
		{"C1 APC string", "a\u009fGf=1\u009cb", "ab"},
		{"C0 controls dropped", "a\x00b\x07c\x08d\x0be\x0cf\x7fg", "abcdefg"},
		{"CR dropped so it cannot overwrite", "safe\rEVIL", "safeEVIL"},
		{"CRLF becomes LF", "one\r\ntwo\r\n", "one\ntwo\n"},
		{"RLO shown", "abc\u202Edcb", "abc<U+202E>dcb"},
		{"isolates shown", "\u2066x\u2069", "<U+2066>x<U+2069>"},
		{"invalid UTF-8 replaced", "a\xffb\xc3", "a\uFFFDb\uFFFD"},
		{"raw 8-bit CSI byte is invalid UTF-8", "a\x9b31mb", "a\uFFFD31mb"},
		{"zero width kept", "a\u200bb", "a\u200bb"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := SanitizeForTerminal(tc.in)
			if got != tc.want {
				t.Errorf("SanitizeForTerminal(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestControlAt(t *testing.T) {
	tests := []struct {
		in   string
		at   int
		kind ControlKind
		end  int
	}{
		{"abc", 0, ControlNone, 0},
		{"a\nb", 1, ControlNone, 1},
		{"\t", 0, ControlNone, 0},
		{"x\x1b[1;31my", 1, ControlCSI, 8},
		{"\x1b]0;t\x07z", 0, ControlOSC, 6},
		{"\x1b]0;t\x1b\\z", 0, ControlOSC, 7},
		{"\x1bPq\x1b\\", 0, ControlDCS, 5},
		{"\x1bXs\x07", 0, ControlSOS, 4},
		{"\x1b^p\x07", 0, ControlPM, 4},
		{"\x1b_a\x07", 0, ControlAPC, 4},
		{"\x1b(B", 0, ControlESC, 3},
		{"\x1b", 0, ControlESC, 1},
		{"\r\n", 0, ControlC0, 1},
		{"\x7f", 0, ControlC0, 1},
		{"\u0085x", 0, ControlC1, 2},
		{"\u009b2J", 0, ControlCSI, 4},
		{"\u009d0;t\u009c", 0, ControlOSC, 7},
		{"\xc2", 0, ControlNone, 0},
		{"\x1b\x90q", 0, ControlESC, 1},
		{"é", 0, ControlNone, 0},
		{"ab", 5, ControlNone, 5},
		{"ab", -1, ControlNone, -1},
	}
	for _, tc := range tests {
		kind, end := ControlAt(tc.in, tc.at)
		if kind != tc.kind || end != tc.end {
			t.Errorf("ControlAt(%q, %d) = %q, %d; want %q, %d", tc.in, tc.at, kind, end, tc.kind, tc.end)
		}
	}
}

func TestSanitizeForTerminalLongLine(t *testing.T) {
	line := strings.Repeat("x", 10<<20)
	in := line + "\x1b[31m" + line
	got := SanitizeForTerminal(in)
	if len(got) != 2*len(line) || strings.IndexByte(got, 0x1b) >= 0 {
		t.Fatalf("10 MiB line: got length %d, want %d without ESC", len(got), 2*len(line))
	}
}

// sanitizeViolation reports the first byte or rune that must never reach a
// terminal, or "" when out is safe.
func sanitizeViolation(out string) string {
	if !utf8.ValidString(out) {
		return "invalid UTF-8"
	}
	for _, r := range out {
		switch {
		case r == '\n' || r == '\t':
		case r < 0x20 || r == 0x7f:
			return "C0 control"
		case r >= 0x80 && r <= 0x9f:
			return "C1 control"
		case IsBidiControl(r):
			return "bidi control"
		}
	}
	return ""
}

func FuzzSanitizeForTerminal(f *testing.F) {
	f.Add("plain")
	f.Add("\x1b[31mred\x1b[0m")
	f.Add("\x1b]8;;http://x\x07y\x1b]8;;\x07")
	f.Add("\u009b1;2H\u009d0;t\u009c")
	f.Add("a\u202eb\xff")
	f.Fuzz(func(t *testing.T, in string) {
		out := SanitizeForTerminal(in)
		if why := sanitizeViolation(out); why != "" {
			t.Fatalf("SanitizeForTerminal(%q) = %q contains %s", in, out, why)
		}
		if again := SanitizeForTerminal(out); again != out {
			t.Fatalf("not idempotent: %q -> %q -> %q", in, out, again)
		}
		if sanitizeViolation(in) == "" && strings.IndexByte(in, 0x1b) < 0 && out != in {
			t.Fatalf("safe input changed: %q -> %q", in, out)
		}
		for i := 0; i < len(in); i++ {
			if kind, end := ControlAt(in, i); kind != ControlNone && end <= i {
				t.Fatalf("ControlAt(%q, %d) = %q, %d: no progress", in, i, kind, end)
			}
		}
		if strings.Count(out, "\n") > strings.Count(in, "\n") {
			t.Fatalf("newlines added: %q -> %q", in, out)
		}
	})
}

func BenchmarkSanitizeForTerminal(b *testing.B) {
	plain := strings.Repeat("The quick brown fox jumps over the lazy dog. 日本語\n", 20000)
	dirty := strings.Repeat("\x1b[1;31mred\x1b[0m text \x1b]8;;https://x.example\x07link\x1b]8;;\x07 \u202e\n", 20000)
	b.Run("clean", func(b *testing.B) {
		b.SetBytes(int64(len(plain)))
		for b.Loop() {
			SanitizeForTerminal(plain)
		}
	})
	b.Run("escapes", func(b *testing.B) {
		b.SetBytes(int64(len(dirty)))
		for b.Loop() {
			SanitizeForTerminal(dirty)
		}
	})
}

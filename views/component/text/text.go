// Package text formats values for the panes: sizes, truncation, wrapping.
// The same helpers everywhere (ages are internal/format's Ago, shared
// with the command line).
package text

import (
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/memscope/memscope/internal/format"
	"github.com/memscope/memscope/model"
)

// Bytes formats a size as 512B, 4.1K, 12.0M, 1.2G: the panes' style,
// written by internal/format with the command line's.
func Bytes(n int64) string { return format.CompactBytes(n) }

// printable reports whether s is printable ASCII only: one cell a byte,
// no line break and no escape sequence, so lipgloss.Width(s) is len(s).
func printable(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e {
			return false
		}
	}
	return true
}

// width is lipgloss.Width(s) (the widest line's cells), without
// measuring grapheme clusters where s is printable ASCII: most of what
// the panes cut, pad and wrap, on every frame.
func width(s string) int {
	if printable(s) {
		return len(s)
	}
	return lipgloss.Width(s)
}

// Truncate cuts s to at most w cells, ending with "…" when cut.
func Truncate(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if width(s) <= w {
		return s
	}
	if printable(s) {
		return s[:w-1] + "…"
	}
	var b strings.Builder
	width := 0
	for _, r := range s {
		rw := lipgloss.Width(string(r))
		if width+rw > w-1 {
			break
		}
		b.WriteRune(r)
		width += rw
	}
	return b.String() + "…"
}

// TruncateLeft cuts s to at most w cells keeping the end ("…/long/path").
func TruncateLeft(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if width(s) <= w {
		return s
	}
	if printable(s) {
		return "…" + s[len(s)-(w-1):]
	}
	r := []rune(s)
	for i := range r {
		if lipgloss.Width(string(r[i:])) <= w-1 {
			return "…" + string(r[i:])
		}
	}
	return "…"
}

// Pad pads s with spaces to w cells.
func Pad(s string, w int) string {
	if n := width(s); n < w {
		return s + strings.Repeat(" ", w-n)
	}
	return s
}

// OneLine replaces line breaks and tabs with spaces, for list rows.
func OneLine(s string) string {
	return strings.NewReplacer("\r\n", " ⏎ ", "\n", " ⏎ ", "\r", " ", "\t", " ").Replace(s)
}

// FileLine is one line of an untrusted file (a backup, a CLAUDE.md, a
// diff of them) made safe to print on one row: terminal controls
// stripped, tabs expanded (indentation keeps its shape; a raw tab would
// be one cell to the cut and several on the screen), what breaks a line
// shown as OneLine shows it.
func FileLine(l string) string {
	return OneLine(ExpandTabs(model.SanitizeForTerminal(l)))
}

// TabWidth is how many cells apart the tab stops are when a detail
// expands tabs (ExpandTabs): four, as most editors show code, and narrow
// enough for a diff at 80 columns.
const TabWidth = 4

// ExpandTabs replaces each tab in a line with the spaces up to the next
// tab stop (every TabWidth cells from the line's start), so indented code
// keeps its shape; a terminal would draw a raw tab as it likes, and a
// cut to the width would count it as one cell.
func ExpandTabs(s string) string {
	if !strings.Contains(s, "\t") {
		return s
	}
	var b strings.Builder
	col := 0
	for _, part := range strings.SplitAfter(s, "\t") {
		seg, tab := strings.CutSuffix(part, "\t")
		b.WriteString(seg)
		col += lipgloss.Width(seg)
		if tab {
			n := TabWidth - col%TabWidth
			b.WriteString(strings.Repeat(" ", n))
			col += n
		}
	}
	return b.String()
}

// Wrap breaks s at spaces into lines of at most w cells, keeping its
// line breaks. A word longer than w stays whole on its own line.
func Wrap(s string, w int) string {
	if w < 10 {
		return s
	}
	var out []string
	for _, para := range strings.Split(s, "\n") {
		line := ""
		for _, word := range strings.Fields(para) {
			if line != "" && width(line)+1+width(word) > w {
				out = append(out, line)
				line = ""
			}
			if line != "" {
				line += " "
			}
			line += word
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}

// Tokens formats a token count as 950, 1.2k, 168k, 1.2M.
func Tokens(n int64) string {
	switch {
	case n < 1000:
		return fmt.Sprintf("%d", n)
	case n < 10000:
		return fmt.Sprintf("%.1fk", float64(n)/1000)
	case n < 1000000:
		return fmt.Sprintf("%dk", n/1000)
	}
	return fmt.Sprintf("%.1fM", float64(n)/1000000)
}

// LegendEntry explains one symbol or badge a pane draws; the help overlay
// (?) lists a pane's entries under its keys.
type LegendEntry struct {
	// Mark is the symbol or badge as the pane draws it.
	Mark string
	// Means says what it means.
	Means string
}

// Count is n with its noun, singular for one: "1 file", "2 files". many
// is the plural; empty adds "s" to one. Written by internal/format, as the
// command line writes it.
func Count(n int, one, many string) string { return format.Count(n, one, many) }

// SplitMatch splits a one-line snippet around the match at byte range
// mt (the whole snippet is before it when mt is out of range).
func SplitMatch(s string, mt [2]int) (before, match, after string) {
	if mt[0] < 0 || mt[1] > len(s) || mt[0] > mt[1] {
		return OneLine(s), "", ""
	}
	return OneLine(s[:mt[0]]), OneLine(s[mt[0]:mt[1]]), OneLine(s[mt[1]:])
}

// FitMatch draws before, match and after in w cells, the match between
// « and » and styled by mark; the context is cut on both sides so the
// match stays in view.
func FitMatch(before, match, after string, w int, mark func(...string) string) string {
	match = Truncate(match, max(w-2, 1))
	room := w - lipgloss.Width(match) - 2
	keepB := min(lipgloss.Width(before), max(room/3, room-lipgloss.Width(after)))
	before = TruncateLeft(before, max(keepB, 0))
	after = Truncate(after, max(room-lipgloss.Width(before), 0))
	return before + mark("«"+match+"»") + after
}

// Head is a pane's summary line wrapped at w, each line rendered with st,
// and how many lines it takes: a summary holds counts the user reads, so
// it wraps rather than being cut with "…".
func Head(s string, w int, st lipgloss.Style) (string, int) {
	lines := strings.Split(Wrap(s, w), "\n")
	for i, l := range lines {
		lines[i] = st.Render(Truncate(l, w))
	}
	return strings.Join(lines, "\n"), len(lines)
}

// Lines is s broken into lines of at most w cells, inside a word too (a
// long path or name), each rendered with st: a question or a path read
// whole rather than cut with "…".
func Lines(s string, w int, st lipgloss.Style) []string {
	lines := strings.Split(ansi.Wrap(s, max(w, 1), ""), "\n")
	for i, l := range lines {
		lines[i] = st.Render(l)
	}
	return lines
}

// Package hit shows a search hit inside a pane's detail: a heading that
// says where the hit is with its snippet's match marked (Header, the
// Replay pane's and the file panes'), and a text file's lines, numbered,
// with the hit's line marked and its match between « and » (Doc: the
// Prompt pane's CLAUDE.md files, the Files pane's backups). It knows
// nothing of the search engine: a pane hands it a Spot.
package hit

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"charm.land/lipgloss/v2"

	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/views/component/style"
	"github.com/memscope/memscope/views/component/text"
)

// Spot is where a hit is and what it matched.
type Spot struct {
	// Line is the 1-based line of the match (a record's line in a
	// transcript).
	Line int
	// Offset is the match's byte offset in the file; negative when not
	// known (Doc then goes by Line).
	Offset int
	// Where says what the text is ("project", "backup v1 of …", "text"),
	// Seeing whether the model still sees it ("" to leave it out).
	Where, Seeing string
	// Snippet is the text around the match, on one line; Match is the
	// match's byte range in it.
	Snippet string
	Match   [2]int
}

// matchText is the text the hit matched, from its snippet.
func (s Spot) matchText() string {
	if s.Match[0] < 0 || s.Match[1] > len(s.Snippet) || s.Match[0] >= s.Match[1] {
		return ""
	}
	return s.Snippet[s.Match[0]:s.Match[1]]
}

// markStyle draws a match: the search overlay's and Replay's mark.
func markStyle(st style.Styles) func(...string) string {
	return st.Warn.Underline(true).Render
}

// Header is the two lines over a hit: where it is ("⌕ search hit: line
// N · where · seeing") and its snippet with the match marked, cut to w.
func Header(s Spot, st style.Styles, w int) []string {
	place := fmt.Sprintf("⌕ search hit: line %d", s.Line)
	if s.Where != "" {
		place += " · " + model.SanitizeLine(s.Where)
	}
	if s.Seeing != "" {
		place += " · " + s.Seeing
	}
	before, match, after := text.SplitMatch(s.Snippet, s.Match)
	return []string{
		st.Warn.Render(text.Truncate(text.OneLine(place), w)),
		"  " + text.FitMatch(before, match, after, max(w-2, 8), markStyle(st)),
	}
}

// Doc is a text file shown at a hit. Its lines are drawn once per width
// and style (a backup can be megabytes; View runs on every frame), so a
// pane holds it by pointer.
type Doc struct {
	lines []string // the file's lines, raw
	// line and col are where the match is: 0-based line, byte column
	// and length in it; found is false when the file no longer holds
	// the match at the hit's line (it changed since the search).
	line, col, n int
	found        bool
	cache        *drawn
}

type drawn struct {
	w     int
	set   *style.Set
	lines []string
}

// NewDoc places s in content, the file's text. The match is found at the
// hit's byte offset when the text there is the match, else on the hit's
// line, else (the file changed) the line alone is marked. A Spot with
// neither a line nor an offset marks nothing: the file is shown as it
// is.
func NewDoc(content string, s Spot) *Doc {
	d := &Doc{lines: strings.Split(strings.TrimSuffix(content, "\n"), "\n"), cache: &drawn{}}
	if content == "" {
		d.lines = nil
	}
	if s.Line < 1 && s.Offset < 0 {
		d.line = -1
		return d
	}
	mt := s.matchText()
	if mt != "" && s.Offset >= 0 && s.Offset+len(mt) <= len(content) && strings.EqualFold(content[s.Offset:s.Offset+len(mt)], mt) {
		start := strings.LastIndexByte(content[:s.Offset], '\n') + 1
		d.line, d.col, d.n, d.found = strings.Count(content[:s.Offset], "\n"), s.Offset-start, len(mt), true
		return d
	}
	d.line = min(max(s.Line-1, 0), max(len(d.lines)-1, 0))
	if d.line < len(d.lines) && mt != "" {
		if at := indexFold(d.lines[d.line], mt); at >= 0 {
			d.col, d.n, d.found = at, len(mt), true
		}
	}
	return d
}

// indexFold is the byte index of the first place sub matches s ignoring
// case (the search's default), or -1.
func indexFold(s, sub string) int {
	if at := strings.Index(s, sub); at >= 0 {
		return at
	}
	for i := 0; i+len(sub) <= len(s); {
		if strings.EqualFold(s[i:i+len(sub)], sub) {
			return i
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return -1
}

// Found reports whether the match is where the hit says; false when the
// file changed since the search (the hit's line is marked anyway).
func (d *Doc) Found() bool { return d.found }

// Line is the 1-based line the match is on.
func (d *Doc) Line() int { return d.line + 1 }

// Len is the file's number of lines.
func (d *Doc) Len() int { return len(d.lines) }

// Lines are the file's lines numbered and cut to w, the hit's line
// marked with ▶ and its match between « and » (kept in view on a long
// line), and the index of the hit's line among them (-1 for an empty
// file or no hit).
func (d *Doc) Lines(st style.Styles, w int) ([]string, int) {
	if len(d.lines) == 0 {
		return []string{st.Dim.Render("(empty file)")}, -1
	}
	at := d.line
	if c := d.cache; c.lines != nil && c.w == w && c.set == st.Set {
		return c.lines, at
	}
	num := len(strconv.Itoa(len(d.lines)))
	room := max(w-num-5, 8) // the gutter: "  N │ "
	out := make([]string, len(d.lines))
	for i, l := range d.lines {
		gutter := fmt.Sprintf("  %*d │ ", num, i+1)
		if i != d.line {
			out[i] = st.Dim.Render(gutter) + text.Truncate(clean(l), room)
			continue
		}
		gutter = "▶" + gutter[1:]
		if !d.found {
			out[i] = st.Warn.Render(gutter + text.Truncate(clean(l), room))
			continue
		}
		before, match, after := split(l, d.col, d.n)
		out[i] = st.Warn.Render(gutter) + text.FitMatch(before, match, after, room, markStyle(st))
	}
	*d.cache = drawn{w: w, set: st.Set, lines: out}
	return out, at
}

// clean makes a line of an untrusted file safe to print, its tabs
// expanded.
func clean(l string) string {
	return text.FileLine(strings.TrimSuffix(l, "\r"))
}

// split cuts line l around the match at byte col, n long, each part
// made safe to print; the parts after the first keep their tab stops.
func split(l string, col, n int) (before, match, after string) {
	l = strings.TrimSuffix(l, "\r")
	col, end := min(col, len(l)), min(col+n, len(l))
	before = clean(l[:col])
	match = strings.TrimPrefix(clean(l[:end]), before)
	pad := strings.Repeat(" ", lipgloss.Width(before)+lipgloss.Width(match))
	after = strings.TrimPrefix(clean(pad+l[end:]), pad)
	return before, match, after
}

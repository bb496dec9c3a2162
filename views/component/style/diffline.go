package style

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// DiffLine colours one line of a unified diff: headers bold, additions
// green, removals red, hunk headers dim.
func (s Styles) DiffLine(l string) string {
	if st, ok := s.diffStyle(l); ok {
		return st.Render(l)
	}
	return l
}

// DiffLines is one line of a unified diff broken into lines of at most
// w cells (inside a word too), each coloured as the line is (DiffLine):
// a detail that wraps rather than cuts reads a long line whole.
func (s Styles) DiffLines(l string, w int) []string {
	pieces := strings.Split(ansi.Wrap(l, max(w, 1), ""), "\n")
	if st, ok := s.diffStyle(l); ok {
		for i, p := range pieces {
			pieces[i] = st.Render(p)
		}
	}
	return pieces
}

// diffStyle is the style of a diff line by its first characters; false
// for a context line.
func (s Styles) diffStyle(l string) (lipgloss.Style, bool) {
	switch {
	case strings.HasPrefix(l, "+++"), strings.HasPrefix(l, "---"):
		return s.Bold, true
	case strings.HasPrefix(l, "+"):
		return s.OK, true
	case strings.HasPrefix(l, "-"):
		return s.Error, true
	case strings.HasPrefix(l, "@@"):
		return s.Dim, true
	}
	return lipgloss.Style{}, false
}

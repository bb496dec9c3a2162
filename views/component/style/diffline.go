package style

import "strings"

// DiffLine colours one line of a unified diff: headers bold, additions
// green, removals red, hunk headers dim.
func (s Styles) DiffLine(l string) string {
	switch {
	case strings.HasPrefix(l, "+++"), strings.HasPrefix(l, "---"):
		return s.Bold.Render(l)
	case strings.HasPrefix(l, "+"):
		return s.OK.Render(l)
	case strings.HasPrefix(l, "-"):
		return s.Error.Render(l)
	case strings.HasPrefix(l, "@@"):
		return s.Dim.Render(l)
	}
	return l
}

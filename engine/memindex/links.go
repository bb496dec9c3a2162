package memindex

import (
	"strings"
	"unicode"
)

// WikiLink is a [[name]] link in a memory: a link to another memory by
// its frontmatter name. "[[name|label]]" and "[[name#part]]" link name.
type WikiLink struct {
	Name string `json:"name"`
	// Start and End are the byte offsets of the name inside the text.
	Start int `json:"start"`
	End   int `json:"end"`
	// Line is 1-based.
	Line int `json:"line"`
}

// FindWikiLinks returns the [[name]] links of text in order. A link does
// not span lines and its name holds no "[" or "]"; an empty name is not
// a link.
func FindWikiLinks(text string) []WikiLink {
	var out []WikiLink
	line := 1
	for i := 0; i+1 < len(text); i++ {
		if text[i] == '\n' {
			line++
			continue
		}
		if text[i] != '[' || text[i+1] != '[' {
			continue
		}
		// The innermost "[[": "[[[x]]" links x.
		for i+2 < len(text) && text[i+2] == '[' {
			i++
		}
		open := i + 2
		end := -1
		for k := open; k < len(text); k++ {
			c := text[k]
			if c == '\n' || c == '[' {
				break
			}
			if c == ']' {
				if k+1 < len(text) && text[k+1] == ']' {
					end = k
				}
				break
			}
		}
		if end < 0 {
			continue
		}
		inner := text[open:end]
		nameEnd := len(inner)
		if k := strings.IndexAny(inner, "|#"); k >= 0 {
			nameEnd = k
		}
		raw := inner[:nameEnd]
		name := strings.TrimSpace(raw)
		if name != "" {
			lead := len(raw) - len(strings.TrimLeftFunc(raw, unicode.IsSpace))
			start := open + lead
			out = append(out, WikiLink{Name: name, Start: start, End: start + len(name), Line: line})
		}
		i = end + 1
	}
	return out
}

// RewriteWikiLinks replaces the name of every [[from]] link of text with
// to (labels and anchors kept) and returns the new text and how many
// links it changed. Text outside those names is unchanged.
func RewriteWikiLinks(text, from, to string) (string, int) {
	links := FindWikiLinks(text)
	var b strings.Builder
	last, n := 0, 0
	for _, l := range links {
		if l.Name != from {
			continue
		}
		b.WriteString(text[last:l.Start])
		b.WriteString(to)
		last = l.End
		n++
	}
	if n == 0 {
		return text, 0
	}
	b.WriteString(text[last:])
	return b.String(), n
}

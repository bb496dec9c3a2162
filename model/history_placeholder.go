package model

import (
	"strconv"
	"strings"
)

// PlaceholderKind is the kind of a paste placeholder in a prompt.
type PlaceholderKind string

// The placeholders the client puts in a prompt's display text.
const (
	// PlaceholderPastedText is "[Pasted text #N +M lines]" ("+M lines"
	// left out when M is 0).
	PlaceholderPastedText PlaceholderKind = "pasted-text"
	// PlaceholderImage is "[Image #N]".
	PlaceholderImage PlaceholderKind = "image"
	// PlaceholderTruncatedText is "[...Truncated text #N +M lines...]".
	PlaceholderTruncatedText PlaceholderKind = "truncated-text"
)

// Placeholder is one paste placeholder found in a display text.
type Placeholder struct {
	Kind PlaceholderKind `json:"kind"`
	// ID links the placeholder to the entry's PastedContents; 0 when the
	// placeholder carried no "#N" (an older form).
	ID PasteID `json:"id"`
	// Lines is M, the number of line breaks in the paste.
	Lines int `json:"lines"`
	// Start and End are the byte span of the placeholder in the display
	// text: display[Start:End] is the whole "[...]".
	Start int `json:"start"`
	End   int `json:"end"`
}

// String renders the placeholder the way the client writes it.
func (p Placeholder) String() string {
	var b strings.Builder
	switch p.Kind {
	case PlaceholderImage:
		b.WriteString("[Image #")
		b.WriteString(strconv.Itoa(int(p.ID)))
		b.WriteString("]")
		return b.String()
	case PlaceholderTruncatedText:
		b.WriteString("[...Truncated text")
	case PlaceholderPastedText:
		b.WriteString("[Pasted text")
	default:
		return ""
	}
	// "#0" is kept when there is nothing else, so the text still parses.
	if p.ID != 0 || p.Lines == 0 {
		b.WriteString(" #")
		b.WriteString(strconv.Itoa(int(p.ID)))
	}
	if p.Lines != 0 {
		b.WriteString(" +")
		b.WriteString(strconv.Itoa(p.Lines))
		b.WriteString(" lines")
	}
	if p.Kind == PlaceholderTruncatedText {
		b.WriteString("...")
	}
	b.WriteString("]")
	return b.String()
}

// Text prefixes and suffixes of the placeholder forms.
const (
	phPasted    = "[Pasted text"
	phImage     = "[Image #"
	phTruncated = "[...Truncated text"
)

// maxPlaceholderDigits keeps numbers inside int range on every platform.
const maxPlaceholderDigits = 9

// ParsePlaceholders finds the paste placeholders in a display text, in
// order, with their byte spans. Text that only looks like a placeholder
// (bad numbers, missing bracket) is left alone.
func ParsePlaceholders(display string) []Placeholder {
	var out []Placeholder
	for i := 0; i < len(display); {
		j := strings.IndexByte(display[i:], '[')
		if j < 0 {
			break
		}
		start := i + j
		if p, ok := parsePlaceholderAt(display, start); ok {
			out = append(out, p)
			i = p.End
			continue
		}
		i = start + 1
	}
	return out
}

func parsePlaceholderAt(s string, start int) (Placeholder, bool) {
	rest := s[start:]
	switch {
	case strings.HasPrefix(rest, phImage):
		pos := start + len(phImage)
		id, pos, ok := digitsAt(s, pos)
		if !ok || !strings.HasPrefix(s[pos:], "]") {
			return Placeholder{}, false
		}
		return Placeholder{Kind: PlaceholderImage, ID: PasteID(id), Start: start, End: pos + 1}, true
	case strings.HasPrefix(rest, phPasted):
		return parseTextPlaceholder(s, start, start+len(phPasted), PlaceholderPastedText, "]")
	case strings.HasPrefix(rest, phTruncated):
		return parseTextPlaceholder(s, start, start+len(phTruncated), PlaceholderTruncatedText, "...]")
	}
	return Placeholder{}, false
}

// parseTextPlaceholder parses "[ #N][ +M lines]" followed by closing,
// starting at pos just after the kind's prefix. At least one of "#N" and
// "+M lines" must be there.
func parseTextPlaceholder(s string, start, pos int, kind PlaceholderKind, closing string) (Placeholder, bool) {
	p := Placeholder{Kind: kind, Start: start}
	hasID, hasLines := false, false
	if strings.HasPrefix(s[pos:], " #") {
		id, next, ok := digitsAt(s, pos+2)
		if !ok {
			return Placeholder{}, false
		}
		p.ID, pos, hasID = PasteID(id), next, true
	}
	if strings.HasPrefix(s[pos:], " +") {
		n, next, ok := digitsAt(s, pos+2)
		if !ok || !strings.HasPrefix(s[next:], " lines") {
			return Placeholder{}, false
		}
		p.Lines, pos, hasLines = n, next+len(" lines"), true
	}
	if !hasID && !hasLines || !strings.HasPrefix(s[pos:], closing) {
		return Placeholder{}, false
	}
	p.End = pos + len(closing)
	return p, true
}

// digitsAt reads 1..maxPlaceholderDigits ASCII digits at pos.
func digitsAt(s string, pos int) (n, next int, ok bool) {
	end := pos
	for end < len(s) && end-pos <= maxPlaceholderDigits && s[end] >= '0' && s[end] <= '9' {
		end++
	}
	if end == pos || end-pos > maxPlaceholderDigits {
		return 0, pos, false
	}
	n, err := strconv.Atoi(s[pos:end])
	if err != nil {
		return 0, pos, false
	}
	return n, end, true
}

// PlaceholderRef is a placeholder together with the paste it names.
type PlaceholderRef struct {
	Placeholder
	// Paste is the entry's pastedContents item with the same id; nil when
	// the entry has none (the text refers to a paste that was not saved).
	Paste *PastedContent `json:"paste,omitempty"`
}

// Placeholders parses the entry's display text and links each placeholder
// to its pastedContents item by id.
func (e *HistoryEntry) Placeholders() []PlaceholderRef {
	phs := ParsePlaceholders(e.Display)
	if len(phs) == 0 {
		return nil
	}
	out := make([]PlaceholderRef, len(phs))
	for i, ph := range phs {
		out[i].Placeholder = ph
		if p, ok := e.PastedContents[ph.ID]; ok {
			out[i].Paste = &p
		}
	}
	return out
}

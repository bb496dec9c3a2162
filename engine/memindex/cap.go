package memindex

import (
	"fmt"
	"strings"

	"github.com/memscope/memscope/engine/internal/jsstr"
	"github.com/memscope/memscope/internal/format"
	"github.com/memscope/memscope/model"
)

// The MEMORY.md caps (FORMATS.md, "MEMORY.md").
const (
	// MaxLines is how many lines of MEMORY.md load.
	MaxLines = 200
	// MaxChars is how many UTF-16 code units of MEMORY.md load.
	MaxChars = 25000
	// warningQuoteMax is the length of the quoted first cut line.
	warningQuoteMax = 80
)

// IndexCap is what the client does with MEMORY.md at session start: how
// big it is, what part loads, the warning it appends, and which entries
// fall off. Line numbers in the warning count lines of the trimmed text,
// as the client does; CutFileLine and DroppedEntry.Line are file lines.
type IndexCap struct {
	// Lines and Chars measure the trimmed text (chars in UTF-16 units).
	Lines int `json:"lines"`
	Chars int `json:"chars"`
	// LoadedLines and LoadedChars measure what loads, before the warning.
	LoadedLines int  `json:"loadedLines"`
	LoadedChars int  `json:"loadedChars"`
	Truncated   bool `json:"truncated"`
	// LinesOver and CharsOver say which cap was exceeded.
	LinesOver bool `json:"linesOver,omitempty"`
	CharsOver bool `json:"charsOver,omitempty"`
	// CutLine is the first line not loaded whole (trimmed-text numbering);
	// CutFileLine is the same line in MEMORY.md. Zero when nothing is cut.
	CutLine     int `json:"cutLine,omitempty"`
	CutFileLine int `json:"cutFileLine,omitempty"`
	// Warning is the "> WARNING: ..." text appended, empty when none.
	Warning string `json:"warning"`
	// DroppedEntries are the index entries that do not load (whole or in
	// part), in file order.
	DroppedEntries []DroppedEntry `json:"droppedEntries"`
	// RoomLines and RoomChars are what is left before each cap; negative
	// when over.
	RoomLines int `json:"roomLines"`
	RoomChars int `json:"roomChars"`
	// Content is the text the client loads: the kept part plus warning.
	Content string `json:"-"`
}

// Loads reports whether MEMORY.md line n (1-based, as in the file) loads
// whole: a line cut in part counts as cut off, as in DroppedEntries.
func (c IndexCap) Loads(n int) bool { return !c.Truncated || n < c.CutFileLine }

// DroppedEntry is an index entry cut off by the caps.
type DroppedEntry struct {
	Line   int    `json:"line"`
	Title  string `json:"title"`
	Target string `json:"target,omitempty"`
	// Partial is set when part of the entry's line still loads.
	Partial bool `json:"partial,omitempty"`
}

// CapIndex applies the client's MEMORY.md truncation to raw (the file's
// bytes): trim; keep the first 200 lines; if still over 25000 UTF-16
// units, cut at the last newline at or before 25000 (hard cut when there
// is none); then append the warning.
func CapIndex(raw []byte) IndexCap {
	text := jsstr.DecodeLikeNode(raw)
	trimmed := jsstr.Trim(text)
	if trimmed == "" {
		return IndexCap{RoomLines: MaxLines, RoomChars: MaxChars, DroppedEntries: []DroppedEntry{}}
	}
	// Measured on the text: a '\n' unit is a '\n' byte (surrogates are
	// 0xD800 and up), and UTF16Len is the units' count. Only a cut needs
	// the units themselves: most indexes are within both caps, and an
	// app load measures the same MEMORY.md several times.
	c := IndexCap{Lines: strings.Count(trimmed, "\n") + 1, Chars: jsstr.UTF16Len(trimmed), DroppedEntries: []DroppedEntry{}}
	c.RoomLines, c.RoomChars = MaxLines-c.Lines, MaxChars-c.Chars
	c.LinesOver, c.CharsOver = c.Lines > MaxLines, c.Chars > MaxChars
	if !c.LinesOver && !c.CharsOver {
		c.LoadedLines, c.LoadedChars, c.Content = c.Lines, c.Chars, trimmed
		return c
	}
	// The cut is made on the text itself (trimmed is valid UTF-8: a
	// surrogate pair is one character), not on UTF-16 units.
	kept := trimmed
	if c.LinesOver {
		kept = trimmed[:lineEnd(trimmed, MaxLines)]
	}
	kept, hardCut := jsstr.CutTextAtLine(kept, MaxChars)
	c.Truncated = true
	c.LoadedChars = jsstr.UTF16Len(kept)
	c.LoadedLines = strings.Count(kept, "\n") + 1
	c.CutLine = c.LoadedLines + 1
	what := ""
	if hardCut {
		c.CutLine = 1
		what = fmt.Sprintf("everything after the first %d characters of line 1 was cut off", c.LoadedChars)
	} else {
		what = fmt.Sprintf("%d of %d lines were cut off, starting at line %d", c.Lines-c.LoadedLines, c.Lines, c.CutLine)
		// kept ends just before a newline: the next line follows it.
		next := trimmed[len(kept)+1:]
		if i := strings.IndexByte(next, '\n'); i >= 0 {
			next = next[:i]
		}
		if q := jsstr.CutAtWord(jsstr.Trim(next), warningQuoteMax); q != "" {
			what += ` ("` + q + `")`
		}
	}
	c.Warning = "> WARNING: " + model.MemoryIndexName + " is " + CapReason(c) + ". Only part of it was loaded: " + what +
		". Keep index entries to one line under ~200 chars; move detail into topic files."
	c.Content = kept + "\n\n" + c.Warning
	lead := strings.Count(text[:len(text)-len(strings.TrimLeftFunc(text, jsstr.IsSpace))], "\n")
	c.CutFileLine = c.CutLine + lead
	c.DroppedEntries = droppedEntries(raw, c.CutFileLine, hardCut)
	return c
}

// lineEnd is the byte index in s where line n (1-based) ends.
func lineEnd(s string, n int) int {
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			if n--; n == 0 {
				return i
			}
		}
	}
	return len(s)
}

// CapReason is the {WHY} of the warning.
func CapReason(c IndexCap) string {
	switch {
	case c.CharsOver && !c.LinesOver:
		return format.ClientFileSize(c.Chars) + " (limit: " + format.ClientFileSize(MaxChars) + ") — index entries are too long"
	case c.LinesOver && !c.CharsOver:
		return fmt.Sprintf("%d lines (limit: %d)", c.Lines, MaxLines)
	}
	return fmt.Sprintf("%d lines and %s", c.Lines, format.ClientFileSize(c.Chars))
}

func droppedEntries(raw []byte, fromLine int, partialFirst bool) []DroppedEntry {
	out := []DroppedEntry{}
	for _, l := range model.ParseMemoryIndex(raw).Entries() {
		if l.Number >= fromLine {
			out = append(out, DroppedEntry{Line: l.Number, Title: l.Entry.Title, Target: l.Entry.Target, Partial: partialFirst && l.Number == fromLine})
		}
	}
	return out
}

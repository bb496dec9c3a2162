package model

import (
	"bytes"
	"strings"
)

// MemoryIndexName is the file name of the auto-memory index.
const MemoryIndexName = "MEMORY.md"

// LineEnding is how one line of a text file ended.
type LineEnding string

// The line endings kept verbatim by the index parser.
const (
	EndLF   LineEnding = "\n"
	EndCRLF LineEnding = "\r\n"
	// EndNone is the last line of a file without a final newline.
	EndNone LineEnding = ""
)

// MemoryIndex is a parsed MEMORY.md. Every line is kept verbatim, so Bytes
// returns the input byte for byte; lines that look like index entries also
// carry the parsed Entry.
type MemoryIndex struct {
	// BOM is true when the file started with a UTF-8 byte order mark
	// (not part of the first line's Text).
	BOM   bool        `json:"bom,omitempty"`
	Lines []IndexLine `json:"lines"`
}

// IndexLine is one line of MEMORY.md.
type IndexLine struct {
	// Number is 1-based.
	Number int `json:"number"`
	// Text is the line without its ending; it may hold invalid UTF-8.
	Text string     `json:"text"`
	EOL  LineEnding `json:"eol"`
	// Entry is the parsed index entry, nil for other lines.
	Entry *IndexEntry `json:"entry,omitempty"`
}

// IndexEntryForm tells the two shapes of index entry apart.
type IndexEntryForm string

// The entry shapes.
const (
	// EntryLink is "- [Title](file.md) — hook", the client's form.
	EntryLink IndexEntryForm = "link"
	// EntryName is "- safe_name -- description", an older form in the
	// seed documents, without a link.
	EntryName IndexEntryForm = "name"
)

// IndexEntry is a parsed index line.
type IndexEntry struct {
	Form IndexEntryForm `json:"form"`
	// Indent is the white space before the bullet.
	Indent string `json:"indent,omitempty"`
	// Bullet is "-", "*" or "+".
	Bullet string `json:"bullet"`
	Title  string `json:"title"`
	// Target is the link target as written ("feedback_x.md"); empty for
	// EntryName.
	Target string `json:"target,omitempty"`
	// Separator is the dash between link and hook as written (" — ",
	// " - ", " -- ", ": "), empty when there is no hook.
	Separator string `json:"separator,omitempty"`
	Hook      string `json:"hook,omitempty"`
}

// ParseMemoryIndex splits MEMORY.md into lines and parses index entries.
// It never fails: any byte sequence is a valid index of text lines.
func ParseMemoryIndex(data []byte) *MemoryIndex {
	ix := &MemoryIndex{}
	if bytes.HasPrefix(data, utf8BOM) {
		ix.BOM = true
		data = data[len(utf8BOM):]
	}
	for n := 1; len(data) > 0; n++ {
		line := IndexLine{Number: n}
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line.Text, line.EOL, data = string(data[:i]), EndLF, data[i+1:]
			if strings.HasSuffix(line.Text, "\r") {
				line.Text, line.EOL = line.Text[:len(line.Text)-1], EndCRLF
			}
		} else {
			line.Text, line.EOL, data = string(data), EndNone, nil
		}
		line.Entry = ParseIndexEntry(line.Text)
		ix.Lines = append(ix.Lines, line)
	}
	return ix
}

// Bytes returns the index as a file, byte-identical to the parsed input
// when nothing was changed.
// It is made in one allocation of its size (a prune plan's previews
// build the index's bytes for every action: growing a buffer cost a
// warm start on W about 110 MB of garbage).
func (ix *MemoryIndex) Bytes() []byte {
	n := 0
	if ix.BOM {
		n = len(utf8BOM)
	}
	for _, l := range ix.Lines {
		n += len(l.Text) + len(l.EOL)
	}
	if n == 0 {
		return nil
	}
	b := make([]byte, 0, n)
	if ix.BOM {
		b = append(b, utf8BOM...)
	}
	for _, l := range ix.Lines {
		b = append(b, l.Text...)
		b = append(b, l.EOL...)
	}
	return b
}

// BytesEqual says Bytes would return data, without making them.
func (ix *MemoryIndex) BytesEqual(data []byte) bool {
	if ix.BOM {
		if !bytes.HasPrefix(data, utf8BOM) {
			return false
		}
		data = data[len(utf8BOM):]
	}
	for _, l := range ix.Lines {
		for _, part := range [2]string{l.Text, string(l.EOL)} {
			if len(data) < len(part) || string(data[:len(part)]) != part {
				return false
			}
			data = data[len(part):]
		}
	}
	return len(data) == 0
}

// Entries returns the lines that are index entries, in file order.
func (ix *MemoryIndex) Entries() []IndexLine {
	var out []IndexLine
	for _, l := range ix.Lines {
		if l.Entry != nil {
			out = append(out, l)
		}
	}
	return out
}

// ParseIndexEntry parses one MEMORY.md line as an index entry, or returns
// nil when it is not one.
func ParseIndexEntry(text string) *IndexEntry {
	rest := strings.TrimLeft(text, " \t")
	e := &IndexEntry{Indent: text[:len(text)-len(rest)]}
	if len(rest) < 2 || !strings.ContainsRune("-*+", rune(rest[0])) || rest[1] != ' ' && rest[1] != '\t' {
		return nil
	}
	e.Bullet, rest = rest[:1], strings.TrimLeft(rest[1:], " \t")
	if strings.HasPrefix(rest, "[") {
		return parseLinkEntry(e, rest)
	}
	return parseNameEntry(e, rest)
}

// parseLinkEntry parses "[Title](target) — hook" (rest starts with "[").
func parseLinkEntry(e *IndexEntry, rest string) *IndexEntry {
	mid := strings.Index(rest, "](")
	if mid < 0 {
		return nil
	}
	e.Form, e.Title = EntryLink, rest[1:mid]
	after := rest[mid+2:]
	// The target ends at the first ")" followed by the end of the line,
	// white space or a separator, so file names holding parentheses parse.
	end := -1
	for i := 0; i < len(after); i++ {
		if after[i] == ')' && endsTarget(after[i+1:]) {
			end = i
			break
		}
	}
	if end < 0 {
		return nil
	}
	e.Target = after[:end]
	e.Separator, e.Hook = splitHook(after[end+1:], true)
	return e
}

func endsTarget(s string) bool {
	return s == "" || s[0] == ' ' || s[0] == '\t' || s[0] == ':' || strings.HasPrefix(s, "—") || strings.HasPrefix(s, "–")
}

// parseNameEntry parses the seed form "safe_name -- description".
func parseNameEntry(e *IndexEntry, rest string) *IndexEntry {
	i := 0
	for i < len(rest) && (isAlnum(rest[i]) || rest[i] == '_' || rest[i] == '-' || rest[i] == '.') {
		i++
	}
	if i == 0 || !isAlnum(rest[0]) {
		return nil
	}
	sep, hook := splitHook(rest[i:], false)
	if sep == "" {
		return nil
	}
	e.Form, e.Title, e.Separator, e.Hook = EntryName, rest[:i], sep, hook
	return e
}

// hookSeparators are tried longest first so " -- " is not read as " - ".
var hookSeparators = []string{"—", "–", "--", "-", ":"}

// splitHook splits " — hook" into its separator (with the white space
// around it, as written) and the hook. With anyText, text after the link
// without a separator is a hook with an empty separator. The name form
// accepts only " -- " and " — ", the seeds' separators, so an ordinary
// bullet such as "- note - x" is not mistaken for an entry.
func splitHook(s string, anyText bool) (string, string) {
	body := strings.TrimLeft(s, " \t")
	lead := s[:len(s)-len(body)]
	if body == "" {
		return "", ""
	}
	for _, sep := range hookSeparators {
		if !anyText && sep != "--" && sep != "—" {
			continue
		}
		if !strings.HasPrefix(body, sep) || lead == "" && !anyText {
			continue
		}
		after := body[len(sep):]
		hook := strings.TrimLeft(after, " \t")
		if (sep == "-" || sep == "--") && hook != "" && len(hook) == len(after) {
			continue
		}
		return lead + sep + after[:len(after)-len(hook)], hook
	}
	if anyText {
		return lead, body
	}
	return "", ""
}

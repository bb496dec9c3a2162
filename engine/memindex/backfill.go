package memindex

import (
	"path"
	"strings"

	"github.com/memscope/memscope/engine/internal/jsstr"
	"github.com/memscope/memscope/model"
)

// The limits of the index the client writes when MEMORY.md is missing.
const (
	BackfillMaxLines    = 140
	BackfillMaxChars    = 17500
	BackfillMaxLineChar = 150
)

// Backfill is the MEMORY.md the client would write at session start when
// the file is missing but topic files exist.
type Backfill struct {
	// Text is the file the client writes.
	Text  string `json:"-"`
	Lines int    `json:"lines"`
	Chars int    `json:"chars"`
	// Skipped lists files left out, with the reason.
	Skipped []BackfillSkip `json:"skipped"`
}

// BackfillSkip is a topic file the backfilled index leaves out.
type BackfillSkip struct {
	File   string `json:"file"`
	Reason string `json:"reason"`
}

// BackfillIndex builds the index the client writes: newest mtime first,
// "- [<name without .md>](<path>) — <description>" (a bare link for a file
// without frontmatter or description), each line at most 150 characters
// (the description cut with "…"), at most 140 lines and 17500 characters;
// files whose names would break the link (brackets, parentheses, line
// breaks) are skipped.
func BackfillIndex(files []*model.MemoryFile) Backfill {
	sorted := NewestFirst(files)
	b := Backfill{Skipped: []BackfillSkip{}}
	var lines []string
	chars := 0
	for _, f := range sorted {
		if !LinkableName(f.Path) {
			b.Skipped = append(b.Skipped, BackfillSkip{f.Path, "file name would break the link"})
			continue
		}
		line := BackfillLine(f)
		n := jsstr.UTF16Len(line) + 1
		switch {
		case jsstr.UTF16Len(line) > BackfillMaxLineChar:
			b.Skipped = append(b.Skipped, BackfillSkip{f.Path, "link alone is over 150 characters"})
			continue
		case len(lines) == BackfillMaxLines:
			b.Skipped = append(b.Skipped, BackfillSkip{f.Path, "over 140 lines"})
			continue
		case chars+n > BackfillMaxChars:
			b.Skipped = append(b.Skipped, BackfillSkip{f.Path, "over 17500 characters"})
			continue
		}
		lines = append(lines, line)
		chars += n
	}
	if len(lines) > 0 {
		b.Text = strings.Join(lines, "\n") + "\n"
	}
	b.Lines, b.Chars = len(lines), chars
	return b
}

func BackfillLine(f *model.MemoryFile) string {
	desc := f.Description
	if f.Form == model.FormNone {
		desc = ""
	}
	return EntryLine(strings.TrimSuffix(path.Base(f.Path), ".md"), f.Path, desc)
}

// EntryLine is an index entry in the client's form, "- [title](rel) —
// description", the description on one line and cut (with "…") so the
// line stays within BackfillMaxLineChar UTF-16 units; with no
// description, or no room for one, the link alone.
func EntryLine(title, rel, desc string) string {
	link := "- [" + title + "](" + rel + ")"
	desc = strings.Join(strings.Fields(desc), " ")
	if desc == "" {
		return link
	}
	prefix := link + " — "
	room := BackfillMaxLineChar - jsstr.UTF16Len(prefix)
	if room < 2 {
		return link
	}
	if u := jsstr.Units(desc); len(u) > room {
		cut := room - 1
		if u[cut-1] >= 0xD800 && u[cut-1] < 0xDC00 {
			cut-- // do not split a surrogate pair
		}
		desc = strings.TrimRightFunc(jsstr.FromUnits(u[:cut]), jsstr.IsSpace) + "…"
	}
	return prefix + desc
}

// EntryTitle is the link text of a new memory's index entry, never its
// file name: the name as the user typed it ("No DB Mocks"), or, when
// that is already the safe name (SafeMemoryName), the name read as words
// ("user-role" → "User role"); brackets and line breaks, which would
// break the link, become spaces.
func EntryTitle(typed, safe string) string {
	t := strings.TrimSpace(typed)
	if t == "" || t == safe {
		t = strings.NewReplacer("-", " ", "_", " ").Replace(safe)
	}
	t = strings.Join(strings.Fields(strings.Map(func(r rune) rune {
		if strings.ContainsRune("[]\r\n", r) {
			return ' '
		}
		return r
	}, t)), " ")
	if r := []rune(t); len(r) > 0 && r[0] >= 'a' && r[0] <= 'z' {
		r[0] -= 'a' - 'A'
		t = string(r)
	}
	return t
}

// LinkableName reports whether a topic file's path can stand in an index
// link: brackets, parentheses or a line break would break the link (or
// MEMORY.md's lines), so the client skips such files.
func LinkableName(p string) bool { return !strings.ContainsAny(p, "()[]\n\r") }

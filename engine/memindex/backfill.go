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
	link := "- [" + strings.TrimSuffix(path.Base(f.Path), ".md") + "](" + f.Path + ")"
	desc := strings.Join(strings.Fields(f.Description), " ")
	if f.Form == model.FormNone || desc == "" {
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

// LinkableName reports whether a topic file's path can stand in an index
// link: brackets, parentheses or a line break would break the link (or
// MEMORY.md's lines), so the client skips such files.
func LinkableName(p string) bool { return !strings.ContainsAny(p, "()[]\n\r") }

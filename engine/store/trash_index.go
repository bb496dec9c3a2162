package store

import (
	"encoding/json"
	"fmt"
	"path"
	"strings"

	"github.com/memscope/memscope/engine/memindex"
	"github.com/memscope/memscope/model"
)

// A memory Delete moves to the trash takes its index lines out of
// MEMORY.md. So that Restore can put them back as they were (the user's
// own title, not the backfill's; at their place, not at the end), Delete
// writes them beside the trashed file, in a hidden note the client and
// the trash listing skip: .trash/<time>/.<name>.index.json. The note is
// part of the change, so undo removes it with the rest.

// trashNote is the note kept beside a trashed memory.
type trashNote struct {
	// Original is where the memory was.
	Original string `json:"original"`
	// Lines are its index lines, in file order.
	Lines []trashedLine `json:"indexLines"`
}

// trashedLine is one index line as it was, and where.
type trashedLine struct {
	// Text is the line, without its line ending.
	Text string `json:"text"`
	// Line is its number (1-based) in MEMORY.md before the delete.
	Line int `json:"line"`
	// Anchor is the nearest line above it that is not blank ("" when
	// there is none: it was near the top), and Gap how many lines lay
	// between the two, so it goes back under the same heading or entry
	// when lines were added or removed above it meanwhile.
	Anchor string `json:"anchor,omitempty"`
	Gap    int    `json:"gap"`
}

// trashNotePath is the note beside the trashed file at trashPath.
func trashNotePath(trashPath string) string {
	return path.Join(path.Dir(trashPath), "."+path.Base(trashPath)+".index.json")
}

// isTrashNote reports whether rel is a note trashNotePath names.
func isTrashNote(rel string) bool {
	base := path.Base(rel)
	return strings.HasPrefix(rel, TrashDir+"/") && strings.HasPrefix(base, ".") && strings.HasSuffix(base, ".md.index.json")
}

// noteIndexLines writes, beside the trashed file at to, the lines of ix
// (MEMORY.md before the delete) linking rel; nothing when none does.
func (w *workset) noteIndexLines(ix *model.MemoryIndex, rel, to string) error {
	note := trashNote{Original: rel}
	for i, l := range ix.Lines {
		if t, ok := memindex.EntryTarget(l.Entry); !ok || t != rel {
			continue
		}
		tl := trashedLine{Text: l.Text, Line: i + 1, Gap: i}
		for k := i - 1; k >= 0; k-- {
			if strings.TrimSpace(ix.Lines[k].Text) != "" {
				tl.Anchor, tl.Gap = ix.Lines[k].Text, i-k-1
				break
			}
		}
		note.Lines = append(note.Lines, tl)
	}
	if len(note.Lines) == 0 {
		return nil
	}
	data, err := json.Marshal(note)
	if err != nil {
		return err
	}
	return w.create(trashNotePath(to), append(data, '\n'))
}

// restoreIndexLines gives orig, restored from the trash file rel, its
// index lines back (unless a line links it already) and removes the
// note: the lines noted at delete, each at its place, or the backfill's
// line where entries load when there is no note.
func (w *workset) restoreIndexLines(rel, orig string, data []byte) error {
	notePath := trashNotePath(rel)
	raw, hasNote, err := w.get(notePath)
	if err != nil {
		return err
	}
	var note trashNote
	if hasNote {
		if err := json.Unmarshal(raw, &note); err != nil || note.Original != orig {
			hasNote, note = false, trashNote{}
		}
		if err := w.remove(notePath); err != nil {
			return err
		}
	}
	ix, err := w.readIndex()
	if err != nil {
		return err
	}
	if indexLineLinking(ix, orig) > 0 {
		return nil
	}
	if !hasNote || len(note.Lines) == 0 {
		f, _ := model.ParseMemoryFile(orig, data)
		insertIndexLines(ix, indexInsertPoint(ix), []string{entryLineFor(f)})
		return w.putIndex(ix)
	}
	for _, l := range note.Lines {
		if strings.ContainsAny(l.Text, "\r\n") {
			return fmt.Errorf("the trash note %s holds a line break in an index line", notePath)
		}
		insertIndexLines(ix, l.placeIn(ix), []string{l.Text})
	}
	return w.putIndex(ix)
}

// placeIn is the number of the line of ix after which l goes back: Gap
// lines under its anchor (the one nearest its old place when several
// lines read the same), else its old number, within the file.
func (l trashedLine) placeIn(ix *model.MemoryIndex) int {
	n := len(ix.Lines)
	after := l.Line - 1
	if l.Anchor != "" {
		best := -1
		for i, x := range ix.Lines {
			if x.Text == l.Anchor && (best < 0 || abs(i+1+l.Gap-after) < abs(best+1+l.Gap-after)) {
				best = i
			}
		}
		if best >= 0 {
			after = best + 1 + l.Gap
		}
	}
	return max(0, min(after, n))
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

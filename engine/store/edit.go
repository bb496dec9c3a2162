package store

import (
	"fmt"
	"strings"

	"github.com/memscope/memscope/engine/journal"
	"github.com/memscope/memscope/model"
)

// editFile applies edit to the topic file at p with the model's minimal
// line edits, then sets metadata.modified to o.Now as the client does on
// every write of a memory file (not in a folder it does not stamp), and
// commits.
func (s *Store) editFile(p string, op journal.OpKind, what string, o WriteOptions, edit func(*model.MemoryFile) error) (Change, error) {
	rel, _, err := s.topicFile(p)
	if err != nil {
		return Change{}, err
	}
	w := s.newWorkset()
	data, _, err := w.get(rel)
	if err != nil {
		return Change{}, err
	}
	f, _ := model.ParseMemoryFile(rel, data)
	if err := edit(f); err != nil {
		return Change{}, err
	}
	if f.Form != model.FormNone && !s.unstamped {
		if err := f.SetModified(o.Now); err != nil {
			return Change{}, err
		}
	}
	if err := w.put(rel, f.Bytes()); err != nil {
		return Change{}, err
	}
	return s.commit(op, what+" of "+rel, w, o)
}

// SetBody replaces the body of the memory at p, leaving the frontmatter
// as it is but for modified. The blank line the client leaves after the
// frontmatter stays when body does not start with a line break of its
// own, so SetBody(p, text) and SetBody(p, f.Body) both keep the layout.
func (s *Store) SetBody(p, body string, o WriteOptions) (Change, error) {
	return s.editFile(p, OpSetBody, "change the body", o, func(f *model.MemoryFile) error {
		if !strings.HasPrefix(body, "\n") && !strings.HasPrefix(body, "\r\n") {
			body = f.Body[:len(f.Body)-len(strings.TrimLeft(f.Body, "\r\n"))] + body
		}
		return f.SetBody(body)
	})
}

// SetDescription changes the description of the memory at p, touching
// only that line (and modified).
func (s *Store) SetDescription(p, description string, o WriteOptions) (Change, error) {
	return s.editFile(p, OpDescribe, "change the description", o, func(f *model.MemoryFile) error {
		if description == "" {
			return fmt.Errorf("a memory's description cannot be empty")
		}
		return f.SetDescription(description)
	})
}

// Retype changes the type of the memory at p (metadata.type, or the
// legacy top-level type of a flat file). The file keeps its name: the
// name still matches it (see NameMatchesFile).
func (s *Store) Retype(p string, t model.MemoryType, o WriteOptions) (Change, error) {
	return s.editFile(p, OpRetype, "retype to "+string(t), o, func(f *model.MemoryFile) error { return f.SetType(t) })
}

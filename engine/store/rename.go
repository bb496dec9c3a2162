package store

import (
	"fmt"
	"path"
	"strings"

	"github.com/memscope/memscope/engine/memindex"
	"github.com/memscope/memscope/model"
)

// rewriteBodyLinks rewrites [[from]] links in the body of a memory file:
// data is the file, body the suffix of it that is the body.
func rewriteBodyLinks(data []byte, body, from, to string) []byte {
	if len(body) > len(data) || string(data[len(data)-len(body):]) != body {
		return data
	}
	nb, n := memindex.RewriteWikiLinks(body, from, to)
	if n == 0 {
		return data
	}
	return append(append([]byte{}, data[:len(data)-len(body)]...), nb...)
}

func renamedTitle(title, oldBase, newBase, oldName, newName string) string {
	switch {
	case title == oldBase:
		return newBase
	case oldName != "" && title == oldName:
		return newName
	}
	return title
}

// retarget writes the new path in the style of the old target: a "./"
// prefix and a "#part" are kept.
func retarget(old, to string) string {
	t := to
	if strings.HasPrefix(strings.TrimSpace(old), "./") {
		t = "./" + to
	}
	if k := strings.IndexByte(old, '#'); k >= 0 {
		t += old[k:]
	}
	return t
}

// Rename gives the memory at p a new name: the name is made safe
// (SafeMemoryName), the frontmatter name line changes, the file moves to
// MemoryFileName(type, name) in the same folder, index entries linking
// the file follow it (their title too when it was the old file or memory
// name), and [[old-name]] links in every memory become [[new-name]].
// All of it is one change and one undo.
func (s *Store) Rename(p, newName string, o WriteOptions) (Change, error) {
	rel, f, err := s.topicFile(p)
	if err != nil {
		return Change{}, err
	}
	if f.Invalid {
		return Change{}, fmt.Errorf("rename %s: fix its frontmatter first (%s)", rel, f.Problem.Reason)
	}
	name, err := memindex.SafeMemoryName(newName)
	if err != nil {
		return Change{}, err
	}
	newRel := path.Join(path.Dir(rel), memindex.MemoryFileName(f.Type, name))
	w := s.newWorkset()
	data, _, err := w.get(rel)
	if err != nil {
		return Change{}, err
	}
	g, _ := model.ParseMemoryFile(rel, data)
	if err := g.SetName(name); err != nil {
		return Change{}, err
	}
	data = g.Bytes()
	if f.Name != "" {
		data = rewriteBodyLinks(data, g.Body, f.Name, name)
	}
	if err := w.put(rel, data); err != nil {
		return Change{}, err
	}
	if newRel != rel {
		if err := w.move(rel, newRel); err != nil {
			return Change{}, fmt.Errorf("rename %s to %s: %w", rel, newRel, err)
		}
	}
	if err := w.relinkIndex(rel, newRel, f.Name, name); err != nil {
		return Change{}, err
	}
	if f.Name != "" && f.Name != name {
		for _, other := range s.mem.Files {
			if other.Path == rel || !strings.Contains(other.Body, "[[") {
				continue
			}
			od, _, err := w.get(other.Path)
			if err != nil {
				return Change{}, err
			}
			if nd := rewriteBodyLinks(od, other.Body, f.Name, name); string(nd) != string(od) {
				if err := w.put(other.Path, nd); err != nil {
					return Change{}, err
				}
			}
		}
	}
	return s.commit(OpRename, fmt.Sprintf("rename %s (%s) to %s (%s)", f.Name, rel, name, newRel), w, o)
}

// relinkIndex points the index entries linking from at to instead, and
// renames their title when it was the old file name or memory name.
func (w *workset) relinkIndex(from, to, oldName, newName string) error {
	ix, err := w.readIndex()
	if err != nil {
		return err
	}
	oldBase, newBase := strings.TrimSuffix(path.Base(from), ".md"), strings.TrimSuffix(path.Base(to), ".md")
	changed := false
	for i, l := range ix.Lines {
		e := l.Entry
		if e == nil {
			continue
		}
		text := l.Text
		switch t, ok := memindex.EntryTarget(e); {
		case ok && t == from:
			if from != to {
				text = strings.Replace(text, "]("+e.Target+")", "]("+retarget(e.Target, to)+")", 1)
			}
			if nt := renamedTitle(e.Title, oldBase, newBase, oldName, newName); nt != e.Title {
				text = strings.Replace(text, "["+e.Title+"](", "["+nt+"](", 1)
			}
		case e.Form == model.EntryName && (e.Title == oldBase || e.Title == oldName):
			nt := renamedTitle(e.Title, oldBase, newBase, oldName, newName)
			text = strings.Replace(text, e.Title, nt, 1)
		}
		if text != l.Text {
			ix.Lines[i].Text, ix.Lines[i].Entry = text, model.ParseIndexEntry(text)
			changed = true
		}
	}
	if !changed {
		return nil
	}
	return w.putIndex(ix)
}

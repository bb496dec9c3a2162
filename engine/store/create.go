package store

import (
	"fmt"
	"path"
	"strings"
	"time"

	"github.com/memscope/memscope/engine/memindex"
	"github.com/memscope/memscope/model"
	"gopkg.in/yaml.v3"
)

// NewMemory is a memory to create.
type NewMemory struct {
	// Name is made safe with SafeMemoryName.
	Name string `json:"name"`
	// Title is the index entry's link text (memindex.EntryTitle, from
	// what the user typed). Empty: Name when it is not already a safe
	// name ("No DB Mocks"), else the file's base name as the client's
	// backfill writes it.
	Title string           `json:"title,omitempty"`
	Type  model.MemoryType `json:"type"`
	// Description is the one-line hook (line breaks become spaces).
	Description string `json:"description"`
	Body        string `json:"body"`
	// Folder is a sub-folder of the memory folder, "" for the folder.
	Folder string `json:"folder,omitempty"`
	// NoIndex leaves MEMORY.md alone, as the client's own write does (its
	// model adds the index line in a second edit). By default the index
	// line is added after the last entry that loads.
	NoIndex bool `json:"noIndex,omitempty"`
}

// MemoryFileText is a memory file as the client writes one:
//
//	---
//	name: <name>
//	description: <description>
//	metadata:
//	  node_type: memory
//	  type: <type>
//	  originSessionId: <session>    (when known)
//	  modified: <now, ISO UTC with milliseconds>
//	---
//
//	<body>
//
// The description is one line; it is double-quoted when it holds ", "
// (the client's YAML writer does that) or needs quotes in YAML. The text
// is parsed back and must read as written.
func MemoryFileText(name, description string, t model.MemoryType, session string, now time.Time, body string) ([]byte, error) {
	return memoryFileText(false, name, description, t, session, now, body)
}

// memoryFileText is a new memory file as the client would write it in a
// folder: stamped (MemoryFileText), or not, as an agent writes one in its
// memory folder, where the client stamps nothing:
//
//	---
//	name: <name>
//	description: <description>
//	type: <type>
//	---
//
//	<body>
//
// The text is parsed back and must read as written.
func memoryFileText(unstamped bool, name, description string, t model.MemoryType, session string, now time.Time, body string) ([]byte, error) {
	desc := strings.Join(strings.Fields(description), " ")
	if name == "" || desc == "" {
		return nil, fmt.Errorf("a memory needs a name and a description")
	}
	if unstamped {
		session = "" // the client records no session there
	}
	var b strings.Builder
	b.WriteString("---\nname: " + yamlScalar(name, false) + "\n")
	if unstamped {
		b.WriteString("description: " + yamlScalar(desc, false) + "\ntype: " + string(t) + "\n")
	} else {
		b.WriteString("description: " + yamlScalar(desc, strings.Contains(desc, ", ")) + "\n")
		b.WriteString("metadata:\n  node_type: memory\n  type: " + string(t) + "\n")
		if session != "" {
			b.WriteString("  originSessionId: " + yamlScalar(session, false) + "\n")
		}
		b.WriteString("  modified: " + now.UTC().Format(model.ISOMillis) + "\n")
	}
	b.WriteString("---\n\n")
	body = strings.TrimLeft(body, "\r\n")
	b.WriteString(body)
	if body != "" && !strings.HasSuffix(body, "\n") {
		b.WriteByte('\n')
	}
	data := []byte(b.String())
	f, prob := model.ParseMemoryFile(name+".md", data)
	switch {
	case prob != nil:
		return nil, fmt.Errorf("new memory %s would not parse: %s", name, prob.Reason)
	case f.Name != name || f.Description != desc || f.Type != t || f.OriginSessionID != session:
		return nil, fmt.Errorf("new memory %s does not read back as written", name)
	}
	return data, nil
}

// yamlScalar renders s as a one-line YAML string: plain when YAML reads it
// back as the same string, else quoted.
func yamlScalar(s string, double bool) string {
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
	if double {
		n.Style = yaml.DoubleQuotedStyle
	}
	out, err := yaml.Marshal(n)
	text := strings.TrimSuffix(string(out), "\n")
	if err != nil || strings.Contains(text, "\n") {
		n.Style = yaml.DoubleQuotedStyle
		out, _ = yaml.Marshal(n)
		text = strings.TrimSuffix(string(out), "\n")
	}
	return text
}

// Create writes a new memory file as the client writes one (see
// MemoryFileText and MemoryFileName) and, unless m.NoIndex, its index
// line. It refuses to overwrite an existing file.
func (s *Store) Create(m NewMemory, o WriteOptions) (Change, error) {
	name, err := memindex.SafeMemoryName(m.Name)
	if err != nil {
		return Change{}, err
	}
	if model.ParseMemoryType(string(m.Type)) == model.TypeUntyped {
		return Change{}, fmt.Errorf("create %s: type %q is not one of user, feedback, project, reference", name, m.Type)
	}
	data, err := memoryFileText(s.unstamped, name, m.Description, m.Type, o.SessionID, o.Now, m.Body)
	if err != nil {
		return Change{}, err
	}
	rel := memindex.MemoryFileName(m.Type, name)
	if m.Folder != "" {
		if rel, err = s.Rel(path.Join(m.Folder, rel)); err != nil {
			return Change{}, err
		}
	}
	if !model.IsMemoryTopicPath(rel) {
		return Change{}, fmt.Errorf("create %s: the client would not read it as a memory (hidden or reserved folder)", rel)
	}
	w := s.newWorkset()
	if err := w.create(rel, data); err != nil {
		return Change{}, fmt.Errorf("create %s: %w; pick another name", name, err)
	}
	if !m.NoIndex {
		ix, err := w.readIndex()
		if err != nil {
			return Change{}, err
		}
		title := strings.TrimSuffix(path.Base(rel), ".md")
		switch {
		case strings.TrimSpace(m.Title) != "":
			title = memindex.EntryTitle(m.Title, name)
		case strings.TrimSpace(m.Name) != name:
			title = memindex.EntryTitle(m.Name, name)
		}
		line := memindex.EntryLine(title, rel, m.Description)
		insertIndexLines(ix, indexInsertPoint(ix), []string{line})
		if err := w.putIndex(ix); err != nil {
			return Change{}, err
		}
	}
	return s.commit(OpCreate, fmt.Sprintf("create %s memory %s (%s)", m.Type, name, rel), w, o)
}

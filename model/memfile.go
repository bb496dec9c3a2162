package model

import (
	"bytes"
	"fmt"
	"io/fs"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// MemoryType is the kind of a typed memory file.
type MemoryType string

// The four memory types, plus untyped for a missing or unknown type.
const (
	TypeUser      MemoryType = "user"
	TypeFeedback  MemoryType = "feedback"
	TypeProject   MemoryType = "project"
	TypeReference MemoryType = "reference"
	TypeUntyped   MemoryType = "untyped"
)

// MemoryTypes lists the known types in the client's order.
var MemoryTypes = []MemoryType{TypeUser, TypeFeedback, TypeProject, TypeReference}

// ParseMemoryType maps a frontmatter type value to a MemoryType; anything
// but the four known types (exact spelling) is untyped, as in the client.
func ParseMemoryType(s string) MemoryType {
	switch t := MemoryType(s); t {
	case TypeUser, TypeFeedback, TypeProject, TypeReference:
		return t
	}
	return TypeUntyped
}

// FrontmatterForm says where a memory file keeps its type.
type FrontmatterForm string

// The frontmatter forms.
const (
	// FormNone: no frontmatter.
	FormNone FrontmatterForm = "none"
	// FormNested: the current form, type under metadata (also used for
	// frontmatter that has no type at all).
	FormNested FrontmatterForm = "nested"
	// FormFlat: the legacy form, a top-level type.
	FormFlat FrontmatterForm = "flat"
	// FormMixed: both; metadata.type wins.
	FormMixed FrontmatterForm = "mixed"
)

// MemoryFile is one typed memory file (a topic file beside MEMORY.md). The
// raw bytes are kept so an unchanged file writes back byte for byte; the
// Set methods edit only the lines they must.
type MemoryFile struct {
	// Path is the file's slash path relative to its memory folder.
	Path        string `json:"path"`
	Name        string `json:"name,omitempty"`
	Description string `json:"description,omitempty"`
	// Type is the effective type; RawType the value as written.
	Type    MemoryType `json:"type"`
	RawType string     `json:"rawType,omitempty"`
	// Modified is metadata.modified, the better clock when present.
	Modified        *time.Time `json:"modified,omitempty"`
	OriginSessionID string     `json:"originSessionId,omitempty"`
	// Metadata is the merged view: every top-level key but name,
	// description and metadata, overlaid by the metadata mapping.
	Metadata map[string]any  `json:"metadata,omitempty"`
	Form     FrontmatterForm `json:"form"`
	// Body is everything after the frontmatter (the whole file without one).
	Body string `json:"-"`
	// Size is the file size in bytes; ModTime its mtime.
	Size    int64     `json:"size"`
	ModTime time.Time `json:"mtime"`
	// Symlink is set when the file is a symbolic link: shown and read,
	// never written through.
	Symlink bool `json:"symlink,omitempty"`
	// Invalid is set when the frontmatter cannot be read; Problem says why.
	Invalid bool     `json:"invalid,omitempty"`
	Problem *Problem `json:"problem,omitempty"`

	raw []byte
	fm  Frontmatter
}

// Raw returns the file's bytes as read or as last edited.
func (f *MemoryFile) Raw() []byte { return f.raw }

// HeaderEnd is the byte offset where the body starts: just past the
// closing "---" line, or 0 for a file without frontmatter.
func (f *MemoryFile) HeaderEnd() int {
	if f.fm.Present {
		return f.fm.BodyStart
	}
	return 0
}

// Bytes returns the file's content to write back: the input unchanged, or
// with the edits made by the Set methods.
func (f *MemoryFile) Bytes() []byte { return bytes.Clone(f.raw) }

// ParseMemoryFile parses a memory file. It always returns the file; when
// the frontmatter cannot be read the file is marked Invalid and the
// problem (also returned) names the line and reason. name is the path
// used in Path and in problems.
func ParseMemoryFile(name string, data []byte) (*MemoryFile, *Problem) {
	return parseMemoryFile(name, data, true)
}

// parseMemoryFile is ParseMemoryFile; fast lets a block in the client's
// plain form skip the YAML parser (tests turn it off to compare).
func parseMemoryFile(name string, data []byte, fast bool) (*MemoryFile, *Problem) {
	f := &MemoryFile{Path: name, Type: TypeUntyped, Form: FormNone, raw: data, Size: int64(len(data))}
	var fm Frontmatter
	var prob *Problem
	if fast {
		fm, prob = parseMemoryFrontmatter(name, data)
	} else {
		fm, prob = ParseFrontmatter(name, data)
	}
	f.fm = fm
	switch {
	case fm.Present:
		f.Body = string(data[fm.BodyStart:])
	default:
		f.Body = string(bytes.TrimPrefix(data, utf8BOM))
	}
	if prob == nil && fm.Root != nil {
		prob = f.readKeys(name, fm)
	}
	if prob != nil {
		f.Invalid, f.Problem = true, prob
	}
	return f, prob
}

// parseMemoryFrontmatter is ParseFrontmatter with a fast path for a block
// in the plain form the client writes (see parseSimpleFrontmatter).
func parseMemoryFrontmatter(name string, data []byte) (Frontmatter, *Problem) {
	fm := SplitFrontmatter(data)
	if fm.Present {
		if root, ok := parseSimpleFrontmatter(data[fm.YAMLStart:fm.YAMLEnd]); ok {
			fm.Root = root
			return fm, nil
		}
	}
	return ParseFrontmatter(name, data)
}

// readKeys fills the typed fields from the frontmatter mapping.
func (f *MemoryFile) readKeys(name string, fm Frontmatter) *Problem {
	root := fm.Root
	meta := map[string]any{}
	var nested *yaml.Node
	_, flatType := mapValue(root, "type")
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		switch k.Value {
		case "name":
			f.Name = scalarText(v)
		case "description":
			f.Description = scalarText(v)
		case "metadata":
			nested = v
		default:
			val, err := decodeNode(v)
			if err != nil {
				return &Problem{File: name, Line: fm.FirstLine + v.Line - 1, Kind: ProblemInvalidFrontmatter, Reason: fmt.Sprintf("frontmatter key %q: %v", k.Value, err)}
			}
			meta[k.Value] = val
		}
	}
	var nestedType *yaml.Node
	if nested != nil && nested.Kind == yaml.MappingNode {
		if k := duplicateKey(nested); k != nil {
			return &Problem{File: name, Line: fm.FirstLine + k.Line - 1, Kind: ProblemInvalidFrontmatter, Reason: fmt.Sprintf("frontmatter: metadata key %q appears twice", k.Value)}
		}
		_, nestedType = mapValue(nested, "type")
		for i := 0; i+1 < len(nested.Content); i += 2 {
			val, err := decodeNode(nested.Content[i+1])
			if err != nil {
				return &Problem{File: name, Line: fm.FirstLine + nested.Content[i+1].Line - 1, Kind: ProblemInvalidFrontmatter, Reason: fmt.Sprintf("frontmatter metadata key %q: %v", nested.Content[i].Value, err)}
			}
			meta[nested.Content[i].Value] = val
		}
	} else if nested != nil && !isNull(nested) {
		meta["metadata"], _ = decodeNode(nested)
	}
	switch {
	case nestedType != nil && flatType != nil:
		f.Form = FormMixed
	case flatType != nil:
		f.Form = FormFlat
	default:
		f.Form = FormNested
	}
	if len(meta) > 0 {
		f.Metadata = meta
	}
	if t, ok := meta["type"].(string); ok {
		f.RawType, f.Type = t, ParseMemoryType(t)
	}
	if s, ok := meta["originSessionId"].(string); ok {
		f.OriginSessionID = s
	}
	f.Modified = parseModified(meta["modified"])
	return nil
}

func isNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.Tag == "!!null"
}

// scalarText is the text of a scalar node, "" for anything else.
func scalarText(n *yaml.Node) string {
	if n.Kind == yaml.ScalarNode && !isNull(n) {
		return n.Value
	}
	return ""
}

// decodeNode decodes a YAML value into plain Go values, turning a parser
// panic into an error.
func decodeNode(n *yaml.Node) (v any, err error) {
	defer func() {
		if r := recover(); r != nil {
			v, err = nil, fmt.Errorf("yaml decoder failed: %v", r)
		}
	}()
	if n.Kind == yaml.ScalarNode && n.Tag == "!!str" {
		return n.Value, nil // what Decode gives, without its reflection
	}
	err = n.Decode(&v)
	return v, err
}

// modifiedLayouts are the time forms accepted for metadata.modified: the
// client writes JavaScript's toISOString; people write shorter ones.
var modifiedLayouts = []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02 15:04:05", "2006-01-02"}

func parseModified(v any) *time.Time {
	switch t := v.(type) {
	case time.Time:
		return &t
	case string:
		for _, layout := range modifiedLayouts {
			if p, err := time.Parse(layout, strings.TrimSpace(t)); err == nil {
				return &p
			}
		}
	}
	return nil
}

// statAndRead opens name once to stat and read it (a folder of memory
// files is read on every preview, so the second open matters).
func statAndRead(fsys fs.FS, name string) (fs.FileInfo, []byte, error) {
	f, err := OpenRegular(fsys, name)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	st, err := OpenedInfo(f)
	if err != nil {
		return nil, nil, err
	}
	data, err := readBoundedSized(f, name, MaxDocumentBytes, st.Size())
	if err != nil {
		return nil, nil, err
	}
	return st, data, nil
}

// readHeldMemoryFile is ReadMemoryFile for the file rel (one name) of
// the held memory folder d, opened by its bare name (heldFolder.open);
// name is its name in the home. ok is false when that does not open it
// or it does not read whole (too large, a read error): ReadMemoryFile
// then reads it the usual way, and says why.
func readHeldMemoryFile(d heldFolder, name, rel string) (*MemoryFile, *Problem, bool) {
	r, st, ok := d.open(rel)
	if !ok {
		return nil, nil, false
	}
	defer r.Close()
	data, err := readBoundedSized(r, name, MaxDocumentBytes, st.Size())
	if err != nil {
		return nil, nil, false
	}
	f, prob := ParseMemoryFile(rel, data)
	f.ModTime = st.ModTime()
	if prob != nil {
		prob.File = name
	}
	return f, prob, true
}

// ReadMemoryFile reads and parses the file name of fsys; rel is the path
// recorded in MemoryFile.Path. A file that cannot be read is returned as
// nil with a ProblemUnreadable.
func ReadMemoryFile(fsys fs.FS, name, rel string) (*MemoryFile, *Problem) {
	st, data, err := statAndRead(fsys, name)
	if err != nil {
		return nil, &Problem{File: name, Kind: ProblemUnreadable, Reason: fmt.Sprintf("read memory file: %v", err)}
	}
	f, prob := ParseMemoryFile(rel, data)
	f.ModTime = st.ModTime()
	if prob != nil {
		prob.File = name
	}
	return f, prob
}

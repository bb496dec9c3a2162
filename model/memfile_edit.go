package model

import (
	"fmt"
	"time"

	"gopkg.in/yaml.v3"
)

// MemoryField names a frontmatter field the Set methods can change.
type MemoryField string

// The editable fields.
const (
	FieldName            MemoryField = "name"
	FieldDescription     MemoryField = "description"
	FieldType            MemoryField = "type"
	FieldModified        MemoryField = "modified"
	FieldOriginSessionID MemoryField = "originSessionId"
)

// ISOMillis is JavaScript's Date.toISOString layout, which the client uses
// for metadata.modified.
const ISOMillis = "2006-01-02T15:04:05.000Z"

// SetName sets the frontmatter name.
func (f *MemoryFile) SetName(v string) error { return f.set(FieldName, strNode(v)) }

// SetDescription sets the frontmatter description.
func (f *MemoryFile) SetDescription(v string) error {
	return f.set(FieldDescription, strNode(v))
}

// SetType sets metadata.type (or the legacy top-level type of a flat file)
// to one of the four known types.
func (f *MemoryFile) SetType(t MemoryType) error {
	if ParseMemoryType(string(t)) == TypeUntyped {
		return fmt.Errorf("set type of %s: %q is not one of user, feedback, project, reference", f.Path, t)
	}
	return f.set(FieldType, strNode(string(t)))
}

// SetModified sets metadata.modified, written as the client writes it
// (UTC, milliseconds, unquoted).
func (f *MemoryFile) SetModified(t time.Time) error {
	return f.set(FieldModified, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!timestamp", Value: t.UTC().Format(ISOMillis)})
}

// SetOriginSessionID sets metadata.originSessionId.
func (f *MemoryFile) SetOriginSessionID(id string) error {
	return f.set(FieldOriginSessionID, strNode(id))
}

// SetBody replaces everything after the frontmatter.
func (f *MemoryFile) SetBody(body string) error {
	if f.fm.Unclosed {
		return fmt.Errorf("set body of %s: frontmatter is not closed", f.Path)
	}
	start := 0
	if f.fm.Present {
		start = f.fm.BodyStart
	} else if len(f.raw) >= len(utf8BOM) && string(f.raw[:len(utf8BOM)]) == string(utf8BOM) {
		start = len(utf8BOM)
	}
	data := append(append([]byte{}, f.raw[:start]...), body...)
	return f.replaceWith(data, "", "")
}

func strNode(v string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: v}
}

func (f *MemoryFile) set(field MemoryField, value *yaml.Node) error {
	if f.Invalid {
		return fmt.Errorf("set %s of %s: the frontmatter is invalid (%s)", field, f.Path, f.Problem.Reason)
	}
	keyPath := []string{string(field)}
	if field != FieldName && field != FieldDescription {
		keyPath = []string{"metadata", string(field)}
	}
	// Edits need yaml.v3's own tree (styles, positions), not the fast
	// path's: parse the block again, as edits are rare.
	fm := f.fm
	if fm.Present {
		fm, _ = ParseFrontmatter(f.Path, f.raw)
	}
	data, err := setFrontmatterKey(f.raw, fm, keyPath, value)
	if err != nil {
		return fmt.Errorf("set %s of %s: %w", field, f.Path, err)
	}
	return f.replaceWith(data, field, value.Value)
}

// replaceWith re-parses edited bytes and adopts them only if they parse
// and the field reads back as written: a bad edit leaves f unchanged.
func (f *MemoryFile) replaceWith(data []byte, field MemoryField, want string) error {
	g, prob := ParseMemoryFile(f.Path, data)
	if prob != nil {
		return fmt.Errorf("edit of %s would break the frontmatter: %s", f.Path, prob.Reason)
	}
	if got := g.fieldText(field); field != "" && got != want {
		return fmt.Errorf("edit of %s: %s reads back as %q, not %q", f.Path, field, got, want)
	}
	g.ModTime = f.ModTime
	*f = *g
	return nil
}

func (f *MemoryFile) fieldText(field MemoryField) string {
	switch field {
	case FieldName:
		return f.Name
	case FieldDescription:
		return f.Description
	case FieldType:
		return f.RawType
	case FieldOriginSessionID:
		return f.OriginSessionID
	case FieldModified:
		if f.Modified != nil {
			return f.Modified.UTC().Format(ISOMillis)
		}
	}
	return ""
}

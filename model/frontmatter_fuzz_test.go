package model

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// FuzzFrontmatterEdit parses any file as a memory file and sets one field.
// Properties: no panic; an unchanged file writes back byte for byte; the
// body is a suffix of the input; a successful edit reads back as written,
// leaves the other fields and the body alone and keeps the bytes before
// the frontmatter.
func FuzzFrontmatterEdit(f *testing.F) {
	f.Add([]byte(clientWritten), uint8(0), "new value")
	f.Add([]byte(legacyFlat), uint8(2), "project")
	f.Fuzz(func(t *testing.T, data []byte, which uint8, value string) {
		mf, prob := ParseMemoryFile("f.md", data)
		if !bytes.Equal(mf.Bytes(), data) {
			t.Fatal("unchanged file does not write back byte for byte")
		}
		if (prob != nil) != mf.Invalid {
			t.Fatal("problem and Invalid disagree")
		}
		if !strings.HasSuffix(string(data), mf.Body) {
			t.Fatal("body is not a suffix of the input")
		}
		before := *mf
		var err error
		var field MemoryField
		switch which % 5 {
		case 0:
			field, err = FieldName, mf.SetName(value)
		case 1:
			field, err = FieldDescription, mf.SetDescription(value)
		case 2:
			field, err = FieldType, mf.SetType(MemoryTypes[len(value)%4])
		case 3:
			field, err = FieldModified, mf.SetModified(time.Unix(int64(len(value))*7919, 0))
		case 4:
			field, err = FieldOriginSessionID, mf.SetOriginSessionID(value)
		}
		if err != nil {
			if !bytes.Equal(mf.Bytes(), data) {
				t.Fatal("failed edit changed the file")
			}
			return
		}
		if before.Invalid {
			t.Fatal("edit of an invalid file succeeded")
		}
		again, prob := ParseMemoryFile("f.md", mf.Bytes())
		if prob != nil {
			t.Fatalf("edited file does not parse: %v", prob)
		}
		if field != FieldName && again.Name != before.Name || field != FieldDescription && again.Description != before.Description ||
			field != FieldType && again.RawType != before.RawType || field != FieldOriginSessionID && again.OriginSessionID != before.OriginSessionID {
			t.Fatalf("edit of %s changed another field:\n%q\n%q", field, data, mf.Bytes())
		}
		if before.fm.Present && again.Body != before.Body {
			t.Fatalf("edit changed the body")
		}
		if before.fm.Present && !bytes.HasPrefix(mf.Bytes(), data[:before.fm.YAMLStart]) {
			t.Fatal("edit changed the opening fence")
		}
	})
}

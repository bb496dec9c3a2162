package model

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
)

// Loads are the instruction loads one transcript records, read by
// ScanLoads.
type Loads struct {
	// Records are the instructions and nested_memory attachments, in file
	// order, with the text of the memory files they carry.
	Records []*Record
	// Problems are the lines among them that could not be read.
	Problems []Problem
}

// The bytes a line must hold to be a load: the record type, and one of
// the two attachment types (as a JSON string, whatever the spacing).
var (
	loadsNeedle       = []byte(`"attachment"`)
	loadsInstructions = []byte(`"` + AttachmentInstructions + `"`)
	loadsNestedMemory = []byte(`"` + AttachmentNestedMemory + `"`)
)

// ScanLoads reads the instructions and nested_memory attachments of the
// transcript r (named name in problems): which CLAUDE.md files, rules and
// MEMORY.md a session loaded at its start, and which joined it later. Only
// lines that hold both words are decoded, so a transcript is read at the
// speed of a byte search; what the lines hold is decoded as ScanTranscript
// would, with the memory files' text kept.
func ScanLoads(r io.Reader, name string) (Loads, error) {
	var out Loads
	dec := newRecordDecoder(name, ScanOptions{MemoryText: true})
	lr := NewLineReader(r)
	for {
		line, ok := lr.Next()
		if !ok {
			break
		}
		if line.TooLong || !bytes.Contains(line.Bytes, loadsNeedle) ||
			!bytes.Contains(line.Bytes, loadsInstructions) && !bytes.Contains(line.Bytes, loadsNestedMemory) {
			continue
		}
		rec := new(Record)
		p, ok := dec.decode(line, rec)
		if !ok {
			out.Problems = append(out.Problems, p)
			continue
		}
		out.Problems = append(out.Problems, dec.problems...)
		if rec.Type == RecordAttachment && (rec.AttachmentType == AttachmentInstructions || rec.AttachmentType == AttachmentNestedMemory) {
			out.Records = append(out.Records, rec)
		}
	}
	if err := lr.Err(); err != nil {
		return out, fmt.Errorf("read %s: %w", name, err)
	}
	return out, nil
}

// ReadLoads is ScanLoads on the transcript at path in fsys.
func ReadLoads(fsys fs.FS, path string) (Loads, error) {
	f, err := OpenRegular(fsys, path)
	if err != nil {
		return Loads{}, fmt.Errorf("open transcript %s: %w", path, err)
	}
	defer f.Close()
	return ScanLoads(f, path)
}

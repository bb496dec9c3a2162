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
	sc := NewLoadsScanner(name)
	lr := NewLineReader(r)
	for {
		line, ok := lr.Next()
		if !ok {
			break
		}
		sc.Line(line)
	}
	if err := lr.Err(); err != nil {
		return sc.Loads, fmt.Errorf("read %s: %w", name, err)
	}
	return sc.Loads, nil
}

// LoadsScanner is ScanLoads line by line, for a reader that reads the
// transcript for other passes too (engine/homepass): hand it each line
// in order; Loads is what ScanLoads returns for the lines handed.
type LoadsScanner struct {
	Loads
	dec *recordDecoder
}

// NewLoadsScanner returns a scanner of the transcript name (in problems).
func NewLoadsScanner(name string) *LoadsScanner {
	return &LoadsScanner{dec: newRecordDecoder(name, ScanOptions{MemoryText: true})}
}

// Line reads one line (its Bytes are not kept).
func (sc *LoadsScanner) Line(line Line) {
	if line.TooLong || !bytes.Contains(line.Bytes, loadsNeedle) ||
		!bytes.Contains(line.Bytes, loadsInstructions) && !bytes.Contains(line.Bytes, loadsNestedMemory) {
		return
	}
	rec := new(Record)
	p, ok := sc.dec.decode(line, rec)
	if !ok {
		sc.Problems = append(sc.Problems, p)
		return
	}
	sc.Problems = append(sc.Problems, sc.dec.problems...)
	if rec.Type == RecordAttachment && (rec.AttachmentType == AttachmentInstructions || rec.AttachmentType == AttachmentNestedMemory) {
		sc.Records = append(sc.Records, rec)
	}
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

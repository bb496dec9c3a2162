package model

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
)

// ProblemBadField is a record that was kept but one of whose fields could
// not be read (a timestamp that does not parse, a compactMetadata of the
// wrong shape). Unlike malformed lines, these do not remove the record.
const ProblemBadField ProblemKind = "bad-field"

// ErrStopScan may be returned by a ScanTranscript callback to stop reading
// early without an error.
var ErrStopScan = errors.New("stop scan")

// ScanOptions says how much of each record ScanTranscript decodes. The
// zero value decodes the top-level fields, message role/id/model/usage and
// compaction metadata, which is all a summary needs.
type ScanOptions struct {
	// Content decodes message content into blocks (types, sizes, tool ids).
	Content bool
	// KeepText also keeps the text of text, thinking and tool_result blocks,
	// and each tool_use block's input as written (ContentBlock.Input).
	KeepText bool
	// KeepRaw keeps a copy of every line in Record.Raw.
	KeepRaw bool
	// MemoryText keeps the text of the memory files (MEMORY.md) an
	// attachment carries, in AttachmentFile.Text.
	MemoryText bool
	// Keep, when set, is asked of each content block of a message (its
	// type, id, name, tool_use_id and is_error read, and its record's
	// top-level fields) whether to read the rest of it: the text, input
	// and result content of a block it refuses are skipped without being
	// decoded or counted (the block's Bytes, Chars, Text, Input and Images
	// stay zero, and the message's sizes leave it out). A reader that
	// needs the text of a few blocks (the loss ledger) then reads a
	// transcript at about the cost of checking it. A message whose content
	// is a string is asked about as one text block.
	Keep func(r *Record, b *ContentBlock) bool
	// ResultNeeds, when set with KeepText, is the only text a reader wants
	// of a tool_result written as one JSON string: a result whose raw
	// string holds neither ResultNeeds nor a \u escape cannot hold it once
	// decoded (no other escape makes a letter, a digit or a space), so its
	// Text is left empty instead of being decoded (its sizes are still
	// counted). A result written as an array of blocks is decoded as
	// before: ResultNeeds could straddle two of them. ResultNeeds must be
	// made of letters, digits and spaces.
	ResultNeeds string
	// SizeHint, when known, is the transcript's size in bytes:
	// ReadTranscriptFrom sizes its tree's index for the records that
	// many bytes hold (about one per bytesPerKept), instead of growing
	// it record by record.
	SizeHint int64
	// lineBuf is the line reader's buffer in bytes (0: lineReaderBufSize),
	// for a reader that reads a few small chunks of many files.
	lineBuf int
}

// ScanTranscript reads a JSONL transcript from r, calling fn (which may be
// nil) with each record in file order. name labels problems. A line that
// does not parse is skipped and reported; an unterminated last line that
// does not parse is an incomplete tail (a writer mid-append), not
// corruption. Unknown record types are kept and counted. The returned
// error is a read error or the error fn returned (other than ErrStopScan);
// the summary covers what was read either way.
func ScanTranscript(r io.Reader, name string, opts ScanOptions, fn func(*Record) error) (TranscriptSummary, error) {
	if fn == nil {
		return scanTranscript(r, name, opts, nil)
	}
	return scanTranscript(r, name, opts, func(rec *Record) (bool, error) { return true, fn(rec) })
}

// scanTranscript is ScanTranscript for a callback that says whether it
// kept the record it was given: a record it did not keep (fn false) is
// given again, cleared, for a later line, so a reader that keeps few of
// the records (ReadTranscriptFrom: the chain) allocates only those.
func scanTranscript(r io.Reader, name string, opts ScanOptions, fn func(*Record) (bool, error)) (TranscriptSummary, error) {
	z := newSummarizer(name, opts)
	cr := &CountingReader{R: r}
	var lr *LineReader
	if opts.lineBuf > 0 {
		lr = &LineReader{r: bufio.NewReaderSize(cr, opts.lineBuf), first: true}
	} else {
		lr = getLineReader(cr)
		defer putLineReader(lr)
	}
	var spare *Record // a record fn did not keep
	for {
		line, ok := lr.Next()
		if !ok {
			break
		}
		if z.Blank(line) {
			continue
		}
		rec := &z.rec
		switch {
		case fn == nil:
			z.rec = Record{}
		case spare != nil:
			rec, spare = spare, nil
			*rec = Record{}
		default:
			rec = new(Record)
		}
		if !z.line(line, rec) || fn == nil {
			if fn != nil {
				spare = rec
			}
			continue
		}
		kept, err := fn(rec)
		if !kept {
			spare = rec
		}
		if err != nil {
			if errors.Is(err, ErrStopScan) {
				return z.Summary(cr.N), nil
			}
			return z.Summary(cr.N), err
		}
	}
	s := z.Summary(cr.N)
	if err := lr.Err(); err != nil {
		return s, fmt.Errorf("read %s: %w", name, err)
	}
	return s, nil
}

// CountingReader counts the bytes read through it (N) and keeps the
// first error other than the end of the input (Err).
type CountingReader struct {
	R   io.Reader
	N   int64
	Err error
}

func (c *CountingReader) Read(p []byte) (int, error) {
	n, err := c.R.Read(p)
	c.N += int64(n)
	if err != nil && err != io.EOF && c.Err == nil {
		c.Err = err
	}
	return n, err
}

// SummarizeTranscript reads the transcript at path in fsys once and
// returns its summary.
func SummarizeTranscript(fsys fs.FS, path string) (TranscriptSummary, error) {
	f, err := OpenRegular(fsys, path)
	if err != nil {
		return TranscriptSummary{Path: path}, fmt.Errorf("open transcript %s: %w", path, err)
	}
	defer f.Close()
	return ScanTranscript(f, path, ScanOptions{}, nil)
}

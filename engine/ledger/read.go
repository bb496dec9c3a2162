package ledger

import (
	"fmt"
	"io"
	"io/fs"

	"github.com/memscope/memscope/engine/timeline"
	"github.com/memscope/memscope/model"
)

// leanOptions are ScanOptions for one file that keep only the text the
// ledger reads of the records before a boundary: the user's text (prompts
// and summaries), the input of ledgerTools' calls, and the result of a
// Bash call (its exit code). The rest (the model's text and thinking,
// other tools' inputs and results, images) is skipped without being
// decoded, which is most of a transcript's bytes. A Bash result comes
// after its call in the file, so the calls' ids are known when it is read;
// of its text only what may hold "Exit code" is decoded (ResultNeeds).
func leanOptions() model.ScanOptions {
	bash := map[string]bool{}
	o := ScanOptions
	o.ResultNeeds = exitWords
	o.Keep = func(r *model.Record, b *model.ContentBlock) bool {
		switch b.Type {
		case model.BlockText:
			return r.Type == model.RecordUser
		case model.BlockToolUse:
			if b.Name == "Bash" && b.ID != "" {
				bash[b.ID] = true
			}
			return ledgerTools[b.Name]
		case model.BlockToolResult:
			return bash[b.ToolUseID]
		}
		return false
	}
	return o
}

// readLean reads the transcript name for Build (from r, which gives its
// bytes from the start, or else opened in fsys; size is its size when
// known, else 0): with leanOptions, then
// the records of each preserved segment again in full, since the
// after-text of a partial compaction is every word of its segment. The
// ledger of what it returns is the ledger of the file read with
// ScanOptions (TestLeanReadSameLedger).
func readLean(fsys fs.FS, name string, r io.Reader, size int64) (*model.Transcript, error) {
	var t *model.Transcript
	var err error
	o := leanOptions()
	o.SizeHint = size
	if r != nil {
		t, err = model.ReadTranscriptFrom(r, name, o)
	} else {
		t, err = model.ReadTranscriptWith(fsys, name, o)
	}
	if err != nil {
		return nil, err
	}
	var seg []*model.Record
	for _, r := range t.Boundaries() {
		if r.IsCompactBoundary() && r.Compact != nil && r.Compact.PreservedSegment != nil {
			if rs, err := timeline.PreservedRecords(t, r.Compact.PreservedSegment); err == nil {
				seg = append(seg, rs...)
			}
		}
	}
	if len(seg) == 0 {
		return t, nil
	}
	if ok, err := rereadFull(fsys, name, seg); err != nil || !ok {
		// The file changed under us or cannot be read at an offset:
		// read it whole.
		return model.ReadTranscriptWith(fsys, name, ScanOptions)
	}
	return t, nil
}

// rereadFull decodes again, with ScanOptions, the lines of records (read
// from the file name at their offsets) and puts the full records in their
// place. It reports false when the file cannot be read at an offset or a
// line no longer holds the record read before.
func rereadFull(fsys fs.FS, name string, records []*model.Record) (bool, error) {
	f, err := model.OpenRegular(fsys, name)
	if err != nil {
		return false, fmt.Errorf("open transcript %s: %w", name, err)
	}
	defer f.Close()
	at, ok := f.(io.ReaderAt)
	if !ok {
		return false, nil
	}
	dec := model.NewLineDecoder(name, ScanOptions)
	done := map[*model.Record]bool{}
	for _, r := range records {
		if done[r] {
			continue
		}
		done[r] = true
		buf := make([]byte, r.Size)
		if _, err := at.ReadAt(buf, r.Offset); err != nil {
			return false, nil
		}
		full := new(model.Record)
		if _, ok := dec.Decode(model.Line{Bytes: buf, Number: r.Line, Offset: r.Offset, Terminated: true, Size: int64(r.Size)}, full); !ok ||
			full.UUID != r.UUID || full.ParentUUID != r.ParentUUID || full.Type != r.Type {
			return false, nil
		}
		*r = *full
	}
	return true, nil
}

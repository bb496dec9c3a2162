package ledger

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"

	"github.com/memscope/memscope/model"
)

// Session is the ledger of one transcript of a home.
type Session struct {
	File       model.TranscriptFile `json:"file"`
	Boundaries []Boundary           `json:"boundaries"`
}

// compactMark is in every line that can be a compact boundary: a file
// without it has nothing for the ledger and is not parsed.
var compactMark = []byte(`compact_boundary`)

// Home computes the ledger of every transcript of a home (main sessions
// and subagents) that has a compaction, newest first as model.FindTranscripts
// lists them. A file is first read raw for the boundary's subtype, so a
// home of transcripts that never compacted costs one read of each; a file
// that cannot be read is a problem, not an error.
func Home(home fs.FS) ([]Session, []model.Problem) {
	files, probs := model.FindTranscripts(home)
	out := []Session{}
	for _, f := range files {
		has, err := contains(home, f.Path, compactMark)
		if err != nil {
			probs = append(probs, model.EntryProblem(f.Path, err))
			continue
		}
		if !has {
			continue
		}
		t, err := model.ReadTranscriptWith(home, f.Path, ScanOptions)
		if err != nil {
			probs = append(probs, model.EntryProblem(f.Path, err))
			continue
		}
		probs = append(probs, t.Summary.Problems...)
		if l := Build(t); len(l.Boundaries) > 0 {
			out = append(out, Session{File: f, Boundaries: l.Boundaries})
		}
	}
	return out, probs
}

// contains reads the regular file name in fsys in chunks and reports
// whether it holds mark (found across a chunk edge too).
func contains(fsys fs.FS, name string, mark []byte) (bool, error) {
	f, err := model.OpenRegular(fsys, name)
	if err != nil {
		return false, fmt.Errorf("open transcript %s: %w", name, err)
	}
	defer f.Close()
	buf := make([]byte, 256<<10)
	keep := 0
	for {
		n, err := f.Read(buf[keep:])
		total := keep + n
		if bytes.Contains(buf[:total], mark) {
			return true, nil
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				return false, nil
			}
			return false, fmt.Errorf("read transcript %s: %w", name, err)
		}
		keep = min(total, len(mark)-1)
		copy(buf, buf[total-keep:total])
	}
}

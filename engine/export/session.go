package export

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/memscope/memscope/internal/format"
	"github.com/memscope/memscope/model"
)

// SessionSource says where a session to export is read from.
type SessionSource struct {
	// FS holds the transcript at Transcript (a slash path). Subagent
	// transcripts are looked for beside it, in <session>/subagents/.
	FS         fs.FS
	Transcript string
	// Home is the Claude home, for history.jsonl and the paste cache;
	// nil when the transcript is not in a known home (pastes then stay
	// as their placeholders).
	Home fs.FS
}

// LoadSessionExport reads a session and builds its export whole (for
// a file of any size, OpenSession and Write instead). Only a transcript
// that cannot be opened (or changes while it is read) is an error; bad
// lines, a missing history or paste cache and unreadable subagent files
// are problems in the export.
func LoadSessionExport(src SessionSource, now time.Time) (*SessionExport, error) {
	s, err := OpenSession(src, now)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	return s.Whole()
}

// readSessionHistory keeps the history prompts that may belong to
// session: its own, and those without a session id from its folder cwd
// (old lines).
func readSessionHistory(home fs.FS, session, cwd string, probs []model.Problem) ([]*model.HistoryEntry, []model.Problem) {
	f, err := model.OpenRegular(home, model.HistoryPath)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			probs = append(probs, model.Problem{File: model.HistoryPath, Kind: model.ProblemUnreadable, Reason: err.Error()})
		}
		return nil, probs
	}
	defer f.Close()
	var out []*model.HistoryEntry
	_, err = model.ScanHistory(f, model.HistoryPath, func(e *model.HistoryEntry) {
		if string(e.SessionID) == session || e.SessionID == "" && e.Project == cwd {
			c := *e
			out = append(out, &c)
		}
	})
	if err != nil {
		probs = append(probs, model.Problem{File: model.HistoryPath, Kind: model.ProblemUnreadable, Reason: err.Error()})
	}
	return out, probs
}

// NoSessionError is a session id no transcript of the home has.
type NoSessionError struct{ ID string }

func (e *NoSessionError) Error() string { return fmt.Sprintf("no session %q in the home", e.ID) }

// FindSession finds a main transcript of home by session id or a unique
// prefix of one (a main transcript wins over the seed layout of the same
// session).
func FindSession(home fs.FS, id string) (model.TranscriptFile, error) {
	files, _ := model.FindTranscripts(home)
	var hits []model.TranscriptFile
	for _, f := range files {
		if f.Kind == model.TranscriptSubagent {
			continue
		}
		if f.SessionID == id {
			hits = append([]model.TranscriptFile{f}, hits...)
			continue
		}
		if id != "" && strings.HasPrefix(f.SessionID, id) {
			hits = append(hits, f)
		}
	}
	sort.SliceStable(hits, func(i, j int) bool {
		if (hits[i].SessionID == id) != (hits[j].SessionID == id) {
			return hits[i].SessionID == id
		}
		return hits[i].Kind == model.TranscriptMain && hits[j].Kind != model.TranscriptMain
	})
	switch {
	case len(hits) == 0:
		return model.TranscriptFile{}, &NoSessionError{ID: id}
	case len(hits) > 1 && hits[0].SessionID != id && hits[1].SessionID != hits[0].SessionID:
		var ids []string
		for _, h := range hits {
			ids = append(ids, h.SessionID)
		}
		return model.TranscriptFile{}, fmt.Errorf("session %q is ambiguous: %s", id, strings.Join(ids, ", "))
	}
	return hits[0], nil
}

// Session exports session sessionID (or a unique prefix) of home in
// format, whole in memory (the panes and the CLI write a session's
// export as it is made: OpenSession, SessionStream.Write).
func Session(home *model.Home, sessionID string, format Format, now time.Time) ([]byte, error) {
	if home == nil {
		return nil, fmt.Errorf("export session %s: no home", sessionID)
	}
	f, err := FindSession(home.FS, sessionID)
	if err != nil {
		return nil, fmt.Errorf("export session: %w", err)
	}
	x, err := LoadSessionExport(SessionSource{FS: home.FS, Transcript: f.Path, Home: home.FS}, now)
	if err != nil {
		return nil, fmt.Errorf("export session %s: %w", sessionID, err)
	}
	return RenderSessionExport(x, format)
}

// RenderSessionExport renders x in format.
func RenderSessionExport(x *SessionExport, format Format) ([]byte, error) {
	var b bytes.Buffer
	if err := writeSession(&b, x, format, wholeEntries(x)); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// marshalExport is v as indented JSON with a final newline. HTML
// characters are left as they are: the JSON is data, not a page.
func marshalExport(v any) ([]byte, error) {
	var b bytes.Buffer
	if err := exportEncoder(&b, "").Encode(v); err != nil {
		return nil, fmt.Errorf("encode export: %w", err)
	}
	return b.Bytes(), nil
}

// exportEncoder is marshalExport's encoder: two-space indents after
// prefix (the indent of a value inside the document).
func exportEncoder(w io.Writer, prefix string) *json.Encoder {
	enc := json.NewEncoder(w)
	enc.SetIndent(prefix, "  ")
	enc.SetEscapeHTML(false)
	return enc
}

// DefaultName is the file name to offer for a session export:
// "claude-session-<first 8 of the id>.<format>", with anything but
// letters, digits, '-' and '_' taken out of the id.
func DefaultName(sessionID string, f Format) string {
	return "claude-session-" + safeNamePart(format.ShortID(sessionID), "session") + "." + string(f)
}

// DefaultMemoryExportName is the file name to offer for a memory export
// of the project at projectPath.
func DefaultMemoryExportName(projectPath string, format Format) string {
	base := path.Base(strings.ReplaceAll(projectPath, "\\", "/"))
	return "claude-memory-" + safeNamePart(base, "project") + "." + string(format)
}

func safeNamePart(s, fallback string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
			b.WriteRune(r)
		}
	}
	if b.Len() == 0 {
		return fallback
	}
	return b.String()
}

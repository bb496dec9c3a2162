package filehist

import (
	"fmt"
	"io/fs"
	"sort"
	"time"

	"github.com/memscope/memscope/model"
)

// ReadSessionFileHistory reads a session's file history from the home
// fsys: its transcript (path inside the home) and its backup folder.
func ReadSessionFileHistory(fsys fs.FS, sid model.SessionID, transcript string) (SessionFileHistory, error) {
	var t model.FileHistoryTranscript
	if transcript != "" {
		f, err := model.OpenRegular(fsys, transcript)
		if err != nil {
			return SessionFileHistory{}, fmt.Errorf("read file history of session %s: %w", sid, err)
		}
		t, err = model.ReadFileHistoryTranscript(f, transcript)
		f.Close()
		if err != nil {
			return SessionFileHistory{}, err
		}
	}
	folder, probs := model.ReadFileHistorySession(fsys, sid)
	t.Problems = append(t.Problems, probs...)
	return BuildSessionFileHistory(sid, transcript, t, folder), nil
}

// SessionSummary is one session with a backup folder, for a
// list of sessions.
type SessionSummary struct {
	SessionID model.SessionID `json:"sessionId"`
	// Transcript is the main transcript's path inside the home, "" when
	// it is gone (swept or deleted) while the backups remain.
	Transcript  string `json:"transcript,omitempty"`
	ProjectSlug string `json:"projectSlug,omitempty"`
	Backups     int    `json:"backups"`
	Bytes       int64  `json:"bytes"`
	// ModTime is the backup folder's mtime, which the client's cleanup
	// goes by.
	ModTime time.Time `json:"modTime"`
}

// Sessions lists the sessions of the home fsys that have a
// backup folder, newest folder first, with their transcripts.
func Sessions(fsys fs.FS) ([]SessionSummary, []model.Problem) {
	folders, probs := model.ListFileHistory(fsys)
	transcripts, tprobs := model.FindTranscripts(fsys)
	probs = append(probs, tprobs...)
	main := map[string]model.TranscriptFile{}
	for _, t := range transcripts {
		if old, ok := main[t.SessionID]; t.Kind == model.TranscriptMain || t.Kind == model.TranscriptSeed && (!ok || old.Kind != model.TranscriptMain) {
			main[t.SessionID] = t
		}
	}
	out := make([]SessionSummary, 0, len(folders))
	for _, f := range folders {
		s := SessionSummary{SessionID: f.SessionID, Backups: len(f.Backups), ModTime: f.ModTime}
		for _, b := range f.Backups {
			s.Bytes += b.Size
		}
		if t, ok := main[string(f.SessionID)]; ok {
			s.Transcript, s.ProjectSlug = t.Path, t.ProjectSlug
		}
		out = append(out, s)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].ModTime.After(out[j].ModTime) })
	return out, probs
}

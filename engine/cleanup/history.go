package cleanup

import (
	"errors"
	"io/fs"
	"path"
	"sort"

	"github.com/memscope/memscope/model"
)

// danglingPastes finds the history lines whose paste-cache file is among
// the items the sweep will delete, and what history names that is already
// gone: references whose paste is gone, sessions whose transcript is. A
// paste also kept in the seed paste-store (never swept) does not dangle.
func danglingPastes(fsys fs.FS, items []Item) ([]DanglingPaste, Lost, []model.Problem) {
	hist, err := model.ReadHistory(fsys, model.HistoryPath)
	var probs []model.Problem
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		probs = append(probs, model.Problem{File: model.HistoryPath, Kind: model.ProblemUnreadable, Reason: err.Error()})
	}
	out := []DanglingPaste{}
	lost := Lost{Sessions: []LostSession{}, Pastes: []LostPaste{}}
	if hist == nil {
		return out, lost, probs
	}
	probs = append(probs, hist.Problems...)
	swept := map[string]*Item{}
	for i := range items {
		if items[i].Kind == KindPaste {
			swept[items[i].Path] = &items[i]
		}
	}
	kept := map[model.PasteHash]bool{}
	inStore := func(h model.PasteHash) bool {
		v, ok := kept[h]
		if !ok {
			_, err := fs.Stat(fsys, path.Join(model.PasteStoreDir, string(h)))
			v = err == nil
			kept[h] = v
		}
		return v
	}
	for i := range hist.Entries {
		e := &hist.Entries[i]
		for _, p := range e.SortedPastes() {
			if p.Inline || p.Hash == "" || !fs.ValidPath(string(p.Hash)) || path.Base(string(p.Hash)) != string(p.Hash) {
				continue
			}
			pp := path.Join(model.PasteCacheDir, string(p.Hash)+".txt")
			it, ok := swept[pp]
			switch {
			case !ok:
				if !inStore(p.Hash) {
					lost.Pastes = append(lost.Pastes, LostPaste{File: hist.Path, Line: e.Line, PasteID: p.ID, Hash: p.Hash,
						Project: e.Project, SessionID: e.SessionID, Time: e.Timestamp})
				}
			case it.Bucket == BucketNever || inStore(p.Hash):
			default:
				out = append(out, DanglingPaste{File: hist.Path, Line: e.Line, PasteID: p.ID, Hash: p.Hash, PastePath: pp,
					Project: e.Project, SessionID: e.SessionID, Eligible: it.Eligible, DaysLeft: it.DaysLeft, Bucket: it.Bucket})
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if !out[i].Eligible.Equal(out[j].Eligible) {
			return out[i].Eligible.Before(out[j].Eligible)
		}
		if out[i].Line != out[j].Line {
			return out[i].Line < out[j].Line
		}
		return out[i].PasteID < out[j].PasteID
	})
	lost.Sessions, lost.Unattributed = lostSessions(fsys, hist, items)
	lost.span()
	return out, lost, probs
}

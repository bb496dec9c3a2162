package cleanup

import (
	"errors"
	"io/fs"
	"path"
	"sort"

	"github.com/memscope/memscope/model"
)

// danglingPastes finds the history lines whose paste-cache file is among
// the items the sweep will delete, and counts the references whose paste
// is already gone. A paste also kept in the seed paste-store (never swept)
// does not dangle.
func danglingPastes(fsys fs.FS, items []Item) ([]DanglingPaste, int, []model.Problem) {
	hist, err := model.ReadHistory(fsys, model.HistoryPath)
	var probs []model.Problem
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		probs = append(probs, model.Problem{File: model.HistoryPath, Kind: model.ProblemUnreadable, Reason: err.Error()})
	}
	out := []DanglingPaste{}
	if hist == nil {
		return out, 0, probs
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
	missing := 0
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
					missing++
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
	return out, missing, probs
}

package cleanup

import (
	"errors"
	"io/fs"
	"path"
	"slices"
	"sort"

	"github.com/memscope/memscope/model"
)

// historyRead is where the forecast's read of history.jsonl stopped, and
// what its complete lines gave, so Refresh reads only what is appended.
type historyRead struct {
	tail     model.HistoryTail
	dangling []DanglingPaste
	missing  int
	probs    []model.Problem
}

// danglingPastes finds the history lines whose paste-cache file is among
// the items the sweep will delete, and counts the references whose paste
// is already gone. A paste also kept in the seed paste-store (never swept)
// does not dangle. hr is the read to continue from (nil when history
// could not be read).
func danglingPastes(fsys fs.FS, items []Item) (out []DanglingPaste, missing int, probs []model.Problem, hr *historyRead) {
	hr = &historyRead{}
	read, err := hr.tail.Read(fsys, model.HistoryPath)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			probs = append(probs, model.Problem{File: model.HistoryPath, Kind: model.ProblemUnreadable, Reason: err.Error()})
		}
		return []DanglingPaste{}, 0, probs, nil
	}
	d := newDangler(fsys, items)
	hr.dangling, hr.missing = d.entries(read.Entries, nil)
	hr.probs = read.Problems
	out, missing, probs = hr.finish(fsys, d)
	return out, missing, probs, hr
}

// finish adds the unterminated last line (counted as a whole read counts
// it, never kept: it is still being written) to what the complete lines
// gave, and sorts.
func (hr *historyRead) finish(fsys fs.FS, d *dangler) ([]DanglingPaste, int, []model.Problem) {
	out := slices.Clone(hr.dangling)
	missing := hr.missing
	probs := slices.Clone(hr.probs)
	pend, pprobs, err := hr.tail.Pending(fsys, model.HistoryPath)
	if err == nil {
		out, missing = d.entries(pend, out)
		missing += hr.missing
		probs = append(probs, pprobs...)
	}
	if out == nil {
		out = []DanglingPaste{}
	}
	sortDangling(out)
	return out, missing, probs
}

// dangler tells which paste references dangle, given the items.
type dangler struct {
	fsys  fs.FS
	swept map[string]*Item
	kept  map[model.PasteHash]bool
}

func newDangler(fsys fs.FS, items []Item) *dangler {
	d := &dangler{fsys: fsys, swept: map[string]*Item{}, kept: map[model.PasteHash]bool{}}
	for i := range items {
		if items[i].Kind == KindPaste {
			d.swept[items[i].Path] = &items[i]
		}
	}
	return d
}

// inStore says the seed paste-store keeps a copy of h.
func (d *dangler) inStore(h model.PasteHash) bool {
	v, ok := d.kept[h]
	if !ok {
		_, err := fs.Stat(d.fsys, path.Join(model.PasteStoreDir, string(h)))
		v = err == nil
		d.kept[h] = v
	}
	return v
}

// entries appends the dangling references of entries to out and counts
// the ones already missing.
func (d *dangler) entries(entries []model.HistoryEntry, out []DanglingPaste) ([]DanglingPaste, int) {
	missing := 0
	for i := range entries {
		e := &entries[i]
		for _, p := range e.SortedPastes() {
			if p.Inline || p.Hash == "" || !fs.ValidPath(string(p.Hash)) || path.Base(string(p.Hash)) != string(p.Hash) {
				continue
			}
			pp := path.Join(model.PasteCacheDir, string(p.Hash)+".txt")
			it, ok := d.swept[pp]
			switch {
			case !ok:
				if !d.inStore(p.Hash) {
					missing++
				}
			case it.Bucket == BucketNever || d.inStore(p.Hash):
			default:
				out = append(out, DanglingPaste{File: model.HistoryPath, Line: e.Line, PasteID: p.ID, Hash: p.Hash, PastePath: pp,
					Project: e.Project, SessionID: e.SessionID, Eligible: it.Eligible, DaysLeft: it.DaysLeft, Bucket: it.Bucket})
			}
		}
	}
	return out, missing
}

// sortDangling orders dangling pastes by eligibility, line, paste id.
func sortDangling(out []DanglingPaste) {
	sort.SliceStable(out, func(i, j int) bool {
		if !out[i].Eligible.Equal(out[j].Eligible) {
			return out[i].Eligible.Before(out[j].Eligible)
		}
		if out[i].Line != out[j].Line {
			return out[i].Line < out[j].Line
		}
		return out[i].PasteID < out[j].PasteID
	})
}

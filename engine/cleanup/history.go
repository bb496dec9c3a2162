package cleanup

import (
	"errors"
	"io/fs"
	"maps"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/memscope/memscope/model"
)

// historyRead is where the forecast's read of history.jsonl stopped, and
// what its complete lines gave, so Refresh reads only what is appended.
type historyRead struct {
	tail     model.HistoryTail
	dangling []DanglingPaste
	// lostPastes are the references whose paste is gone; lost the
	// sessions without a transcript.
	lostPastes []LostPaste
	lost       *lostSessions
	probs      []model.Problem
}

// danglingPastes finds the history lines whose paste-cache file is among
// the items the sweep will delete, and what history names that is already
// gone: references whose paste is gone, sessions whose transcript is. A
// paste also kept in the seed paste-store (never swept) does not dangle.
// hr is the read to continue from (nil when history could not be read).
// held, when set, is the file as a reader holds it (Options.History):
// only what follows it is read.
func danglingPastes(fsys fs.FS, items []Item, held *model.HistoryRead) (out []DanglingPaste, lost Lost, probs []model.Problem, hr *historyRead) {
	hr = &historyRead{lost: newLostSessions(fsys, items)}
	read, probs, ok := heldOrRead(fsys, &hr.tail, held)
	if !ok {
		return []DanglingPaste{}, Lost{Sessions: []LostSession{}, Pastes: []LostPaste{}}, probs, nil
	}
	d := newDangler(fsys, items)
	if read.Sums != nil {
		// The reader's digest of the entries (model.HistorySums).
		hr.dangling, hr.lostPastes = d.refs(read.Sums.Pastes, nil, nil)
		hr.lost.addSums(read.Sums)
	} else {
		hr.dangling, hr.lostPastes = d.entries(read.Entries, nil, nil)
		hr.lost.add(read.Entries)
	}
	hr.probs = read.Problems
	out, lost, probs = hr.finish(fsys, d)
	return out, lost, probs, hr
}

// heldOrRead is history.jsonl as held (the tail set where the held read
// stopped) or, when held is nil, read whole through tail. ok is false
// when it could not be read; probs then says why (nothing for a missing
// file).
func heldOrRead(fsys fs.FS, tail *model.HistoryTail, held *model.HistoryRead) (read model.HistoryRead, probs []model.Problem, ok bool) {
	if held != nil {
		tail.State = held.Tail.State
		return *held, nil, true
	}
	read, err := tail.Read(fsys, model.HistoryPath)
	if err == nil {
		return read, nil, true
	}
	if !errors.Is(err, fs.ErrNotExist) {
		probs = []model.Problem{{File: model.HistoryPath, Kind: model.ProblemUnreadable, Reason: err.Error()}}
	}
	return read, probs, false
}

// lostOnly is danglingPastes's Lost without the pastes: the sessions
// history names (held, then what follows it, or the whole file when held
// is nil) without a transcript among the items.
func lostOnly(fsys fs.FS, items []Item, held *model.HistoryRead) (Lost, []model.Problem) {
	lost := Lost{Sessions: []LostSession{}, Pastes: []LostPaste{}}
	sessions := newLostSessions(fsys, items)
	var tail model.HistoryTail
	read, probs, ok := heldOrRead(fsys, &tail, held)
	if !ok {
		return lost, probs
	}
	if read.Sums != nil {
		// The reader's digest of the entries (model.HistorySums), as
		// danglingPastes takes it.
		sessions.addSums(read.Sums)
	} else {
		sessions.add(read.Entries)
	}
	probs = slices.Clone(read.Problems)
	if pend, pprobs, err := tail.Pending(fsys, model.HistoryPath); err == nil {
		sessions.add(pend)
		probs = append(probs, pprobs...)
	}
	lost.Sessions, lost.Unattributed = sessions.list()
	lost.span()
	return lost, probs
}

// finish adds the unterminated last line (counted as a whole read counts
// it, never kept: it is still being written) to what the complete lines
// gave, and sorts.
func (hr *historyRead) finish(fsys fs.FS, d *dangler) ([]DanglingPaste, Lost, []model.Problem) {
	out := slices.Clone(hr.dangling)
	lost := Lost{Pastes: slices.Clone(hr.lostPastes)}
	probs := slices.Clone(hr.probs)
	sessions := hr.lost
	pend, pprobs, err := hr.tail.Pending(fsys, model.HistoryPath)
	if err == nil {
		out, lost.Pastes = d.entries(pend, out, lost.Pastes)
		probs = append(probs, pprobs...)
		if len(pend) > 0 {
			sessions = sessions.clone()
			sessions.add(pend)
		}
	}
	if out == nil {
		out = []DanglingPaste{}
	}
	if lost.Pastes == nil {
		lost.Pastes = []LostPaste{}
	}
	sortDangling(out)
	lost.Sessions, lost.Unattributed = sessions.list()
	lost.span()
	return out, lost, probs
}

// dangler tells which paste references dangle, given the items.
type dangler struct {
	fsys  fs.FS
	swept map[string]*Item
	kept  map[model.PasteHash]bool
	// listed are the paste-store's names (see inStore); nil until listed.
	listed map[string]bool
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

// inStore says the seed paste-store keeps a copy of h. The store is
// listed once: a hash with no name in it (compared without case, for a
// file system that folds case) has no file there, so only the names the
// listing holds are stat'ed (a link must lead somewhere). When the store
// cannot be listed, every hash is stat'ed as before.
func (d *dangler) inStore(h model.PasteHash) bool {
	v, ok := d.kept[h]
	if !ok {
		if d.listed == nil {
			d.listStore()
		}
		if d.listed[storeKey] || d.listed[strings.ToLower(string(h))] {
			_, err := fs.Stat(d.fsys, path.Join(model.PasteStoreDir, string(h)))
			v = err == nil
		}
		d.kept[h] = v
	}
	return v
}

// storeKey in listed means the store could not be listed.
const storeKey = "\x00unlisted"

// listStore fills listed with the store's names, lowercased.
func (d *dangler) listStore() {
	d.listed = map[string]bool{}
	ents, err := fs.ReadDir(d.fsys, model.PasteStoreDir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		d.listed[storeKey] = true
		return
	}
	for _, e := range ents {
		d.listed[strings.ToLower(e.Name())] = true
	}
}

// entries appends the dangling references of entries to out, and those
// whose paste is already gone to lost.
func (d *dangler) entries(entries []model.HistoryEntry, out []DanglingPaste, lost []LostPaste) ([]DanglingPaste, []LostPaste) {
	for i := range entries {
		e := &entries[i]
		for _, p := range e.SortedPastes() {
			if !p.Inline && p.Hash != "" {
				out, lost = d.ref(model.HistoryPasteRef{Line: e.Line, ID: p.ID, Hash: p.Hash, Project: e.Project, SessionID: e.SessionID, Time: e.Timestamp}, out, lost)
			}
		}
	}
	return out, lost
}

// refs is entries for the pastes kept by hash of a digest of the
// entries (model.HistorySums.Pastes).
func (d *dangler) refs(refs []model.HistoryPasteRef, out []DanglingPaste, lost []LostPaste) ([]DanglingPaste, []LostPaste) {
	for i := range refs {
		out, lost = d.ref(refs[i], out, lost)
	}
	return out, lost
}

// ref appends the paste p refers to by hash to out when it dangles, to
// lost when it is already gone.
func (d *dangler) ref(p model.HistoryPasteRef, out []DanglingPaste, lost []LostPaste) ([]DanglingPaste, []LostPaste) {
	if !fs.ValidPath(string(p.Hash)) || path.Base(string(p.Hash)) != string(p.Hash) {
		return out, lost
	}
	pp := path.Join(model.PasteCacheDir, string(p.Hash)+".txt")
	it, ok := d.swept[pp]
	switch {
	case !ok:
		if !d.inStore(p.Hash) {
			lost = append(lost, LostPaste{File: model.HistoryPath, Line: p.Line, PasteID: p.ID, Hash: p.Hash,
				Project: p.Project, SessionID: p.SessionID, Time: p.Time})
		}
	case it.Bucket == BucketNever || d.inStore(p.Hash):
	default:
		out = append(out, DanglingPaste{File: model.HistoryPath, Line: p.Line, PasteID: p.ID, Hash: p.Hash, PastePath: pp,
			Project: p.Project, SessionID: p.SessionID, Eligible: it.Eligible, DaysLeft: it.DaysLeft, Bucket: it.Bucket})
	}
	return out, lost
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

// lostSessions gathers, history line by history line, the sessions
// history names with no transcript among the items (nor in the seed
// layout's sessions/<id>/transcript.jsonl), so Refresh adds only the
// lines appended. It is not changed once a forecast holds it: clone it
// first.
type lostSessions struct {
	fsys fs.FS
	// have are the sessions with a transcript (and ids that cannot name
	// one); at is where each lost session is in sessions, in the order
	// history first names them.
	have         map[model.SessionID]bool
	at           map[model.SessionID]int
	sessions     []LostSession
	unattributed int
}

func newLostSessions(fsys fs.FS, items []Item) *lostSessions {
	l := &lostSessions{fsys: fsys, have: map[model.SessionID]bool{}, at: map[model.SessionID]int{}}
	for _, it := range items {
		if it.Kind == KindTranscript {
			l.have[it.Session] = true
		}
	}
	return l
}

// clone is a copy to add lines to.
func (l *lostSessions) clone() *lostSessions {
	c := *l
	c.have, c.at, c.sessions = maps.Clone(l.have), maps.Clone(l.at), slices.Clone(l.sessions)
	return &c
}

// seedTranscript is the seed layout's transcript of session id.
func seedTranscript(id model.SessionID) string {
	return "sessions/" + string(id) + "/transcript.jsonl"
}

// changedBy says whether the seed-layout transcript of id appearing or
// going may change which sessions are lost.
func (l *lostSessions) changedBy(id model.SessionID) bool {
	_, err := fs.Stat(l.fsys, seedTranscript(id))
	_, lost := l.at[id]
	if err == nil {
		return lost
	}
	return l.have[id]
}

// add counts the history entries.
func (l *lostSessions) add(entries []model.HistoryEntry) {
	for i := range entries {
		e := &entries[i]
		if e.SessionID == "" {
			l.unattributed++
			continue
		}
		l.session(model.HistorySession{ID: e.SessionID, Project: e.Project, Display: e.Display, Line: e.Line, First: e.Timestamp, Last: e.Timestamp, Prompts: 1})
	}
}

// addSums counts a digest of the history entries (model.HistorySums).
func (l *lostSessions) addSums(sums *model.HistorySums) {
	l.unattributed += sums.Unattributed
	for i := range sums.Sessions {
		l.session(sums.Sessions[i])
	}
}

// session counts the entries of one session (their sum).
func (l *lostSessions) session(e model.HistorySession) {
	if l.have[e.ID] {
		return
	}
	k, ok := l.at[e.ID]
	if !ok {
		if _, err := fs.Stat(l.fsys, seedTranscript(e.ID)); err == nil || !fs.ValidPath(string(e.ID)) {
			l.have[e.ID] = true
			return
		}
		k = len(l.sessions)
		l.at[e.ID] = k
		l.sessions = append(l.sessions, LostSession{SessionID: e.ID, Project: e.Project, First: e.First, Last: e.Last,
			FirstPrompt: firstWords(e.Display), Line: e.Line})
	}
	s := &l.sessions[k]
	model.FoldTimes(&s.First, &s.Last, e.First, e.Last)
	s.Prompts += e.Prompts
}

// list is the lost sessions, oldest first, and the lines without a
// session.
func (l *lostSessions) list() ([]LostSession, int) {
	out := slices.Clone(l.sessions)
	sort.SliceStable(out, func(i, j int) bool { return out[i].First.Before(out[j].First) })
	if out == nil {
		out = []LostSession{}
	}
	return out, l.unattributed
}

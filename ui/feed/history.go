package feed

import (
	"errors"
	"io/fs"
	"maps"
	"path"
	"slices"
	"sort"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/engine/diskcache"
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/views/history"
	"github.com/memscope/memscope/views/msgs"
	"github.com/memscope/memscope/views/pastes"
)

// History feeds the History and Pastes panes: history.jsonl, read from
// where the last read stopped, and the paste inventory checked against
// history's references (a paste file already hashed is not read again;
// with a disk cache, not even at the next start). Each has one read at a
// time (Flight), later requests merged behind it.
type History struct {
	// home is read at each load (a test swaps its FS to count reads).
	home  *model.Home
	cache *diskcache.Store

	read Flight[bool] // a request is "read all of it"
	tail *model.HistoryTail
	hist *model.History
	// held is where the reads that built hist stopped; missing says the
	// file was not there (hist is empty).
	held    model.TailState
	missing bool
	refs    model.PasteRefs
	whole   bool // the running read reads the whole file
	checks  Flight[PastesReq]
	// pastesShown says a pane that shows the paste inventory (the
	// History pane's badges, the Pastes pane) was shown (ShowPastes):
	// until then the checks wait in pastesWaiting, merged, so a start on
	// another pane lists and hashes no paste file.
	pastesShown   bool
	pastesWaiting *PastesReq
	// verdicts remembers the paste files already hashed; restored says
	// the ones kept by an earlier run were asked for (cache).
	verdicts  *model.PasteVerdicts
	restored  bool
	inventory *model.PasteInventory
	pasteRefs map[model.PasteHash]int
	// status is the inventory's resolutions by hash (the History pane's
	// badges).
	status map[model.PasteHash]model.PasteResolution
	// digest is history.jsonl as the start found it from the digest an
	// earlier run kept (loadDigest) while hist is nil: what Held hands
	// the Overview until a pane that shows history is shown
	// (ShowPastes), which reads the file whole. digested says a digest
	// describing the file was read or written this run: a whole read
	// keeps one only when it was not (or the file changed under it).
	digest   *model.HistoryRead
	digested bool
}

// NewHistory returns the feed of home (its folder is the cache's key),
// its first whole read counted as running: Init starts it.
func NewHistory(home *model.Home, cache *diskcache.Store) *History {
	h := &History{home: home, cache: cache, tail: &model.HistoryTail{}, verdicts: model.NewPasteVerdicts(), whole: true}
	h.read.Begin()
	return h
}

// PastesReq asks for the paste inventory to be checked against history's
// current references: the paste folders listed again (Full), or only the
// files named (the rest of the last listing is kept).
type PastesReq struct {
	Full  bool
	Names map[string]bool
}

// MergePastes is the request that does what a and b ask.
func MergePastes(a, b PastesReq) PastesReq {
	r := PastesReq{Full: a.Full || b.Full, Names: map[string]bool{}}
	maps.Copy(r.Names, a.Names)
	maps.Copy(r.Names, b.Names)
	return r
}

// HistoryRead is what a read of history.jsonl found.
type HistoryRead struct {
	err error // the file could not be read; nothing else is set
	// read is what was read: all of the file (read.Full, then history is
	// set) or what was appended.
	read    model.HistoryRead
	missing bool // history.jsonl is not there: read is empty
	history *model.History
	// refs counts history's paste references (with a full read).
	refs model.PasteRefs
	// digest says read is the digest kept by an earlier run and what
	// was appended since (Full, history nil): the entries are what the
	// Overview's lines read, not what the History pane shows.
	digest bool
}

// Read is what the read found: all of the file (Full) or what was
// appended.
func (msg HistoryRead) Read() model.HistoryRead { return msg.read }

// PastesChecked is the paste inventory for the references refs.
type PastesChecked struct {
	inventory *model.PasteInventory
	refs      map[model.PasteHash]int
}

// Open is the project the History pane shows: its slug and real folder
// (the slug when unknown).
type Open struct{ Slug, Path string }

// HistoryOut is what a read or check means to the panes: each pane's
// message (nil: nothing for it), the error to show, and the next read.
type HistoryOut struct {
	History, Pastes tea.Msg
	Err             error
	Cmd             tea.Cmd
}

// History is the history last read (nil before the first read or after
// an unreadable one).
func (h *History) History() *model.History { return h.hist }

// Held is history.jsonl as the feed holds it, for a reader that would
// otherwise read the whole file again (the Overview's cleanup forecast,
// cleanup.Options.History): the entries and problems of the complete
// lines read so far and where the reads stopped. nil before the first
// read lands, after an unreadable one, and when there is no file (the
// reader says so itself). The entries are shared, not copied: the
// reader only reads them, and only the fields Append never changes
// (Append moves the up-arrow window, InUpArrow, in place). While the
// feed holds the digest (Digested), the read has no entries but their
// sums (model.HistoryRead.Sums), which are never changed once handed out.
func (h *History) Held() *model.HistoryRead {
	if h.hist == nil && h.digest != nil {
		// Loaded replaces the sums, never changes them.
		p := len(h.digest.Problems)
		return &model.HistoryRead{Sums: h.digest.Sums, Problems: h.digest.Problems[:p:p], Full: true, Tail: model.TailResult{State: h.held}}
	}
	if h.hist == nil || h.missing {
		return nil
	}
	n, p := len(h.hist.Entries), len(h.hist.Problems)
	return &model.HistoryRead{Entries: h.hist.Entries[:n:n], Problems: h.hist.Problems[:p:p], Full: true, Tail: model.TailResult{State: h.held}}
}

// Digested says the feed holds the digest of history.jsonl an earlier
// run kept, not the file's entries: a whole read that lands then is the
// one a pane's showing asked for, and tells the Overview nothing new
// unless the file changed (HistoryRead.Reset).
func (h *History) Digested() bool { return h.hist == nil && h.digest != nil }

// Inventory is the paste inventory last checked.
func (h *History) Inventory() *model.PasteInventory { return h.inventory }

// Hashed counts the paste files hashed by this run's checks.
func (h *History) Hashed() int { return h.verdicts.Hashed() }

// ReadingAll reports whether a read of all of history.jsonl runs.
func (h *History) ReadingAll() bool { return h.read.Running() && h.whole }

// Reading reports whether a read of history.jsonl runs.
func (h *History) Reading() bool { return h.read.Running() }

// Init is the start-up read NewHistory counted: with a cache, the
// digest an earlier run kept and what was appended since (the whole
// file when a pane that shows it is shown, ShowPastes); else, or when
// the digest no longer describes the file, all of history.jsonl.
func (h *History) Init() tea.Cmd {
	if h.cache == nil {
		return h.load(true)
	}
	return h.loadDigest()
}

// Request reads what was appended to history.jsonl (all of it: all),
// or queues it behind the running read.
func (h *History) Request(all bool) tea.Cmd {
	if !h.read.Start(all, func(a, b bool) bool { return a || b }) {
		return nil
	}
	return h.load(all)
}

// Changed requests what a batch of file events (names relative to the
// home) changes: what was appended to history.jsonl, the paste files
// named (all of the inventory when a paste folder itself changed, or
// the folders as last listed when only something deeper did).
func (h *History) Changed(names map[string]bool) tea.Cmd {
	var cmds []tea.Cmd
	if names[model.HistoryPath] {
		cmds = append(cmds, h.Request(false))
	}
	r, pasted := PastesReq{Names: map[string]bool{}}, false
	for n := range names {
		first, _, _ := strings.Cut(n, "/")
		pasted = pasted || first == model.PasteCacheDir || first == model.PasteStoreDir
		dir, name := path.Split(n)
		switch strings.TrimSuffix(dir, "/") {
		case model.PasteCacheDir, model.PasteStoreDir:
			if name != "" {
				r.Names[n] = true
				continue
			}
		}
		if n == model.PasteCacheDir || n == model.PasteStoreDir {
			r.Full = true
		}
	}
	if pasted {
		cmds = append(cmds, h.RequestPastes(r))
	}
	return tea.Batch(cmds...)
}

// load reads what was appended to history.jsonl since the last read, or
// all of it (the first time, when asked, or when the file is no longer
// the one read before). A whole read after the start's (the panes' first
// after the start held the digest, ctrl+r) runs at a low priority
// (lowPriority): the keys pressed meanwhile come first.
func (h *History) load(all bool) tea.Cmd {
	fsys, tail := h.home.FS, h.tail
	h.whole = all
	if all {
		tail.State = model.TailState{}
	}
	cache, keep := h.cache, !h.digested
	name := diskcache.Name(historyDigestKind, h.home.Dir)
	cmd := func() tea.Msg {
		read, err := tail.Read(fsys, model.HistoryPath)
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				return HistoryRead{err: err}
			}
			// A home where nothing was typed yet has no history file.
			read = model.HistoryRead{Full: true}
		}
		if read.Full && err == nil && (keep || read.Reset != "") {
			saveDigest(cache, name, read)
		}
		return wholeRead(read, err != nil)
	}
	if all && h.digested {
		return func() tea.Msg { return lowPriority(cmd) }
	}
	return cmd
}

// wholeRead is the message of a read: with a whole one, its history and
// paste references.
func wholeRead(read model.HistoryRead, missing bool) HistoryRead {
	msg := HistoryRead{read: read, missing: missing}
	if read.Full {
		msg.history = model.NewHistory(model.HistoryPath, read.Entries, read.Problems)
		msg.refs = model.PasteRefsOf(msg.history)
	}
	return msg
}

// Loaded takes a read: a new history, or entries to append, for the
// project open. The paste inventory is checked again when history refers
// to new pastes. A file that could not be read drops what was read
// before: the panes must not show a file the home no longer lets
// memscope read, and they say why.
func (h *History) Loaded(msg HistoryRead, open Open, now time.Time) HistoryOut {
	var out HistoryOut
	if r, ok := h.read.Done(); ok {
		out.Cmd = h.load(r)
	}
	if msg.err != nil {
		h.hist, h.refs, h.held = nil, model.PasteRefs{}, model.TailState{}
		why := "history.jsonl not read: " + msg.err.Error()
		out.Err, out.History, out.Pastes = msg.err, history.UnavailableMsg{Why: why}, pastes.UnavailableMsg{Why: why}
		return out
	}
	r := msg.read
	h.held, h.missing = r.Tail.State, msg.missing
	h.digested = true
	if msg.digest {
		// The Overview reads the digest; the panes wait for the whole
		// read (at once when one of them is already shown).
		h.hist, h.refs, h.digest = nil, model.PasteRefs{}, &r
		if h.pastesShown && !h.read.Running() {
			out.Cmd = tea.Batch(out.Cmd, h.Request(true))
		}
		return out
	}
	if !r.Full && h.hist == nil && h.digest != nil {
		if len(r.Entries) > 0 {
			// A reader may hold the sums Held gave: add to a copy.
			sums := h.digest.Sums.Clone()
			sums.Add(r.Entries)
			h.digest.Sums = sums
		}
		h.digest.Problems = append(h.digest.Problems, r.Problems...)
		return out
	}
	h.digest = nil
	if r.Full || h.hist == nil {
		if msg.history == nil {
			msg.history = model.NewHistory(model.HistoryPath, r.Entries, r.Problems)
			msg.refs = model.PasteRefsOf(msg.history)
		}
		h.hist, h.refs = msg.history, msg.refs
		out.History = h.Entries(open, now)
		// A whole read (the start, ctrl+r, history rewritten) lists the
		// paste folders again too.
		out.Cmd = tea.Batch(out.Cmd, h.RequestPastes(PastesReq{Full: true}))
		return out
	}
	if len(r.Entries) == 0 && len(r.Problems) == 0 {
		return out
	}
	before := cap(h.hist.Entries)
	h.hist.Append(r.Entries, r.Problems)
	hashed := h.refs.Add(r.Entries)
	// The pane holds pointers into the entries: show them again when
	// the open project got prompts, or when the entries moved.
	if cap(h.hist.Entries) != before || touches(r.Entries, open) {
		out.History = h.Entries(open, now)
	}
	if hashed {
		out.Cmd = tea.Batch(out.Cmd, h.RequestPastes(PastesReq{}))
	}
	return out
}

// touches reports whether any of entries belongs to the project open.
func touches(entries []model.HistoryEntry, open Open) bool {
	for i := range entries {
		if p := entries[i].Project; p == open.Path || model.Slug(p) == open.Slug {
			return true
		}
	}
	return false
}

// ShowPastes says a pane that shows the paste inventory is shown: the
// checks asked for until then run now (and later ones at once).
func (h *History) ShowPastes() tea.Cmd {
	if h.pastesShown {
		return nil
	}
	h.pastesShown = true
	if h.hist == nil && h.digest != nil {
		// Held the digest until now: the panes' entries and references
		// come from the whole file (whose read lists the pastes).
		return h.Request(true)
	}
	if h.pastesWaiting == nil {
		return nil
	}
	r := *h.pastesWaiting
	h.pastesWaiting = nil
	return h.RequestPastes(r)
}

// RequestPastes checks the paste inventory against history's current
// references, or queues the check behind the running one (or, before a
// pane that shows it is shown, until then: ShowPastes).
func (h *History) RequestPastes(r PastesReq) tea.Cmd {
	if !h.pastesShown {
		if h.pastesWaiting != nil {
			r = MergePastes(*h.pastesWaiting, r)
		}
		h.pastesWaiting = &r
		return nil
	}
	if !h.checks.Start(r, MergePastes) {
		return nil
	}
	return h.check(r)
}

// check lists the paste folders and checks every referenced hash; a file
// already checked (same name, size, mtime and inode) is not read again.
//
// With a cache the verdicts outlive the run: the first check starts from
// the ones an earlier run kept (each used only for the file version its
// stamp names), and a check that hashed a file keeps them again.
func (h *History) check(r PastesReq) tea.Cmd {
	fsys, v, refs := h.home.FS, h.verdicts, h.refs.Clone()
	prev := h.inventory
	if r.Full {
		prev = nil
	}
	names := slices.Sorted(maps.Keys(r.Names))
	cache, restore := h.cache, !h.restored
	h.restored = true
	name := diskcache.Name(pasteCacheKind, h.home.Dir)
	return func() tea.Msg {
		if restore {
			if saved, ok := diskcache.Load[[]model.PasteVerdict](cache, pasteCacheKind, name); ok {
				v.Restore(saved)
			}
		}
		before := v.Hashed()
		inv, ok := model.UpdatePasteInventory(fsys, refs, v, prev, names)
		if !ok {
			inv = model.InventoryPasteRefs(fsys, refs, v)
		}
		if v.Hashed() > before {
			// A cache that cannot be written costs the next start its
			// speed, never its answer.
			_ = diskcache.Save(cache, pasteCacheKind, name, v.Saved())
		}
		return PastesChecked{inventory: inv, refs: refs.Counts}
	}
}

// pasteCacheKind names and versions the paste verdicts kept across runs.
const pasteCacheKind = "paste-verdicts.1"

// Checked takes a check: the History pane's prompts again (their badges)
// and the Pastes pane's inventory, and starts the check waiting.
func (h *History) Checked(msg PastesChecked, open Open, now time.Time) HistoryOut {
	// The inventory first: the check waiting starts from it.
	h.inventory, h.pasteRefs = msg.inventory, msg.refs
	h.status = make(map[model.PasteHash]model.PasteResolution, len(msg.inventory.Resolutions))
	for _, r := range msg.inventory.Resolutions {
		h.status[r.Hash] = r
	}
	var out HistoryOut
	if r, ok := h.checks.Done(); ok {
		out.Cmd = h.check(r)
	}
	out.History = h.Entries(open, now)
	out.Pastes = h.InventoryMsg(now)
	return out
}

// InventoryMsg is the Pastes pane's message for the inventory last
// checked; nil before a check landed.
func (h *History) InventoryMsg(now time.Time) tea.Msg {
	if h.inventory == nil {
		return nil
	}
	return pastes.InventoryMsg{Inventory: h.inventory, Refs: h.pasteRefs, Now: now}
}

// Entries is the History pane's message for the project open: its
// prompts, with the status of their hashed pastes from the inventory;
// nil before history is read.
func (h *History) Entries(open Open, now time.Time) tea.Msg {
	if h.hist == nil {
		return nil
	}
	status := h.status
	if status == nil {
		status = map[model.PasteHash]model.PasteResolution{}
	}
	var entries []*model.HistoryEntry
	ps := h.projects(open)
	for _, p := range ps {
		entries = append(entries, h.hist.ForProject(p)...)
	}
	if len(ps) > 1 {
		sort.SliceStable(entries, func(i, j int) bool { return entries[i].Line > entries[j].Line })
	}
	return history.EntriesMsg{Project: open.Slug, Entries: entries, Status: status, Now: now}
}

// projects are the history "project" values that belong to the project
// open: its real path, and any path whose slug is the project's folder
// (history keeps the startup folder, which the slug cannot be reversed
// to).
func (h *History) projects(open Open) []string {
	var out []string
	for _, p := range h.hist.Projects() {
		if p == open.Path || model.Slug(p) == open.Slug {
			out = append(out, p)
		}
	}
	return out
}

// ResolvePaste reads one paste's text.
func (h *History) ResolvePaste(hash string) tea.Cmd {
	fsys := h.home.FS
	return func() tea.Msg {
		r := model.NewPasteCache(fsys).Resolve(model.PasteHash(hash))
		return msgs.PasteResolved{Hash: hash, Status: string(r.Status), Content: r.Content, Reason: r.Reason}
	}
}

package ui

import (
	"errors"
	"github.com/memscope/memscope/views/history"
	"github.com/memscope/memscope/views/pastes"
	"io/fs"
	"maps"
	"path"
	"slices"
	"sort"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/engine/diskcache"
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/views/msgs"
)

// historyReq asks for what was appended to history.jsonl, or for all of
// it (full).
type historyReq struct{ full bool }

func mergeHistory(a, b historyReq) historyReq { return historyReq{full: a.full || b.full} }

type historyLoadedMsg struct {
	err error // the file could not be read; nothing else is set
	// read is what was read: all of the file (read.Full, then history is
	// set) or what was appended.
	read    model.HistoryRead
	history *model.History
	// refs counts history's paste references (with a full read).
	refs model.PasteRefs
}

// pastesLoadedMsg carries the paste inventory for the references refs.
type pastesLoadedMsg struct {
	inventory *model.PasteInventory
	refs      map[model.PasteHash]int
}

// requestHistory starts reading history.jsonl, or queues it behind the
// running read.
func (m *Model) requestHistory(r historyReq) tea.Cmd {
	return m.fl.history.request(m, r, mergeHistory, Model.loadHistoryCmd)
}

// loadHistoryCmd reads what was appended to history.jsonl since the last
// read, or all of it (the first time, when asked, or when the file is no
// longer the one read before).
func (m Model) loadHistoryCmd(r historyReq) tea.Cmd {
	fsys, tail := m.opts.Home.FS, m.live.history
	if r.full {
		tail.State = model.TailState{}
		m.loading["history"] = true
	}
	return func() tea.Msg {
		read, err := tail.Read(fsys, model.HistoryPath)
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				return historyLoadedMsg{err: err}
			}
			// A home where nothing was typed yet has no history file.
			read = model.HistoryRead{Full: true}
		}
		msg := historyLoadedMsg{read: read}
		if read.Full {
			msg.history = model.NewHistory(model.HistoryPath, read.Entries, read.Problems)
			msg.refs = model.PasteRefsOf(msg.history)
		}
		return msg
	}
}

// applyHistoryRead takes what loadHistoryCmd read: a new history, or
// entries to append. The paste inventory is checked again when history
// refers to new pastes.
func (m *Model) applyHistoryRead(msg historyLoadedMsg) tea.Cmd {
	r := msg.read
	if r.Full || m.data.history == nil {
		if msg.history == nil {
			msg.history = model.NewHistory(model.HistoryPath, r.Entries, r.Problems)
			msg.refs = model.PasteRefsOf(msg.history)
		}
		m.data.history, m.data.refs = msg.history, msg.refs
		m.showHistory()
		// A whole read (the start, ctrl+r, history rewritten) lists the
		// paste folders again too.
		return m.requestPastes(pastesReq{full: true})
	}
	if len(r.Entries) == 0 && len(r.Problems) == 0 {
		return nil
	}
	before := cap(m.data.history.Entries)
	m.data.history.Append(r.Entries, r.Problems)
	hashed := m.data.refs.Add(r.Entries)
	// The pane holds pointers into the entries: show them again when
	// the open project got prompts, or when the entries moved.
	if cap(m.data.history.Entries) != before || m.touchesOpen(r.Entries) {
		m.showHistory()
	}
	if hashed {
		return m.requestPastes(pastesReq{})
	}
	return nil
}

// touchesOpen reports whether any of entries belongs to the open project.
func (m *Model) touchesOpen(entries []model.HistoryEntry) bool {
	openPath := m.data.openPath()
	for i := range entries {
		if p := entries[i].Project; p == openPath || model.Slug(p) == m.data.open {
			return true
		}
	}
	return false
}

// historyDone ends a history read and starts the one waiting.
func (m *Model) historyDone() tea.Cmd { return m.fl.history.finish(m, Model.loadHistoryCmd) }

// pastesReq asks for the paste inventory to be checked against
// history's current references: the paste folders listed again (full),
// or only the files named (the rest of the last listing is kept).
type pastesReq struct {
	full  bool
	names map[string]bool
}

func mergePastes(a, b pastesReq) pastesReq {
	r := pastesReq{full: a.full || b.full, names: map[string]bool{}}
	for n := range a.names {
		r.names[n] = true
	}
	for n := range b.names {
		r.names[n] = true
	}
	return r
}

// requestPastes starts checking the paste inventory against history's
// current references, or queues it behind the running check.
func (m *Model) requestPastes(r pastesReq) tea.Cmd {
	return m.fl.pastes.request(m, r, mergePastes, Model.loadPastesCmd)
}

// pasteNames are the changed files in the paste folders, for a check
// that lists only those; full when a folder itself changed.
func pasteNames(c change) pastesReq {
	r := pastesReq{names: map[string]bool{}}
	for n := range c.names {
		dir, name := path.Split(n)
		switch strings.TrimSuffix(dir, "/") {
		case model.PasteCacheDir, model.PasteStoreDir:
			if name != "" {
				r.names[n] = true
				continue
			}
		}
		if n == model.PasteCacheDir || n == model.PasteStoreDir {
			r.full = true
		}
	}
	return r
}

// loadPastesCmd lists the paste folders and checks every referenced
// hash; a file already checked (same name, size, mtime and inode) is not
// read again.
//
// With Options.Cache the verdicts outlive the run: the first check starts
// from the ones an earlier run kept (each used only for the file version
// its stamp names), and a check that hashed a file keeps them again.
func (m Model) loadPastesCmd(r pastesReq) tea.Cmd {
	fsys, v, refs := m.opts.Home.FS, m.live.verdicts, m.data.refs.Clone()
	prev := m.data.inventory
	if r.full {
		prev = nil
	}
	names := slices.Sorted(maps.Keys(r.names))
	cache, restore := m.opts.Cache, !m.live.restored
	m.live.restored = true
	name := diskcache.Name(pasteCacheKind, m.opts.Home.Dir)
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
		return pastesLoadedMsg{inventory: inv, refs: refs.Counts}
	}
}

// pasteCacheKind names and versions the paste verdicts kept across runs.
const pasteCacheKind = "paste-verdicts.1"

// pastesDone ends a paste check and starts the one waiting.
func (m *Model) pastesDone() tea.Cmd { return m.fl.pastes.finish(m, Model.loadPastesCmd) }

// resolvePasteCmd reads one paste's text.
func (m Model) resolvePasteCmd(hash string) tea.Cmd {
	fsys := m.opts.Home.FS
	return func() tea.Msg {
		r := model.NewPasteCache(fsys).Resolve(model.PasteHash(hash))
		return msgs.PasteResolved{Hash: hash, Status: string(r.Status), Content: r.Content, Reason: r.Reason}
	}
}

// showHistory shows the open project's prompts, with the status of their
// hashed pastes from the paste inventory.
func (m *Model) showHistory() {
	h := m.data.history
	if h == nil {
		return
	}
	status := m.data.pasteStatus
	if status == nil {
		status = map[model.PasteHash]model.PasteResolution{}
	}
	var entries []*model.HistoryEntry
	ps := m.historyProjects()
	for _, p := range ps {
		entries = append(entries, h.ForProject(p)...)
	}
	if len(ps) > 1 {
		sort.SliceStable(entries, func(i, j int) bool { return entries[i].Line > entries[j].Line })
	}
	m.p.history, _ = m.p.history.Update(history.EntriesMsg{Project: m.data.open, Entries: entries, Status: status, Now: m.opts.Now()})
}

// setInventory takes a new paste inventory.
func (m *Model) setInventory(inv *model.PasteInventory, refs map[model.PasteHash]int) {
	m.data.inventory, m.data.pasteRefs = inv, refs
	m.data.pasteStatus = make(map[model.PasteHash]model.PasteResolution, len(inv.Resolutions))
	for _, r := range inv.Resolutions {
		m.data.pasteStatus[r.Hash] = r
	}
}

// historyUnavailable tells History and Pastes that history.jsonl could
// not be read (a link out of the home, a FIFO, no permission), so they
// name the reason rather than say "reading…" for good. What was read
// before is dropped: the panes must not show a file the home no longer
// lets memscope read.
func (m *Model) historyUnavailable(err error) {
	m.data.history, m.data.refs = nil, model.PasteRefs{}
	why := "history.jsonl not read: " + err.Error()
	m.p.history, _ = m.p.history.Update(history.UnavailableMsg{Why: why})
	m.p.pastes, _ = m.p.pastes.Update(pastes.UnavailableMsg{Why: why})
}

// showPastes shows the paste inventory.
func (m *Model) showPastes() {
	m.p.pastes, _ = m.p.pastes.Update(pastes.InventoryMsg{Inventory: m.data.inventory, Refs: m.data.pasteRefs, Now: m.opts.Now()})
}

// historyProjects are the history "project" values that belong to the open
// project: its real path, and any path whose slug is the project's folder
// (history keeps the startup folder, which the slug cannot be reversed to).
func (m *Model) historyProjects() []string {
	if m.data.history == nil {
		return nil
	}
	var out []string
	openPath := m.data.openPath()
	for _, p := range m.data.history.Projects() {
		if p == openPath || model.Slug(p) == m.data.open {
			out = append(out, p)
		}
	}
	return out
}

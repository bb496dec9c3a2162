package ui

import (
	"errors"
	"fmt"
	"github.com/memscope/memscope/ui/feed"
	"path/filepath"

	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/model"
)

// Editing is off when the home, or the open project's memory folder,
// refuses writes: a read-only mount, a folder without write permission.
// Both are probed by creating and removing a temporary file (permission
// bits alone do not tell: root, read-only mounts, ACLs); the home once at
// start, the memory folder whenever a project loads.

// writableMsg says whether memscope may write in the home (project false)
// or in the open project's memory folder; err is nil when it may.
type writableMsg struct {
	project bool
	err     error
}

// writes is the WriteFS edits and probes go through.
func (m Model) writes() model.WriteFS {
	if m.opts.Writes == nil {
		return model.OSWriteFS{}
	}
	return m.opts.Writes
}

// checkWritableCmd probes the home for write access. A home that is not
// a folder on disk (feed.HomeOnDisk: a test's MapFS) cannot be written;
// unlike a memory folder, a missing home is not created.
func (m Model) checkWritableCmd() tea.Cmd {
	dir, w, machine := m.opts.Home.Dir, m.writes(), m.opts.Root
	return func() tea.Msg {
		if st, err := w.Stat(dir); !feed.HomeOnDisk(machine, dir) || err != nil || !st.IsDir() {
			return writableMsg{err: fmt.Errorf("the home %s is not a folder on disk", dir)}
		}
		return writableMsg{err: model.ProbeWritable(w, dir)}
	}
}

// applyWritable records a probe's result and turns editing off or on.
func (m *Model) applyWritable(msg writableMsg) {
	if msg.project {
		m.projectRO = msg.err
	} else {
		m.homeRO = msg.err
	}
	ro := m.homeRO != nil || m.projectRO != nil
	if ro == m.readOnly {
		return
	}
	m.readOnly = ro
	for i := range paneTable {
		if p, ok := m.paneAt(i).(readOnlyPane); ok {
			p.SetReadOnly(ro)
		}
	}
	m.layout()
}

// readOnlyBanner says editing is off and which folder refuses writes.
func (m Model) readOnlyBanner() string {
	for _, err := range []error{m.homeRO, m.projectRO} {
		if ro := (*model.ReadOnlyError)(nil); errors.As(err, &ro) {
			dir := ro.Dir
			// A memory folder is named inside the home, to fit the row.
			if rel, err := filepath.Rel(m.opts.Home.Dir, dir); err == nil && rel != "." && filepath.IsLocal(rel) {
				dir = rel
			}
			// The folder comes from the home path and a project slug.
			return "READ-ONLY HOME — cannot write in " + model.SanitizeLine(dir) + "; browsing only, edits are disabled"
		}
	}
	return "READ-ONLY HOME — browsing only; edits are disabled"
}

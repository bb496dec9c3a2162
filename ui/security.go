package ui

import (
	"github.com/memscope/memscope/ui/feed"

	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/engine/secrets"
	"github.com/memscope/memscope/views/security"
)

// The Security pane's I/O: the scan of every store for secrets, scrub
// plans, scrubs, and the restore and forgetting of scrub copies.

// secretsOptions are the scan's options: the home, and the machine for
// the projects' own CLAUDE.md and settings files and ~/.claude.json.
func (m Model) secretsOptions() secrets.Options {
	return secrets.Options{Home: m.opts.Home, Root: m.root(), UserHome: m.opts.Getenv("HOME"), Getenv: m.opts.Getenv}
}

// busyOptions say how a scrub tells files Claude Code may be writing:
// the machine's /proc (through Root), and the clock.
func (m Model) busyOptions() secrets.BusyOptions {
	return secrets.BusyOptions{Root: m.opts.Root, Now: m.opts.Now()}
}

// rescanSecrets reads the home again after a scrub, restore or forget.
func (m *Model) rescanSecrets() tea.Cmd {
	m.feeds.secrets.Invalidate()
	if m.focus != paneSecurity {
		return nil
	}
	return m.lazyLoadCmd()
}

// handleSecurity serves the Security pane's requests.
func (m Model) handleSecurity(msg tea.Msg) (Model, tea.Cmd, bool) {
	switch msg := msg.(type) {
	case feed.SecretsLoaded:
		delete(m.loading, "secrets")
		paneTable[paneSecurity].update(m.p, m.feeds.secrets.Loaded(msg))
		return m, nil, true
	case security.PlanRequest:
		o, b, r := m.secretsOptions(), m.busyOptions(), *msg.Report
		sel := msg.Selection
		m.setStatus("planning the scrub…", false)
		return m, feed.PlanScrub(o, r, sel, b), true
	case security.PlanMsg:
		m.setStatus("", false)
		return m, paneTable[paneSecurity].update(m.p, msg), true
	case security.ApplyRequest, security.RestoreRequest, security.ForgetRequest:
		if m.readOnly {
			m.setStatus("read-only home: nothing was written", true)
			return m, nil, true
		}
		ao := secrets.ApplyOptions{Home: m.opts.Home, Write: m.writes(), Busy: m.busyOptions(), Now: m.opts.Now()}
		return m, feed.SecretsAction(ao, msg), true
	case security.Done:
		if msg.Err != nil {
			m.setStatus(msg.Err.Error(), true)
		} else {
			m.setStatus(msg.Text, false)
		}
		return m, m.rescanSecrets(), true
	}
	return m, nil, false
}

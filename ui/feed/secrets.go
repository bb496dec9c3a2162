package feed

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/engine/leftover"
	"github.com/memscope/memscope/engine/secrets"
	"github.com/memscope/memscope/views/security"
)

// Secrets feeds the Security pane the scan of every store of the home
// for secrets (memscope secrets). A scan reads every byte of the home (a
// second of CPU on a gigabyte), so it runs only while the pane is
// focused, and a file change marks it stale rather than scanning again.
type Secrets struct {
	stale bool
}

// SecretsLoaded is a scan read by a Load.
type SecretsLoaded struct{ report secrets.Report }

// NewSecrets returns a feed with nothing scanned: its first Load scans.
func NewSecrets() *Secrets { return &Secrets{stale: true} }

// Invalidate makes the next Load scan again (ctrl+r, a file change, a
// scrub, restore or forget).
func (s *Secrets) Invalidate() { s.stale = true }

// Stale reports whether the next Load scans.
func (s *Secrets) Stale() bool { return s.stale }

// Load scans the home when the last scan is stale; nil otherwise.
func (s *Secrets) Load(o secrets.Options, now time.Time) tea.Cmd {
	if !s.stale {
		return nil
	}
	s.stale = false
	return func() tea.Msg {
		// memscope's hidden copies (a killed scrub's staged file) are
		// read too, as the leftovers lint finds.
		if o.Root != nil {
			o.Leftovers = leftover.HomeCopies(o.Root, o.Home.Dir, now)
		}
		return SecretsLoaded{report: secrets.Scan(o)}
	}
}

// Loaded takes a scan and returns the pane's message.
func (s *Secrets) Loaded(msg SecretsLoaded) security.ReportMsg {
	return security.ReportMsg{Report: msg.report}
}

package feed

import (
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/engine/leftover"
	"github.com/memscope/memscope/engine/secrets"
	"github.com/memscope/memscope/views/component/text"
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

// PlanScrub plans the scrub of the picked findings of r (sel) in a
// command: the Security pane's y/n shows the plan.
func PlanScrub(o secrets.Options, r secrets.Report, sel secrets.Selection, b secrets.BusyOptions) tea.Cmd {
	return func() tea.Msg { return security.PlanMsg{Plan: secrets.PlanScrub(o, r, sel, b)} }
}

// SecretsAction runs what the Security pane asked (a scrub, the restore
// of a scrub, forgetting a scrub's copy) in a command; its result is a
// security.Done.
func SecretsAction(ao secrets.ApplyOptions, msg tea.Msg) tea.Cmd {
	return func() tea.Msg { return secretsAction(ao, msg) }
}

// secretsAction does what the pane asked and says how it went.
func secretsAction(ao secrets.ApplyOptions, msg tea.Msg) security.Done {
	switch msg := msg.(type) {
	case security.ApplyRequest:
		res, err := secrets.Apply(ao, msg.Plan)
		if err != nil {
			return security.Done{Err: err}
		}
		return security.Done{Text: fmt.Sprintf("scrubbed %s in %s · copy %s keeps them (u restores, d on it forgets)",
			text.Count(res.Secrets, "secret", ""), text.Count(len(res.Files), "file", ""), res.ID)}
	case security.RestoreRequest:
		res, err := secrets.Restore(ao, msg.ID)
		if err != nil {
			return security.Done{Err: err}
		}
		t := fmt.Sprintf("restored scrub %s: %s back in %s", res.ID, text.Count(res.Secrets, "secret", ""), text.Count(len(res.Files), "file", ""))
		if res.Copy == "" {
			t += "; its copy is deleted"
		}
		// The notes say what else happened: lines appended since kept,
		// or a copy that could not be deleted.
		for _, n := range res.Notes {
			t += " · " + n
		}
		return security.Done{Text: t}
	case security.ForgetRequest:
		c, err := secrets.Forget(ao, msg.ID)
		if err != nil {
			return security.Done{Err: err}
		}
		return security.Done{Text: fmt.Sprintf("forgot scrub %s: its copy of %s is deleted", c.ID, text.Count(c.Secrets, "secret", ""))}
	}
	return security.Done{}
}

package health

import (
	"testing"

	"github.com/memscope/memscope/engine/lint"
	"github.com/memscope/memscope/keymap"
	"github.com/memscope/memscope/views/component/style"
	"github.com/memscope/memscope/views/msgs"
)

// TestShowErrorsSelectsTheFirstError: the Overview's lint line opens the
// pane at its first error, whether lint is in before the request or
// after it; another request selects nothing.
func TestShowErrorsSelectsTheFirstError(t *testing.T) {
	report := &lint.Report{Findings: []lint.Finding{
		{Kind: "stale", Severity: lint.SevWarning, Path: "a.md", Message: "old"},
		{Kind: "stale", Severity: lint.SevWarning, Path: "b.md", Message: "old"},
		{Kind: "frontmatter", Severity: lint.SevError, Path: "c.md", Message: "bad"},
	}}
	selected := func(m Model) string {
		r, ok := m.list.Selected()
		if !ok || r.Finding == nil {
			return ""
		}
		return r.Finding.Path
	}
	m := New(keymap.Default(), style.New(true, true))
	m.SetSize(100, 30)
	before, _ := m.Update(DataMsg{Lint: report})
	if got := selected(before); got != "a.md" {
		t.Fatalf("the first row is %q", got)
	}
	if m, _ := before.Update(msgs.Show{What: "stale"}); selected(m) != "a.md" {
		t.Errorf("an unknown request moved the cursor to %q", selected(m))
	}
	if m, _ := before.Update(msgs.Show{What: ShowErrors}); selected(m) != "c.md" {
		t.Errorf("lint in first: %q selected, want the error c.md", selected(m))
	}
	after, _ := m.Update(msgs.Show{What: ShowErrors})
	if after, _ = after.Update(DataMsg{Lint: report}); selected(after) != "c.md" {
		t.Errorf("lint in after: %q selected, want the error c.md", selected(after))
	}
}

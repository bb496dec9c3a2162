package health

import (
	"testing"

	"github.com/memscope/memscope/engine/lint"
	"github.com/memscope/memscope/engine/store"
	"github.com/memscope/memscope/internal/keypress"
	"github.com/memscope/memscope/keymap"
	"github.com/memscope/memscope/views/component/style"
	"github.com/memscope/memscope/views/msgs"
)

// The prune plan comes after the lint report (it is made when the pane is
// first shown): its arrival shows the actions and keeps a question the
// pane was asking, so a C pressed before the plan is still answered with
// y. A new lint report (DataMsg) asks again.
func TestPlanAfterLintKeepsTheQuestion(t *testing.T) {
	report := &lint.Report{Findings: []lint.Finding{{Kind: lint.Leftover, Severity: lint.SevWarning, Path: ".a.md.memscope-1-2", Message: "left over"}}}
	m := New(keymap.Default(), style.New(true, true))
	m.SetSize(100, 30)
	m, _ = m.Update(DataMsg{Lint: report})
	m, _ = m.Update(keypress.Msg("C"))
	if !m.confirmLeftovers {
		t.Fatal("C did not ask to remove the leftovers")
	}
	plan := &store.Plan{Actions: []store.PruneAction{{ID: "rebuild", Kind: "rebuild-index", Summary: "write MEMORY.md"}}}
	m, _ = m.Update(PlanMsg{Plan: plan})
	if !m.confirmLeftovers || m.plan == nil || len(m.list.Items()) != 2 {
		t.Fatalf("after the plan: asking %v, planned %v, %d rows", m.confirmLeftovers, m.plan != nil, len(m.list.Items()))
	}
	_, cmd := m.Update(keypress.Msg("y"))
	if cmd == nil {
		t.Fatal("y answered nothing")
	}
	if _, ok := cmd().(msgs.RemoveLeftovers); !ok {
		t.Errorf("y after the plan came did not remove the leftovers")
	}
}

package ui

import (
	"testing"

	"github.com/memscope/memscope/keymap"
	"github.com/memscope/memscope/views/msgs"
)

// A status message ends when its tick comes (no sleep: the test sends
// the tick's message) or at the next key; a tick for an older message
// leaves a newer one; an error stays past its tick until a key shows it
// was seen, and ! still opens it in full.
func TestStatusMessagesExpire(t *testing.T) {
	m := newTestModel(t, 100, 30)
	m = update(t, m, msgs.Status{Text: "opened something"})
	seq := m.statusSeq
	if m.status == "" || seq == 0 {
		t.Fatalf("status %q seq %d", m.status, seq)
	}
	m = update(t, m, statusExpiredMsg{seq: seq - 1})
	if m.status != "opened something" {
		t.Fatalf("an older message's tick cleared the status: %q", m.status)
	}
	m = update(t, m, statusExpiredMsg{seq: seq})
	if m.status != "" {
		t.Fatalf("the tick did not clear the status: %q", m.status)
	}

	m = update(t, m, msgs.Status{Text: "note"})
	m = press(t, m, "j")
	if m.status != "" {
		t.Fatalf("the next key left the status: %q", m.status)
	}

	m = update(t, m, msgs.Status{Text: "disk full: write the journal", Error: true})
	m = update(t, m, statusExpiredMsg{seq: m.statusSeq})
	if m.status == "" {
		t.Fatal("an unseen error expired")
	}
	m = press(t, m, keymap.Default().LastError.Keys()[0])
	if m.status != "" || !m.modals.has(modalError) {
		t.Fatalf("after a key the error should leave the status line and ! open it: status %q", m.status)
	}
}

// Update sends msg to m.
func update(t *testing.T, m Model, msg any) Model {
	t.Helper()
	next, cmd := m.Update(msg)
	return drain(t, next.(Model), cmd)
}

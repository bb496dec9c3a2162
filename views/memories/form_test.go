package memories

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/engine/memindex"
	"github.com/memscope/memscope/engine/memrows"
	"github.com/memscope/memscope/keymap"
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/views/component/style"
	"github.com/memscope/memscope/views/msgs"
)

// ctrl is the key press ctrl+r (r a letter).
func ctrl(r rune) tea.KeyPressMsg { return tea.KeyPressMsg{Code: r, Mod: tea.ModCtrl} }

func typed(s string) []tea.KeyPressMsg {
	var out []tea.KeyPressMsg
	for _, r := range s {
		out = append(out, tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	return out
}

// drive sends keys to m and returns it and the message the last command
// made (nil when none).
func drive(t *testing.T, m Model, keys ...tea.KeyPressMsg) (Model, tea.Msg) {
	t.Helper()
	var last tea.Msg
	for _, k := range keys {
		var cmd tea.Cmd
		m, cmd = m.Update(k)
		last = nil
		if cmd != nil {
			last = cmd()
		}
	}
	return m, last
}

// The forms read their keys from the binding table: with every action
// they use rebound in the settings file (keymap.Rebind, as config.Load
// does), the new-memory form, the type chooser, the rename field and the
// delete question work with the new keys, and the old keys no longer do
// what they did.
func TestFormsFollowRebinding(t *testing.T) {
	km, err := keymap.Default().Rebind(map[string][]string{
		"new": {"ctrl+a"}, "retype": {"ctrl+t"}, "rename": {"ctrl+e"}, "delete": {"ctrl+x"},
		"open": {"ctrl+o"}, "back": {"ctrl+g"},
		"next_field": {"ctrl+n"}, "prev_field": {"ctrl+v"},
		"choice_next": {"ctrl+l"}, "choice_prev": {"ctrl+b"},
		"confirm": {"ctrl+y"},
	})
	if err != nil {
		t.Fatal(err)
	}
	fresh := func() Model {
		m := New(km, style.New(true, true))
		m.SetSize(120, 30)
		m, _ = m.Update(RowsMsg{Rows: []Row{{Row: memrows.Row{File: &model.MemoryFile{Path: "a.md", Name: "a", Type: model.TypeUser}}, AbsPath: "/mem/a.md"}}})
		return m
	}

	// New memory: name, next field, the type two steps on and one back
	// (feedback), next field, description, open.
	m, _ := drive(t, fresh(), ctrl('a'))
	if m.mode != modeNew {
		t.Fatal("ctrl+a (new, rebound) did not open the form")
	}
	keys := append(typed("Terse"), ctrl('n'), ctrl('l'), ctrl('l'), ctrl('b'), ctrl('n'))
	keys = append(keys, typed("prefers terse answers")...)
	m, got := drive(t, m, append(keys, ctrl('o'))...)
	want := msgs.CreateMemory{Name: "Terse", Type: string(model.TypeFeedback), Description: "prefers terse answers"}
	if got != want || m.mode != modeBrowse {
		t.Errorf("new-memory form with rebound keys sent %#v (mode %d), want %#v", got, m.mode, want)
	}
	// prev_field goes back from the description to the type.
	m, _ = drive(t, fresh(), ctrl('a'), ctrl('n'), ctrl('n'), ctrl('v'))
	if m.field != fieldType {
		t.Errorf("ctrl+v (prev_field) left the form on field %d, want the type", m.field)
	}
	// The old keys: enter no longer creates, esc no longer leaves.
	m, _ = drive(t, fresh(), append(append([]tea.KeyPressMsg{ctrl('a')}, typed("x")...), tea.KeyPressMsg{Code: tea.KeyEnter}, tea.KeyPressMsg{Code: tea.KeyEscape})...)
	if m.mode != modeNew {
		t.Error("enter or esc still act on the form after open and back were rebound")
	}
	if m, _ = drive(t, m, ctrl('g')); m.mode != modeBrowse {
		t.Error("ctrl+g (back, rebound) did not leave the form")
	}

	// Change type: two on, one back from user is feedback.
	_, got = drive(t, fresh(), ctrl('t'), ctrl('l'), ctrl('l'), ctrl('b'), ctrl('o'))
	if want := (msgs.RetypeMemory{Path: "/mem/a.md", Type: string(model.TypeFeedback)}); got != want {
		t.Errorf("type chooser with rebound keys sent %#v, want %#v", got, want)
	}
	// Rename: the field, then open.
	m, _ = drive(t, fresh(), ctrl('e'))
	for range len("a") {
		m, _ = drive(t, m, tea.KeyPressMsg{Code: tea.KeyBackspace})
	}
	_, got = drive(t, m, append(typed("b"), ctrl('o'))...)
	if want := (msgs.RenameMemory{Path: "/mem/a.md", NewName: "b"}); got != want {
		t.Errorf("rename with rebound keys sent %#v, want %#v", got, want)
	}
	// Delete: the question takes the rebound yes; the old y is a no.
	if _, got = drive(t, fresh(), ctrl('x'), ctrl('y')); got != (msgs.DeleteMemory{Path: "/mem/a.md"}) {
		t.Errorf("delete, ctrl+y sent %#v", got)
	}
	if _, got = drive(t, fresh(), ctrl('x'), tea.KeyPressMsg{Code: 'y', Text: "y"}); got == (msgs.DeleteMemory{Path: "/mem/a.md"}) {
		t.Error("delete: y still confirms after confirm was rebound")
	}
}

// The settings file's staleness thresholds reach the pane as a message
// (no setter), and the legend states them.
func TestStalenessMsgSetsTheLegendsThresholds(t *testing.T) {
	m := New(keymap.Default(), style.New(true, true))
	legend := func(m Model) string {
		var b strings.Builder
		for _, e := range m.Legend() {
			b.WriteString(e.Means + "\n")
		}
		return b.String()
	}
	th := memindex.DefaultStaleness()
	th[model.TypeProject] = memindex.StalenessLimit{AgingDays: 7, StaleDays: 77}
	m, _ = m.Update(StalenessMsg{Thresholds: th})
	if got := legend(m); !strings.Contains(got, "project aging from 7d, stale from 77d") {
		t.Errorf("the legend does not state the thresholds sent:\n%s", got)
	}
}

package list

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/internal/keypress"
	"github.com/memscope/memscope/keymap"
	"github.com/memscope/memscope/views/component/style"
)

func newList(n int) Model[string] {
	items := make([]string, n)
	for i := range items {
		items[i] = fmt.Sprintf("item %d", i)
	}
	m := New(keymap.Default(), style.New(true, true), func(s string) string { return s })
	m.SetItems(items)
	m.SetSize(30, 5)
	return m
}

func press(m Model[string], keys ...string) Model[string] {
	for _, k := range keys {
		m, _, _ = m.Update(keypress.Msg(k))
	}
	return m
}

func TestNavigationScrollsAndClamps(t *testing.T) {
	m := newList(100)
	m = press(m, "j", "j", "down")
	if got, _ := m.Selected(); got != "item 3" {
		t.Fatalf("after three downs selected %q", got)
	}
	m = press(m, "G")
	if got, _ := m.Selected(); got != "item 99" {
		t.Fatalf("G selected %q", got)
	}
	view := m.View(plain)
	if strings.Count(view, "\n") != 4 || !strings.Contains(view, "item 99") || strings.Contains(view, "item 94") {
		t.Fatalf("view should show exactly items 95..99:\n%s", view)
	}
	m = press(m, "j")
	if got, _ := m.Selected(); got != "item 99" {
		t.Fatalf("down past the end moved to %q", got)
	}
	m = press(m, "g", "k")
	if m.Index() != 0 {
		t.Fatalf("up past the top: index %d", m.Index())
	}
}

func TestFilterNarrowsAndEscClears(t *testing.T) {
	m := newList(100)
	m = press(m, "/", "4", "2")
	if m.Len() != 1 {
		t.Fatalf("filter 42 leaves %d items", m.Len())
	}
	if got, _ := m.Selected(); got != "item 42" {
		t.Fatalf("filtered selection %q", got)
	}
	m = press(m, "enter")
	if m.Filtering() {
		t.Fatal("enter should leave the filter line")
	}
	if !strings.Contains(m.View(plain), "/42") {
		t.Fatalf("view should show the active filter:\n%s", m.View(plain))
	}
	m = press(m, "esc")
	if m.Len() != 100 {
		t.Fatalf("esc should clear the filter, %d items shown", m.Len())
	}
	if got, _ := m.Selected(); got != "item 42" {
		t.Fatalf("clearing the filter should keep the cursor on the item, got %q", got)
	}
}

func TestUnknownKeysAreNotHandled(t *testing.T) {
	m := newList(3)
	if _, _, handled := m.Update(tea.KeyPressMsg{Code: 'e', Text: "e"}); handled {
		t.Fatal("the list must leave pane keys to the pane")
	}
}

func TestEmptyList(t *testing.T) {
	m := newList(0)
	if _, ok := m.Selected(); ok {
		t.Fatal("empty list has no selection")
	}
	if !strings.Contains(m.View(plain), "nothing here") {
		t.Fatalf("empty view: %q", m.View(plain))
	}
}

func BenchmarkViewHundredThousand(b *testing.B) {
	m := newList(100000)
	m.SetSize(120, 40)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m, _, _ = m.Update(tea.KeyPressMsg{Code: tea.KeyDown})
		_ = m.View(plain)
	}
}

// TestEscWhileTypingKeepsTheCursor: typing moves the cursor onto the
// matches; esc cancels the filter and puts it back where it was.
func TestEscWhileTypingKeepsTheCursor(t *testing.T) {
	m := newList(100)
	m = press(m, "j", "j", "j", "j", "j", "/", "9")
	if got, _ := m.Selected(); got != "item 9" {
		t.Fatalf("typing 9 selected %q", got)
	}
	m = press(m, "esc")
	if got, _ := m.Selected(); got != "item 5" {
		t.Fatalf("esc while typing moved the cursor to %q, want item 5", got)
	}
}

// TestFilterMatchingNothingSaysSo: a filter that hides every row says so,
// not the list's empty text.
func TestFilterMatchingNothingSaysSo(t *testing.T) {
	m := newList(3)
	m.Empty = "no items in this project"
	m = press(m, "/", "x", "y", "z")
	v := m.View(plain)
	if !strings.Contains(v, "no row matches /xyz") || strings.Contains(v, "no items in this project") {
		t.Fatalf("filter matching nothing: %q", v)
	}
	if v := newList(0).View(plain); !strings.Contains(v, "nothing here") {
		t.Fatalf("an empty list keeps its empty text: %q", v)
	}
}

// plain draws an item as itself.
func plain(s string, _ bool, _ int) string { return s }

// The filter line reads open and back from the binding table: rebound
// in the settings file, the new keys end and cancel it, and enter and esc
// no longer do.
func TestFilterLineFollowsRebinding(t *testing.T) {
	km, err := keymap.Default().Rebind(map[string][]string{"open": {"ctrl+o"}, "back": {"ctrl+g"}})
	if err != nil {
		t.Fatal(err)
	}
	m := New(km, style.New(true, true), func(s string) string { return s })
	items := make([]string, 100)
	for i := range items {
		items[i] = fmt.Sprintf("item %d", i)
	}
	m.SetItems(items)
	m.SetSize(30, 5)
	ctrl := func(r rune) tea.KeyPressMsg { return tea.KeyPressMsg{Code: r, Mod: tea.ModCtrl} }
	m = press(m, "/", "4", "2", "enter")
	if !m.Filtering() {
		t.Fatal("enter ended the filter line after open was rebound")
	}
	m, _, _ = m.Update(ctrl('o'))
	if m.Filtering() || m.Len() != 1 {
		t.Fatalf("ctrl+o (open, rebound) did not end the filter line: filtering %v, %d items", m.Filtering(), m.Len())
	}
	m = press(m, "/", "esc")
	if !m.Filtering() {
		t.Fatal("esc cancelled the filter line after back was rebound")
	}
	m, _, _ = m.Update(ctrl('g'))
	if m.Filtering() || m.Len() != 100 {
		t.Fatalf("ctrl+g (back, rebound) did not cancel the filter: filtering %v, %d items", m.Filtering(), m.Len())
	}
}

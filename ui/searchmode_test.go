package ui

import (
	"strings"
	"testing"
)

// After a search jumps to a hit, stepping with n/N is a mode the footer
// names ("search: 4 hits · n/N · esc ends"), and esc on the pane ends
// it: n is "new memory" again. Before, esc on the pane left the hits
// and n kept stepping, with nothing on screen saying so.
func TestSearchSteppingIsAVisibleMode(t *testing.T) {
	m := newTestModel(t, 120, 40)
	m = typeQuery(t, m, "terse")
	m = press(t, m, "enter")
	if !m.p.search.Stepping() || m.focus != paneMemories {
		t.Fatalf("enter on a hit should leave a search to step through on Memories (focus %d)", m.focus)
	}
	if h := m.helpLine(); !strings.Contains(h, "search: 4 hits · n/N · esc ends") {
		t.Errorf("the footer does not name the search mode: %s", h)
	}
	if ok, why := m.available("new"); ok || !strings.Contains(why, "esc ends") {
		t.Errorf("new memory while stepping: available %v, why %q", ok, why)
	}
	m = press(t, m, "esc")
	if m.p.search.Stepping() {
		t.Fatal("esc on the pane did not end the search")
	}
	if h := m.helpLine(); strings.Contains(h, "search:") || strings.Contains(h, "next search hit") {
		t.Errorf("after esc the footer still names the search: %s", h)
	}
	if ok, why := m.available("new"); !ok {
		t.Errorf("after esc, new memory is unavailable: %s", why)
	}
}

package ui

import (
	"strings"
	"testing"
)

// The Retention and Files panes read their data when they are looked at:
// not at start-up, and not on a live reload while another pane is shown.
func TestRetentionAndFilesLoadWhenFocused(t *testing.T) {
	m := newTestModel(t, 120, 40)
	if !m.feeds.retention.Stale() || !m.feeds.files.Stale() {
		t.Fatalf("read at start-up: stale %v", m.feeds.files.Stale())
	}
	m = press(t, m, "0")
	if m.feeds.retention.Stale() || !strings.Contains(screen(m), "cleanup deletes what is older than 30 days") {
		t.Fatalf("focusing Retention did not read the forecast:\n%s", screen(m))
	}
	if !m.feeds.files.Stale() {
		t.Fatal("focusing Retention read the file history")
	}
	// A reload (ctrl+r or a file event) while Projects is shown marks both
	// stale and reads neither; focusing Files reads it.
	m = press(t, m, "2", "ctrl+r")
	if !m.feeds.retention.Stale() || !m.feeds.files.Stale() || len(m.loading) != 0 {
		t.Fatalf("after a reload elsewhere: stale %v loading %v", m.feeds.files.Stale(), m.loading)
	}
	m = press(t, m, "F")
	if m.feeds.files.Stale() || !strings.Contains(screen(m), "sessions with file history") {
		t.Fatalf("focusing Files did not read it:\n%s", screen(m))
	}
	// A reload while Files is shown reads it again at once.
	m = press(t, m, "ctrl+r")
	if m.feeds.files.Stale() {
		t.Fatal("a reload while Files is shown left it stale")
	}
}

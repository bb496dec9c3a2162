package journal

import (
	"strings"
	"testing"
	"time"
)

// Entries written before the journal kept mtimes still read (ModTime
// zero), and a new entry's mtime survives a write and a read.
func TestJournalMtimeIsOptional(t *testing.T) {
	const old = `{"id":"20261122-111420.836","time":"2026-11-22T11:14:20.836Z","op":"delete","summary":"delete x.md","files":[{"path":"x.md","existed":true,"before":"eA==","mode":420,"after":""}]}` + "\n"
	entries, probs := ParseEntries(Path, []byte(old))
	if len(probs) != 0 || len(entries) != 1 || !entries[0].Files[0].ModTime.IsZero() {
		t.Fatalf("old entry: %+v, problems %v", entries, probs)
	}
	j, _ := Parse(Path, []byte(old))
	mt := time.Date(2026, 10, 8, 9, 30, 0, 123456789, time.UTC)
	j.Add(Entry{ID: "b", Time: mt, Op: "edit", Summary: "edit x.md", Files: []File{{Path: "x.md", Existed: true, Before: []byte("x"), Mode: 0o600, ModTime: mt}}})
	data := j.Bytes()
	if !strings.HasPrefix(string(data), old) {
		t.Errorf("the old line was rewritten:\n%s", data)
	}
	entries, probs = ParseEntries(Path, data)
	if len(probs) != 0 || len(entries) != 2 || !entries[1].Files[0].ModTime.Equal(mt) {
		t.Errorf("new entry read back as %+v (problems %v), want mtime %v", entries, probs, mt)
	}
}

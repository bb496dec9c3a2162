package feed

import (
	"path/filepath"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/internal/filehistgen"
	"github.com/memscope/memscope/model"
)

// The Files feed lists the sessions with file history on its first Load
// and not again until file history or the project list changes; a
// change to the open session's transcript reads that session again, not
// the list; any other change reads nothing.
func TestFilesFeedReadsWhatChanged(t *testing.T) {
	l, err := filehistgen.Write(t.TempDir(), testNow)
	if err != nil {
		t.Fatal(err)
	}
	fsys := model.HomeFS(l.Home)
	f := NewFiles()
	if !f.Stale() {
		t.Fatal("a new feed has its list read")
	}
	cmd := f.Load(fsys, nil)
	if cmd == nil || !f.Listing() || f.Stale() {
		t.Fatalf("the first Load did not list (listing %v, stale %v)", f.Listing(), f.Stale())
	}
	list, ok := cmd().(FileSessions)
	if !ok {
		t.Fatalf("the first Load returned %T", cmd())
	}
	msg := f.Loaded(list)
	if f.Listing() || len(msg.Sessions) == 0 {
		t.Fatalf("the list: %d sessions (listing %v)", len(msg.Sessions), f.Listing())
	}
	if f.Load(fsys, nil) != nil {
		t.Error("a second Load read again with nothing changed")
	}

	s := msg.Sessions[0]
	read, ok := ReadFileSession(fsys, string(s.SessionID), s.Transcript)().(FileSession)
	if !ok {
		t.Fatal("ReadFileSession did not return a FileSession")
	}
	sm, err := read.Session()
	if err != nil || sm.Session == nil || len(sm.Session.Turns) == 0 {
		t.Fatalf("the session read: %+v, %v", sm.Session, err)
	}
	open := sm.Session

	loads := func(names map[string]bool, projects bool) tea.Msg {
		t.Helper()
		f.Changed(names, projects, open)
		if cmd := f.Load(fsys, open); cmd != nil {
			return cmd()
		}
		return nil
	}
	if got := loads(map[string]bool{"history.jsonl": true, "projects/-other/x.jsonl": true}, false); got != nil {
		t.Errorf("an unrelated change read %T", got)
	}
	if got, ok := loads(map[string]bool{open.Transcript: true}, false).(FileSession); !ok || got.s == nil || got.s.SessionID != open.SessionID {
		t.Errorf("a change to the open session's transcript read %T, want that session", got)
	}
	backup := filepath.ToSlash(filepath.Join(model.FileHistoryDir, string(open.SessionID), "x@v1"))
	if _, ok := loads(map[string]bool{backup: true}, false).(FileSessions); !ok {
		t.Error("a change in file history did not list the sessions again")
	}
	if _, ok := loads(nil, true).(FileSessions); !ok {
		t.Error("a change to the project list did not list the sessions again")
	}
	f.Invalidate()
	if !f.Stale() {
		t.Error("Invalidate left the list read")
	}
}

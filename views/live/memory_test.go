package live

import (
	"strings"
	"testing"
	"time"

	englive "github.com/memscope/memscope/engine/live"
	"github.com/memscope/memscope/engine/window"
	"github.com/memscope/memscope/keymap"
	"github.com/memscope/memscope/views/component/style"
)

// Live counts a memory folder's files the way Projects, Memories and stat
// do: topic files only. It counted MEMORY.md too (61 where they said 60).
func TestMemoryFilesLeaveOutTheIndex(t *testing.T) {
	m := New(keymap.Default(), style.New(true, true))
	m.SetSize(160, 40)
	mem := &englive.MemoryState{Dir: "/h/projects/p/memory", Exists: true, Files: map[string]englive.FileStamp{
		"MEMORY.md": {}, "a.md": {}, "b.md": {}, "team/MEMORY.md": {}, "team/c.md": {},
	}, Index: &englive.IndexState{Lines: 3, MaxLines: 200}}
	r := Row{Status: &englive.SessionStatus{MemoryDir: mem.Dir}, Memory: mem}
	head := m.memoryLines(r)[0]
	if !strings.Contains(head, " · 2 files · MEMORY.md 3/200 lines") {
		t.Errorf("memory line %q: want the two topic files counted", head)
	}
	mem.Index = nil
	delete(mem.Files, "MEMORY.md")
	mem.Files["d.md"] = englive.FileStamp{}
	if head := m.memoryLines(r)[0]; !strings.Contains(head, " · 3 files · no MEMORY.md") {
		t.Errorf("memory line without an index %q", head)
	}
}

// A session started on another day says which day: "started 11:06" read
// as today for a session weeks old.
func TestStartedSaysTheDay(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.Local)
	m := New(keymap.Default(), style.New(true, true))
	m.SetSize(160, 40)
	m.setData(Data{}, now)
	for _, c := range []struct {
		started time.Time
		want    string
	}{
		{now.Add(-time.Hour), "started 11:00 ·"},
		{now.AddDate(0, 0, -8), "started Nov 14 12:00 ·"},
		{now.AddDate(-1, 0, 0), "started 2025-11-22 12:00 ·"},
	} {
		r := Row{Run: englive.Running{SessionID: "s"}, Status: &englive.SessionStatus{Started: c.started}}
		if head := m.detail(r)[0]; !strings.Contains(head, c.want) {
			t.Errorf("started %v: %q, want %q", c.started, head, c.want)
		}
	}
}

// The user's levels reach the pane as a message (no setter): a session
// at 60 % of its window, which the client does not warn about, is a
// warning once the user's warn level is 50 % and an alert at 55 %.
func TestLevelsMsgSetsTheUsersLevels(t *testing.T) {
	m := New(keymap.Default(), style.New(true, true))
	s := &englive.SessionStatus{Fill: 0.6}
	if got := m.v.alarm(s); got != window.LevelOK {
		t.Fatalf("with the client's levels, 60 %% is %v", got)
	}
	m, _ = m.Update(LevelsMsg{WarnPct: 50})
	if got := m.v.alarm(s); got != window.LevelWarning {
		t.Errorf("warn at 50 %%: 60 %% is %v, want a warning", got)
	}
	m, _ = m.Update(LevelsMsg{WarnPct: 50, AlertPct: 55})
	if got := m.v.alarm(s); got != window.LevelAutocompact {
		t.Errorf("alert at 55 %%: 60 %% is %v, want the alert", got)
	}
}

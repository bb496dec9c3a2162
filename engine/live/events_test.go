package live

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/memscope/memscope/engine/timeline"
	"github.com/memscope/memscope/engine/window"
	"github.com/memscope/memscope/model"
)

func status(id string, ctx window.Tokens, known bool) SessionStatus {
	w := window.Size200k()
	st := SessionStatus{SessionID: id, Transcript: "projects/-w/" + id + ".jsonl", Project: "/w", Window: w, Context: ctx, ContextKnown: known,
		Thresholds: timeline.Thresholds{Effective: w.Effective(), Warning: w.WarningAt(), Autocompact: w.AutocompactAt(), Blocked: w.BlockedAt()},
		Level:      window.LevelOK, Compactions: []Compaction{}, MemoryWrites: []MemoryWrite{}}
	if known {
		st.Level = w.Level(ctx)
	}
	return st
}

func snapAt(sessions ...SessionStatus) Snapshot {
	return Snapshot{Time: now, Sessions: sessions}
}

func memState(dir string, index *IndexState, files ...string) MemoryState {
	m := MemoryState{Dir: dir, Exists: true, Files: map[string]FileStamp{}, Index: index}
	for _, f := range files {
		name, stamp, _ := strings.Cut(f, "@")
		m.Files[name] = FileStamp{Size: int64(len(stamp)), ModTime: now.Add(-time.Duration(len(stamp)) * time.Minute)}
	}
	return m
}

func TestDiff(t *testing.T) {
	pre, post := 167200, 9800
	compacted := status("s1", 9800, true)
	compacted.Compactions = []Compaction{{Kind: timeline.BoundaryCompact, UUID: "b1", Line: 40, Time: now, Trigger: model.TriggerAuto, PreTokens: &pre, PostTokens: &post}}
	twice := compacted
	twice.Compactions = append(slices.Clone(compacted.Compactions), Compaction{Kind: timeline.BoundaryCompact, UUID: "b2", Line: 90, PreTokens: &pre})
	writer := status("s1", 1000, true)
	writer.MemoryWrites = []MemoryWrite{{Path: "/m/new.md", Name: "new.md", Time: now}}
	over := &IndexState{Lines: 230, Chars: 9000, LinesOver: true}
	bothOver := &IndexState{Lines: 230, Chars: 26000, LinesOver: true, CharsOver: true}
	under := &IndexState{Lines: 190, Chars: 9000}

	tests := []struct {
		name       string
		prev, next Snapshot
		want       string
	}{
		{"nothing", snapAt(status("s1", 1000, true)), snapAt(status("s1", 2000, true)), ""},
		{"started and ended", snapAt(status("s1", 1000, true)), snapAt(status("s2", 1000, true)), "session-started session-ended"},
		{"a client without a transcript yet runs", Snapshot{}, Snapshot{Running: []Running{{Kind: RunInteractive, SessionID: "s3", PID: 7, CWD: "/w"}}}, "session-started"},
		{"its first line: nothing new", Snapshot{Running: []Running{{Kind: RunInteractive, SessionID: "s1", PID: 7, CWD: "/w"}}},
			Snapshot{Running: []Running{{Kind: RunInteractive, SessionID: "s1", PID: 7, CWD: "/w", Transcript: "projects/-w/s1.jsonl"}}, Sessions: []SessionStatus{status("s1", 150000, true)}}, ""},
		{"it ends", Snapshot{Running: []Running{{Kind: RunInteractive, SessionID: "s3", PID: 7}}}, Snapshot{}, "session-ended"},
		{"up two levels", snapAt(status("s1", 140000, true)), snapAt(status("s1", 170000, true)), "context-level:ok>autocompact"},
		{"first figure already high", snapAt(status("s1", 0, false)), snapAt(status("s1", 150000, true)), "context-level:ok>warning"},
		{"figure lost: nothing said", snapAt(status("s1", 150000, true)), snapAt(status("s1", 0, false)), ""},
		{"compaction brings it down", snapAt(status("s1", 170000, true)), snapAt(compacted), "context-level:autocompact>ok compaction"},
		{"only the new compaction", snapAt(compacted), snapAt(twice), "compaction"},
		{"memory written by a session", Snapshot{Time: now, Sessions: []SessionStatus{writer}, Memory: []MemoryState{memState("/m", nil, "a.md@1")}},
			Snapshot{Time: now, Sessions: []SessionStatus{writer}, Memory: []MemoryState{memState("/m", nil, "a.md@12", "new.md@1")}},
			"memory-written:a.md memory-written:new.md:s1"},
		{"memory deleted", Snapshot{Memory: []MemoryState{memState("/m", nil, "a.md@1", "b.md@1")}}, Snapshot{Memory: []MemoryState{memState("/m", nil, "b.md@1")}},
			"memory-deleted:a.md"},
		{"a folder new to the watcher is silent", Snapshot{}, Snapshot{Memory: []MemoryState{memState("/m", over, "a.md@1")}}, ""},
		{"index over its line cap", Snapshot{Memory: []MemoryState{memState("/m", under)}}, Snapshot{Memory: []MemoryState{memState("/m", over)}},
			"memory-index-cap:MEMORY.md:lines:true"},
		{"index over both, then back under", Snapshot{Memory: []MemoryState{memState("/m", bothOver)}}, Snapshot{Memory: []MemoryState{memState("/m", under)}},
			"memory-index-cap:MEMORY.md:lines:false memory-index-cap:MEMORY.md:chars:false"},
		{"index deleted while over", Snapshot{Memory: []MemoryState{memState("/m", over)}}, Snapshot{Memory: []MemoryState{memState("/m", nil)}},
			"memory-index-cap:MEMORY.md:lines:false"},
		{"paste went missing", Snapshot{Pastes: map[model.PasteHash]model.PasteStatus{"aa": model.PasteOK, "bb": model.PasteMissing}},
			Snapshot{Pastes: map[model.PasteHash]model.PasteStatus{"aa": model.PasteMissing, "bb": model.PasteMissing, "cc": model.PasteMissing, "dd": model.PasteOK}},
			"paste-missing:aa paste-missing:cc"},
		{"pastes not watched before", Snapshot{}, Snapshot{Pastes: map[model.PasteHash]model.PasteStatus{"aa": model.PasteMissing}}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ev := Diff(tt.prev, tt.next)
			got := eventKinds(ev)
			for _, e := range ev {
				if e.Text == "" || e.Time != tt.next.Time && e.Compaction == nil {
					t.Errorf("event without text, or not at the snapshot's time: %+v", e)
				}
			}
			if got != tt.want {
				t.Errorf("events %q, want %q", got, tt.want)
			}
		})
	}
}

func TestEventJSON(t *testing.T) {
	pre, post := 167200, 9800
	prev := snapAt(status("5d1e0c7a-3f2b", 170000, true))
	next := status("5d1e0c7a-3f2b", 9800, true)
	next.Compactions = []Compaction{{Kind: timeline.BoundaryCompact, UUID: "b1", Line: 40, Time: now, Trigger: model.TriggerAuto, PreTokens: &pre, PostTokens: &post}}
	ev := Diff(prev, snapAt(next))
	if len(ev) != 2 {
		t.Fatalf("events %+v", ev)
	}
	var lines []string
	for _, e := range ev {
		b, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, string(b))
	}
	want := []string{
		`{"kind":"context-level","time":"2026-11-22T12:00:00Z","sessionId":"5d1e0c7a-3f2b","transcript":"projects/-w/5d1e0c7a-3f2b.jsonl","project":"/w","from":"autocompact","to":"ok","tokens":9800,"threshold":167000,"text":"session 5d1e0c7a context fell back to ok: 9800 tokens (5%)"}`,
		`{"kind":"compaction","time":"2026-11-22T12:00:00Z","sessionId":"5d1e0c7a-3f2b","transcript":"projects/-w/5d1e0c7a-3f2b.jsonl","project":"/w","compaction":{"kind":"compact","uuid":"b1","line":40,"time":"2026-11-22T12:00:00Z","trigger":"auto","preTokens":167200,"postTokens":9800},"text":"session 5d1e0c7a compacted (auto) at line 40: 167200 → 9800 tokens"}`,
	}
	for i := range want {
		if lines[i] != want[i] {
			t.Errorf("event %d:\n%s\nwant\n%s", i, lines[i], want[i])
		}
	}
}

func TestPasteStates(t *testing.T) {
	inv := &model.PasteInventory{Resolutions: []model.PasteResolution{{Hash: "aa", Status: model.PasteOK}, {Hash: "bb", Status: model.PasteMissing}}}
	got := PasteStates(inv)
	if len(got) != 2 || got["aa"] != model.PasteOK || got["bb"] != model.PasteMissing {
		t.Errorf("states %v", got)
	}
	if got := PasteStates(&model.PasteInventory{}); got == nil || len(got) != 0 {
		t.Errorf("an inventory with no pastes must still watch pastes (non-nil): %v", got)
	}
}

// A level event says what moved the level when it is not the default
// (watch shows "autocompact at 67k · CLAUDE_CODE_AUTO_COMPACT_WINDOW").
func TestLevelEventSaysTheSource(t *testing.T) {
	lim := window.Resolve(window.Input{Model: "claude-opus-4-6", Getenv: func(k string) string {
		return map[string]string{window.EnvAutoCompactWindow: "100000"}[k]
	}, EnvFrom: "test"})
	at := func(ctx window.Tokens) SessionStatus {
		st := status("s1", ctx, true)
		w := lim.Config
		st.Window, st.Limits, st.Level = w, &lim, w.Level(ctx)
		st.Thresholds = timeline.Thresholds{Effective: w.Effective(), Warning: w.WarningAt(), Autocompact: w.AutocompactAt(), Blocked: w.BlockedAt()}
		return st
	}
	ev := Diff(snapAt(at(40000)), snapAt(at(68000)))
	if len(ev) != 1 || ev[0].To != window.LevelAutocompact || ev[0].Threshold != 67000 ||
		!strings.Contains(ev[0].Text, "autocompact at 67k · "+window.EnvAutoCompactWindow) {
		t.Errorf("events %+v", ev)
	}
}

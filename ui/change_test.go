package ui

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// Each file event names the one store it changes.
func TestClassifyNamesTheStore(t *testing.T) {
	t.Parallel()
	home := filepath.FromSlash("/h/.claude")
	s := func(slug, id string) map[sessionKey]bool { return map[sessionKey]bool{{Slug: slug, ID: id}: true} }
	for _, c := range []struct {
		path string
		want change
	}{
		{"", change{all: true}},
		{"history.jsonl", change{history: true}},
		{"history.jsonl.bak", change{lazy: true}},
		{"paste-cache/0123456789abcdef.txt", change{pastes: true}},
		{"paste-cache", change{pastes: true}},
		{"paste-store/abc", change{pastes: true}},
		{"settings.json", change{prompt: true, lazy: true}},
		{"CLAUDE.md", change{prompt: true, lazy: true}},
		{"todos/x.json", change{lazy: true}},
		{"sessions/1234.json", change{}},
		{"sessions", change{}},
		{"file-history", change{lazy: true}},
		{"projects", change{projects: true}},
		{"projects/-p", change{projects: true}},
		{"projects/-p/memory", change{memory: map[string]bool{"-p": true}}},
		{"projects/-p/memory/MEMORY.md", change{memory: map[string]bool{"-p": true}}},
		{"projects/-p/memory/sub/x.md", change{memory: map[string]bool{"-p": true}}},
		{"projects/-p/abc-1.jsonl", change{sessions: s("-p", "abc-1")}},
		{"projects/-p/abc-1", change{sessions: s("-p", "abc-1")}},
		{"projects/-p/abc-1/subagents/agent-x.jsonl", change{sessions: s("-p", "abc-1")}},
		{"projects/-p/.DS_Store", change{lazy: true}},
		{"../elsewhere", change{lazy: true}},
	} {
		got := classify(home, filepath.Join(home, filepath.FromSlash(c.path)))
		// Every file inside the home is named, for the lazily read panes.
		if c.path != "" && !strings.HasPrefix(c.path, "..") {
			c.want.names = map[string]bool{c.path: true}
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q: %+v, want %+v", c.path, got, c.want)
		}
	}
}

// File events and debounce ticks that change nothing on the screen keep
// the model's view number, so the screen drawn after them is the memo;
// a tick that starts a full reload shows "loading" and takes a new one,
// and so does any other message.
func TestFileEventsDoNotRedraw(t *testing.T) {
	m := newTestModel(t, 100, 30)
	first := screen(m)
	gen := m.gen
	next, _ := m.Update(fileChangedMsg{paths: []string{filepath.Join(m.opts.Home.Dir, "history.jsonl")}})
	m = next.(Model)
	if m.gen != gen || screen(m) != first {
		t.Fatalf("a file event made a new view (gen %d → %d)", gen, m.gen)
	}
	next, _ = m.Update(reloadTickMsg{tag: m.reloadTag - 1})
	if next.(Model).gen != gen {
		t.Fatal("a stale tick made a new view")
	}
	m.pending = change{all: true}
	next, _ = m.Update(reloadTickMsg{tag: m.reloadTag})
	m = next.(Model)
	if m.gen == gen || !strings.Contains(screen(m), "loading") {
		t.Fatalf("a tick that starts a full reload kept the view (gen %d):\n%s", m.gen, screen(m))
	}
	gen = m.gen
	next, _ = m.Update(tea.WindowSizeMsg{Width: 90, Height: 30})
	if next.(Model).gen == gen {
		t.Fatal("a resize kept the view")
	}
}

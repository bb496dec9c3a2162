package app

import (
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// countModel counts the messages it was given.
type countModel struct{ msgs int }

func (c countModel) Init() tea.Cmd                       { return nil }
func (c countModel) Update(tea.Msg) (tea.Model, tea.Cmd) { c.msgs++; return c, nil }
func (c countModel) View() tea.View                      { return tea.NewView("x") }

// With MEMSCOPE_KEYLOG set, every message still reaches the model, and
// the log has one line per key (its name, an Update and a View time),
// none for other messages; unset, the model is not wrapped.
func TestKeyLog(t *testing.T) {
	t.Parallel()
	if m := timeKeys(countModel{}, func(string) string { return "" }); m != (countModel{}) {
		t.Fatalf("unset: the model is wrapped: %T", m)
	}
	path := filepath.Join(t.TempDir(), "keys.log")
	m := timeKeys(countModel{}, func(k string) string {
		if k == KeyLogEnv {
			return path
		}
		return ""
	})
	for _, msg := range []tea.Msg{tea.WindowSizeMsg{Width: 80, Height: 20}, tea.KeyPressMsg{Code: '2', Text: "2"}, tea.KeyPressMsg{Code: tea.KeyTab}} {
		m, _ = m.Update(msg)
		m.View()
	}
	if got := unwrap(m).(countModel).msgs; got != 3 {
		t.Errorf("the model got %d messages, want 3", got)
	}
	writeKeyLog(m)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != 2 || strings.Split(lines[0], "\t")[1] != "2" || strings.Split(lines[1], "\t")[1] != "tab" {
		t.Fatalf("log %q: want the keys 2 and tab", data)
	}
	for _, l := range lines {
		f := strings.Split(l, "\t")
		if len(f) != 5 {
			t.Errorf("line %q: want 5 fields", l)
			continue
		}
		// The thread's CPU time is had on Linux.
		if cpu, err := strconv.Atoi(f[4]); err != nil || runtime.GOOS == "linux" && cpu < 0 {
			t.Errorf("line %q: CPU %q", l, f[4])
		}
	}
}

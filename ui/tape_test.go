package ui_test

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/memscope/memscope/demo"
	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/ui"
)

// tapeStep is one thing the tape does to the app: keys to press, or text
// that must be on screen.
type tapeStep struct {
	line   int
	keys   []tea.KeyPressMsg
	expect string
}

// parseTape reads a VHS tape. Lines before the one that starts memscope
// (a Type containing "memscope" and the Enter after it) are shell set-up;
// after it, Type, key commands and "# expect:" comments drive the app.
func parseTape(path string) ([]tapeStep, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var steps []tapeStep
	inApp, launching := false, false
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "# expect:") {
			if inApp {
				steps = append(steps, tapeStep{line: n, expect: strings.TrimSpace(strings.TrimPrefix(line, "# expect:"))})
			}
			continue
		}
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		cmd, arg, _ := strings.Cut(line, " ")
		switch cmd {
		case "Output", "Set", "Sleep", "Hide", "Show", "Require", "Screenshot", "Env", "Source":
			continue
		case "Type":
			s, err := strconv.Unquote(strings.TrimSpace(arg))
			if err != nil {
				return nil, fmt.Errorf("%s:%d: Type needs a quoted string: %v", path, n, err)
			}
			if !inApp {
				launching = strings.Contains(s, "memscope") && !strings.Contains(s, "go build")
				continue
			}
			var keys []tea.KeyPressMsg
			for _, r := range s {
				keys = append(keys, tea.KeyPressMsg{Code: r, Text: string(r)})
			}
			steps = append(steps, tapeStep{line: n, keys: keys})
		default:
			code, ok := tapeKeys[cmd]
			if !ok {
				return nil, fmt.Errorf("%s:%d: unknown tape command %q", path, n, cmd)
			}
			if !inApp {
				if cmd == "Enter" && launching {
					inApp = true
				}
				continue
			}
			count := 1
			if arg != "" {
				if count, err = strconv.Atoi(strings.TrimSpace(arg)); err != nil {
					return nil, fmt.Errorf("%s:%d: bad count %q", path, n, arg)
				}
			}
			for i := 0; i < count; i++ {
				steps = append(steps, tapeStep{line: n, keys: []tea.KeyPressMsg{code}})
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if !inApp {
		return nil, fmt.Errorf("%s: the tape never starts memscope", path)
	}
	return steps, nil
}

var tapeKeys = map[string]tea.KeyPressMsg{
	"Enter":     {Code: tea.KeyEnter},
	"Escape":    {Code: tea.KeyEscape},
	"Tab":       {Code: tea.KeyTab},
	"Space":     {Code: tea.KeySpace, Text: " "},
	"Backspace": {Code: tea.KeyBackspace},
	"Up":        {Code: tea.KeyUp},
	"Down":      {Code: tea.KeyDown},
	"Left":      {Code: tea.KeyLeft},
	"Right":     {Code: tea.KeyRight},
	"PageUp":    {Code: tea.KeyPgUp},
	"PageDown":  {Code: tea.KeyPgDown},
	"Ctrl+C":    {Code: 'c', Mod: tea.ModCtrl},
}

// runCmds runs cmd and what follows from it, feeding messages back into
// the model, skipping what needs a real terminal (the editor, ticks).
func runCmds(t *testing.T, m tea.Model, cmd tea.Cmd) (tea.Model, bool) {
	quit := false
	queue := []tea.Cmd{cmd}
	for steps := 0; len(queue) > 0; steps++ {
		if steps > 5000 {
			t.Fatal("commands do not settle")
		}
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		done := make(chan tea.Msg, 1)
		go func() { done <- c() }()
		var msg tea.Msg
		select {
		case msg = <-done:
		case <-time.After(2 * time.Second):
			continue // a blocking command (the file watcher); the program would wait on it
		}
		if batch, ok := msg.(tea.BatchMsg); ok {
			queue = append(queue, batch...)
			continue
		}
		if msg == nil {
			continue
		}
		if _, ok := msg.(tea.QuitMsg); ok {
			quit = true
			continue
		}
		next, c2 := m.Update(msg)
		m = next
		queue = append(queue, c2)
	}
	return m, quit
}

// TestDemoTapeReplays plays demo.tape's keys against the app on the demo
// home and checks every expectation the tape states.
func TestDemoTapeReplays(t *testing.T) {
	t.Parallel()
	steps, err := parseTape("../demo.tape")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	l, err := demo.Materialize(t.TempDir(), now)
	if err != nil {
		t.Fatal(err)
	}
	home, err := model.OpenHome(l.Home, model.HomeFromDemo)
	if err != nil {
		t.Fatal(err)
	}
	var m tea.Model = ui.New(ui.Options{Home: home, Project: l.Project("shop-api"), Demo: true, Now: func() time.Time { return now },
		Root: testroot.New(t),
		Getenv: func(k string) string {
			if k == "NO_COLOR" {
				return "1"
			}
			return ""
		}})
	m, _ = runCmds(t, m, m.Init())
	next, cmd := m.Update(tea.WindowSizeMsg{Width: 140, Height: 44})
	m, _ = runCmds(t, next, cmd)
	quit := false
	for _, s := range steps {
		for _, k := range s.keys {
			next, cmd := m.Update(k)
			var q bool
			m, q = runCmds(t, next, cmd)
			quit = quit || q
		}
		if s.expect != "" {
			screen := ansi.Strip(m.View().Content)
			if !strings.Contains(screen, s.expect) {
				t.Fatalf("demo.tape:%d: expected %q on screen:\n%s", s.line, s.expect, screen)
			}
		}
	}
	if !quit {
		t.Error("the tape should end by quitting memscope")
	}
}

func TestParseTapeRejectsUnknownCommands(t *testing.T) {
	p := t.TempDir() + "/bad.tape"
	os.WriteFile(p, []byte("Type \"memscope\"\nEnter\nWiggle\n"), 0o644)
	if _, err := parseTape(p); err == nil || !strings.Contains(err.Error(), "bad.tape:3") {
		t.Fatalf("want an error naming line 3, got %v", err)
	}
}

// Command memscope-tea-idle is the floor of "idle means idle": a Bubble Tea
// program (the version memscope uses) that draws one full screen of text
// in the alt screen and then does nothing. What it costs over a minute is
// what any Bubble Tea app costs idle (the renderer's frame ticker, 60 a
// second); scripts/startup-bench.sh prints it beside memscope's idle CPU.
// A digit key puts "key N" on its first line, so scripts/startup-keys.sh
// times send-keys to a screen change on it too: the floor of that row
// (tmux's polling, the renderer's frame interval), with no work behind.
package main

import (
	"fmt"
	"os"
	"strings"

	tea "charm.land/bubbletea/v2"
)

type model struct {
	w, h int
	key  string
}

func (m model) Init() tea.Cmd { return nil }

func (m model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
	case tea.KeyPressMsg:
		switch k := msg.String(); {
		case k == "q":
			return m, tea.Quit
		case len(k) == 1 && k[0] >= '0' && k[0] <= '9':
			m.key = k
		}
	}
	return m, nil
}

func (m model) View() tea.View {
	line := strings.Repeat("idle ", max(m.w/5, 1))
	s := strings.TrimRight(strings.Repeat(line+"\n", max(m.h, 1)), "\n")
	if m.key != "" {
		s = "key " + m.key + s[min(len(s), 5):]
	}
	v := tea.NewView(s)
	v.AltScreen = true
	return v
}

func main() {
	if _, err := tea.NewProgram(model{}).Run(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

package ui

import (
	"fmt"
	"os/exec"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/engine"
	"github.com/memscope/memscope/views/msgs"
)

// editorFinishedMsg says the editor exited; the root reloads and checks
// what was written.
type editorFinishedMsg struct {
	path string
	err  error
}

// editorCommand is $VISUAL, else $EDITOR, else vi, split into words so
// "code --wait" works.
func editorCommand(getenv func(string) string) []string {
	for _, k := range []string{"VISUAL", "EDITOR"} {
		if f := strings.Fields(getenv(k)); len(f) > 0 {
			return f
		}
	}
	return []string{"vi"}
}

// openEditorCmd hands the terminal to the editor (tea.ExecProcess) and
// comes back with editorFinishedMsg.
func (m Model) openEditorCmd(path string) tea.Cmd {
	if m.readOnly {
		return func() tea.Msg { return errMsg{fmt.Errorf("the home is read-only: editing is off")} }
	}
	argv := append(editorCommand(m.opts.Getenv), path)
	c := exec.Command(argv[0], argv[1:]...)
	return tea.ExecProcess(c, func(err error) tea.Msg { return editorFinishedMsg{path: path, err: err} })
}

// scanEditedCmd scans a file the user just edited: the editor wrote it,
// not memscope, so nothing was blocked, but the user should know.
func scanEditedCmd(path string, read func(string) ([]byte, error)) tea.Cmd {
	return func() tea.Msg {
		data, err := read(path)
		if err != nil {
			return errMsg{fmt.Errorf("read %s after editing: %w", path, err)}
		}
		fs := engine.Scan(path, string(data))
		if len(fs) == 0 {
			return msgs.Status{Text: "saved " + path}
		}
		f := fs[0]
		return msgs.Status{Text: fmt.Sprintf("saved %s — %d security finding(s), first: line %d %s (%s)", path, len(fs), f.Line, f.Rule, f.Severity), Error: engine.Blocking(fs)}
	}
}

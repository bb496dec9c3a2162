package ui

import (
	"strings"
	"syscall"
	"testing"

	"github.com/memscope/memscope/views/msgs"
)

func TestCauseFirst(t *testing.T) {
	for in, want := range map[string]string{
		"write the undo journal: write /m/.memscope/journal.jsonl: sync /m/.memscope/.j.tmp: no space left on device": "no space left on device: write the undo journal: write /m/.memscope/journal.jsonl: sync /m/.memscope/.j.tmp",
		"rename a.md: permission denied (nothing was changed)":                                                        "permission denied: rename a.md (nothing was changed)",
		"no space left on device: already first":                                                                      "no space left on device: already first",
		"the memory folder changed since this plan was made; plan again":                                              "the memory folder changed since this plan was made; plan again",
	} {
		if got := causeFirst(in); got != want {
			t.Errorf("causeFirst(%q)\n got %q\nwant %q", in, got, want)
		}
	}
}

// On a full disk at 140 columns, the status line starts with the cause
// (it was cut before it), and "!" opens the whole error.
func TestStatusLineCauseFirst(t *testing.T) {
	m := newTestModel(t, 140, 30)
	err := &wrapped{msg: "write the undo journal: write " + strings.Repeat("/very/long/path", 15) + "/.memscope/journal.jsonl", err: syscall.ENOSPC}
	next, _ := m.Update(msgs.Status{Text: err.Error(), Error: true})
	m = next.(Model)
	lines := strings.Split(screen(m), "\n")
	status := lines[len(lines)-1]
	if !strings.HasPrefix(strings.TrimSpace(status), "no space left on device: write the undo journal") {
		t.Errorf("status line %q does not start with the cause", status)
	}
	m = press(t, m, "!")
	flat := strings.NewReplacer("\n", "", " ", "", "│", "").Replace(screen(m))
	if s := screen(m); !strings.Contains(flat, strings.ReplaceAll(err.Error(), " ", "")) {
		t.Errorf("! does not show the full error:\n%s", s)
	}
	m = press(t, m, "x")
	if strings.Contains(screen(m), "Last error") {
		t.Error("any key does not close the error")
	}
}

type wrapped struct {
	msg string
	err error
}

func (w *wrapped) Error() string { return w.msg + ": " + w.err.Error() }
func (w *wrapped) Unwrap() error { return w.err }

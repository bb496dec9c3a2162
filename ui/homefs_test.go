package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/keymap"
	"github.com/memscope/memscope/model"
)

// The terminal app opens a home as the commands do (model.OpenHome gives
// model.HomeFS): a history.jsonl that is a link out of the home is
// refused, not read, so what it points at never reaches the History
// pane. With model.DirFS the outside file's prompt was shown.
func TestLinkOutOfTheHomeIsNotRead(t *testing.T) {
	base := t.TempDir()
	// The project, the home and the outside file all live in the test's
	// temporary folder: nothing outside it is named or read.
	home, outside, project := filepath.Join(base, "home"), filepath.Join(base, "outside.jsonl"), filepath.Join(base, "work", "beta")
	slug := filepath.Join(home, "projects", model.Slug(project))
	if err := os.MkdirAll(slug, 0o700); err != nil {
		t.Fatal(err)
	}
	tr := `{"type":"user","uuid":"u1","sessionId":"fedcb1e2-dbe4-5555-90b5-52df88de5bed","cwd":"` + project + `","timestamp":"2026-11-22T11:59:00Z","message":{"role":"user","content":"hi"}}` + "\n"
	if err := os.WriteFile(filepath.Join(slug, "fedcb1e2-dbe4-5555-90b5-52df88de5bed.jsonl"), []byte(tr), 0o600); err != nil {
		t.Fatal(err)
	}
	line := `{"display":"OUTSIDE-THE-HOME prompt","pastedContents":{},"timestamp":1795340000000,"project":"` + project + `","sessionId":"fedcb1e2-dbe4-5555-90b5-52df88de5bed"}` + "\n"
	if err := os.WriteFile(outside, []byte(line), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(home, model.HistoryPath)); err != nil {
		t.Fatal(err)
	}
	h, err := model.OpenHome(home, model.HomeFromFlag)
	if err != nil {
		t.Fatal(err)
	}
	m := press(t, loadedModel(t, Options{Home: h, Root: testroot.New(t, base)}, 120, 40), keymap.Panes[keymap.PaneIndex("History")].Key)
	s := screen(m)
	if !strings.Contains(s, "↑ = in the up-arrow window") {
		t.Fatalf("not the History pane:\n%s", s)
	}
	if strings.Contains(s, "OUTSIDE-THE-HOME") {
		t.Errorf("the History pane shows a file outside the home, read through a link:\n%s", s)
	}
	// The pane names the refused link instead of "reading…" for good,
	// and so does Pastes (which cannot tell orphans without history).
	flat := strings.Join(strings.Fields(strings.ReplaceAll(s, "│", " ")), " ")
	if strings.Contains(s, "reading history.jsonl") || !strings.Contains(flat, "history.jsonl not read") || !strings.Contains(flat, "outside the home (not followed)") {
		t.Errorf("the History pane does not name the refused link:\n%s", s)
	}
	s = screen(press(t, m, keymap.Panes[keymap.PaneIndex("Pastes")].Key))
	flat = strings.Join(strings.Fields(strings.ReplaceAll(s, "│", " ")), " ")
	if strings.Contains(s, "reading history and the paste cache") || !strings.Contains(flat, "outside the home (not followed)") || !strings.Contains(flat, "the paste cache is not listed") {
		t.Errorf("the Pastes pane does not name the refused link:\n%s", s)
	}
}

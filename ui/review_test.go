package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memscope/memscope/engine/review"
	"github.com/memscope/memscope/internal/provgen"
	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/model"
)

// provModel is the app on provgen's home, where the model wrote memory
// through tool calls (main session, subagent, a failed Write).
func provModel(t *testing.T, w, h int) (Model, provgen.Layout) {
	t.Helper()
	l, err := provgen.Write(t.TempDir(), testNow)
	if err != nil {
		t.Fatal(err)
	}
	home, err := model.OpenHome(l.Home, model.HomeFromFlag)
	if err != nil {
		t.Fatal(err)
	}
	return loadedModel(t, Options{Home: home, Project: l.Project, Root: testroot.New(t)}, w, h), l
}

func TestReviewPaneAcceptRejectUndo(t *testing.T) {
	m, l := provModel(t, 120, 40)
	if got := m.View().WindowTitle; !strings.HasSuffix(got, " · 4 to review") {
		t.Errorf("window title %q, want the count of memories to review", got)
	}
	m = press(t, m, "R")
	s := screen(m)
	for _, want := range []string{"4 memories to review", "feedback_terse.md", "project_deploy.md", "user_role.md", "MEMORY.md",
		"Edit by the main agent in session 3c000000", provgen.PromptRecap[:30]} {
		if !strings.Contains(s, want) {
			t.Errorf("Review pane lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "reference_dashboards.md") {
		t.Errorf("the hand-written memory is in the inbox:\n%s", s)
	}
	// The newest first: session 3's Edit of feedback_terse.md is selected.
	if it, ok := m.p.reviewPane.Selected(); !ok || it.Path != "feedback_terse.md" {
		t.Fatalf("selected %+v, want feedback_terse.md", it)
	}
	m = press(t, m, "a")
	if s := screen(m); !strings.Contains(s, "accepted feedback_terse.md") || !strings.Contains(s, "3 memories to review · 1 reviewed") {
		t.Fatalf("after accept:\n%s", s)
	}
	st, err := review.Load(model.DirFS(l.MemoryDir))
	if err != nil || st.Files["feedback_terse.md"].SHA256 == "" {
		t.Fatalf("review.json after accept: %+v, %v", st, err)
	}
	if !strings.HasSuffix(m.View().WindowTitle, " · 3 to review") {
		t.Errorf("title after accept: %q", m.View().WindowTitle)
	}
	// Reject the selected one (now MEMORY.md? the newest left): choose
	// user_role.md by filtering.
	m = press(t, m, "/", "u", "s", "e", "r", "enter")
	if it, _ := m.p.reviewPane.Selected(); it.Path != "user_role.md" {
		t.Fatalf("filter selected %q", it.Path)
	}
	m = press(t, m, "d")
	if !strings.Contains(screen(m), "Reject user_role.md: move it to the trash? y/n") {
		t.Fatalf("no question before rejecting:\n%s", screen(m))
	}
	m = press(t, m, "y")
	if _, err := os.Stat(filepath.Join(l.MemoryDir, "user_role.md")); !os.IsNotExist(err) {
		t.Fatalf("user_role.md is still there after reject: %v", err)
	}
	trashed, _ := filepath.Glob(filepath.Join(l.MemoryDir, ".trash", "*", "user_role.md"))
	if len(trashed) != 1 {
		t.Fatalf("user_role.md not in the trash: %v", trashed)
	}
	m = press(t, m, "esc")
	if s := screen(m); strings.Contains(s, "● new     user_role.md") {
		t.Fatalf("a rejected memory is still listed:\n%s", s)
	}
	m = press(t, m, "u")
	if _, err := os.Stat(filepath.Join(l.MemoryDir, "user_role.md")); err != nil {
		t.Fatalf("undo did not bring user_role.md back: %v", err)
	}
	if s := screen(m); !strings.Contains(s, "user_role.md") {
		t.Fatalf("after undo user_role.md is not back in the inbox:\n%s", s)
	}
	// The Projects list counts what is left.
	m = press(t, m, "2")
	if s := screen(m); !strings.Contains(s, "REVIEW") || !strings.Contains(s, "      3 ") {
		t.Errorf("Projects list without the count of 3:\n%s", s)
	}
}

func TestMemoriesShowOriginAndJumpToReplay(t *testing.T) {
	m, _ := provModel(t, 120, 40)
	m = press(t, m, "4", "/", "d", "e", "p", "l", "o", "y", "enter")
	s := screen(m)
	flat := strings.Join(strings.Fields(strings.ReplaceAll(s, "│", " ")), " ")
	for _, want := range []string{"origin: created with a Write by subagent", "memory-keeper (a7f3c21e)", "session 2b000000", "o opens that turn in Replay"} {
		if !strings.Contains(flat, want) {
			t.Errorf("Memories detail lacks %q:\n%s", want, s)
		}
	}
	m = press(t, m, "esc", "o")
	if m.focus != paneReplay {
		t.Fatalf("o focused pane %d, want Replay", m.focus)
	}
	tl := m.p.replay.Timeline()
	if tl == nil || m.follow == nil || !strings.HasSuffix(m.follow.path, provgen.SessionDeploy+".jsonl") {
		t.Fatalf("Replay did not open session 2 (follow %+v)", m.follow)
	}
	// The subagent's write is shown at the main agent's Task call.
	step := m.p.replay.Step()
	if step < 0 || step >= len(tl.Steps) || tl.Steps[step].Line != 2 {
		t.Errorf("selected step %d (%+v), want the Task call at line 2", step, tl.Steps)
	}
	_ = time.Second
}

func TestMemoriesOriginOfAHandWrittenFile(t *testing.T) {
	m, _ := provModel(t, 120, 40)
	m = press(t, m, "4", "/", "d", "a", "s", "h", "enter")
	if s := screen(m); !strings.Contains(s, "origin: written outside any transcript on disk") {
		t.Fatalf("hand-written memory:\n%s", s)
	}
	m = press(t, m, "esc", "o")
	if m.focus != paneMemories || !strings.Contains(screen(m), "written outside any transcript on disk") {
		t.Errorf("o on a file with no origin should say so and stay: focus %d\n%s", m.focus, screen(m))
	}
}

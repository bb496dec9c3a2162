package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memscope/memscope/internal/testroot"
)

// TestPromptTestdataHome runs memscope prompt on testdata/home for the
// project testroot.BetaProject, where its beta transcripts were recorded.
// testEnv's root does not show the machine, so that folder has no
// CLAUDE.md and is not in git (the startup folder is the memory key)
// whatever this machine holds there. Expected values come from the files: MEMORY.md trimmed is
// 6 lines and 249 UTF-16 units (counted with python), the user CLAUDE.md
// is "# User instructions\n\nBe brief.\n", prefers_terse.md was modified
// 2026-11-22T11:14:20.836Z (metadata), 45 minutes before the test clock.
func TestPromptTestdataHome(t *testing.T) {
	home, err := filepath.Abs("../testdata/home")
	if err != nil {
		t.Fatal(err)
	}
	e, out, errb := testEnv(t)
	if code := run(e, []string{"prompt", "--home", "../testdata/home", "--project", testroot.BetaProject, "--query", "terse answers please", "--json"}); code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	var p struct {
		MemoryDir string `json:"memoryDir"`
		Layers    []struct {
			Kind, Path, Status, Reason string
			Chars, Tokens              int
		} `json:"layers"`
		MemoryIndex struct {
			Lines, Chars, LoadedLines, LoadedChars int
			Truncated                              bool
			Warning                                string
		} `json:"memoryIndex"`
		Recalled []struct {
			File             string `json:"file"`
			AgeDays          int    `json:"ageDays"`
			Clock            string `json:"clock"`
			FreshnessWarning string `json:"freshnessWarning"`
		} `json:"recalled"`
		Problems []struct {
			File string
			Line int
		} `json:"problems"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(out.Bytes(), &p); err != nil {
		t.Fatal(err)
	}
	mem := filepath.Join(home, "projects", "-tmp-rc-work-beta", "memory")
	if p.MemoryDir != mem {
		t.Errorf("memoryDir %s", p.MemoryDir)
	}
	userBlock := "Contents of " + filepath.Join(home, "CLAUDE.md") + " (user's private global instructions for all projects):\n\n# User instructions\n\nBe brief."
	var kinds []string
	for _, l := range p.Layers {
		if l.Status == "loaded" {
			kinds = append(kinds, l.Kind)
		}
	}
	// Recall is off by default: MEMORY.md loads, the pick is not sent
	// (TestPromptTestdataHomeRecallOn has the other state).
	if strings.Join(kinds, ",") != "user,auto-memory" {
		t.Errorf("loaded layers %v", kinds)
	}
	if l := p.Layers[0]; l.Path != filepath.Join(home, "CLAUDE.md") || l.Chars != len(userBlock) || l.Tokens != (len(userBlock)+3)/4 {
		t.Errorf("user layer %+v, want %d chars", l, len(userBlock))
	}
	ix := p.MemoryIndex
	if ix.Lines != 6 || ix.Chars != 249 || ix.LoadedLines != 6 || ix.LoadedChars != 249 || ix.Truncated || ix.Warning != "" {
		t.Errorf("memoryIndex %+v", ix)
	}
	if len(p.Recalled) == 0 || p.Recalled[0].File != "prefers_terse.md" || p.Recalled[0].AgeDays != 0 || p.Recalled[0].Clock != "metadata.modified" || p.Recalled[0].FreshnessWarning != "" {
		t.Errorf("recalled %+v", p.Recalled)
	}
	badLine := 0
	for _, pr := range p.Problems {
		if pr.File == filepath.Join(mem, "bad_yaml.md") {
			badLine = pr.Line
		}
	}
	if badLine != 3 {
		t.Errorf("bad_yaml.md problem at line %d, want 3: %+v", badLine, p.Problems)
	}
	wantStart := "Codebase and user instructions are shown below. Be sure to adhere to these instructions. " +
		"IMPORTANT: These instructions OVERRIDE any default behavior and you MUST follow them exactly as written.\n\n" +
		userBlock + "\n\nContents of " + filepath.Join(mem, "MEMORY.md") + " (user's auto-memory, persists across conversations):\n\n# Beta project memory\n\n- [Prefers terse](prefers_terse.md)"
	if !strings.HasPrefix(p.Text, wantStart) || !strings.HasSuffix(p.Text, "Some free text that is not an entry.") {
		t.Errorf("text:\n%s", p.Text)
	}
}

// With recall on (CLAUDE_MEMORY_STORES set in the environment the command
// is given), MEMORY.md is left out and the picked memory follows the user
// instructions.
func TestPromptTestdataHomeRecallOn(t *testing.T) {
	home, err := filepath.Abs("../testdata/home")
	if err != nil {
		t.Fatal(err)
	}
	e, out, errb := testEnv(t)
	e.getenv = func(k string) string { return map[string]string{"CLAUDE_MEMORY_STORES": "1"}[k] }
	if code := run(e, []string{"prompt", "--home", "../testdata/home", "--project", testroot.BetaProject, "--query", "terse answers please", "--json"}); code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	var p struct {
		Layers []struct {
			Kind, Status string
		} `json:"layers"`
		RecallMode struct {
			On     bool   `json:"on"`
			Source string `json:"source"`
		} `json:"recallMode"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(out.Bytes(), &p); err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, l := range p.Layers {
		if l.Status == "loaded" {
			kinds = append(kinds, l.Kind)
		}
	}
	mem := filepath.Join(home, "projects", "-tmp-rc-work-beta", "memory")
	if !p.RecallMode.On || p.RecallMode.Source != "CLAUDE_MEMORY_STORES" || strings.Join(kinds, ",") != "user,recalled-memory" {
		t.Errorf("recall %+v, loaded layers %v", p.RecallMode, kinds)
	}
	if strings.Contains(p.Text, filepath.Join(mem, "MEMORY.md")) || !strings.Contains(p.Text, "Be brief.\n\n") || !strings.Contains(p.Text, "Contents of "+filepath.Join(mem, "prefers_terse.md")) {
		t.Errorf("text:\n%s", p.Text)
	}
}

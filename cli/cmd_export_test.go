package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/memscope/memscope/internal/faultfs"
	"github.com/memscope/memscope/model"
)

const exportTestSession = "668e1d4c-98ed-55ff-b990-a2cdf6449cee"

// exportHome is a home on disk with the real interactive transcript, a
// second session whose prompt has a paste placeholder (resolved through
// history.jsonl and the paste cache), and a project with memory.
func exportHome(t *testing.T) (home, transcript, project string) {
	t.Helper()
	home = filepath.Join(t.TempDir(), "claude")
	project = filepath.Join(t.TempDir(), "app")
	real, err := os.ReadFile("../model/testdata/transcripts/transcript-interactive-pastes.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(home, "projects", model.Slug(project))
	transcript = filepath.Join(dir, exportTestSession+".jsonl")
	paste := "line one\nline two"
	hash := string(model.HashPaste([]byte(paste)))
	files := map[string]string{
		transcript: string(real),
		filepath.Join(dir, "aaaa0000-1111-4222-8333-444455556666.jsonl"): `{"type":"user","uuid":"u1","sessionId":"aaaa0000-1111-4222-8333-444455556666","cwd":"` + project +
			`","timestamp":"2026-11-22T10:00:00Z","message":{"role":"user","content":"[Pasted text #1 +1 lines] fix it"}}` + "\n",
		filepath.Join(home, "history.jsonl"): `{"display":"[Pasted text #1 +1 lines] fix it","pastedContents":{"1":{"id":1,"type":"text","contentHash":"` + hash +
			`"}},"timestamp":1795338000000,"project":"` + project + `","sessionId":"aaaa0000-1111-4222-8333-444455556666"}` + "\n",
		filepath.Join(home, "paste-cache", hash+".txt"):                      paste,
		filepath.Join(dir, exportTestSession, "subagents", "agent-a1.jsonl"): `{"type":"user","uuid":"x1","isSidechain":true,"agentId":"a1","message":{"role":"user","content":"sub"}}` + "\n",
		filepath.Join(dir, "memory", "MEMORY.md"):                            "- [Terse](feedback_terse.md) — short answers\n",
		filepath.Join(dir, "memory", "feedback_terse.md"): "---\nname: terse\ndescription: short answers\nmetadata:\n  type: feedback\n" +
			"  modified: 2026-11-01T10:00:00Z\n---\n\nBe terse.\n",
	}
	for p, data := range files {
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(project, 0o755); err != nil {
		t.Fatal(err)
	}
	return home, transcript, project
}

func TestExportCommand(t *testing.T) {
	home, transcript, project := exportHome(t)
	memDir := filepath.Join(home, "projects", model.Slug(project), "memory")
	outDir := t.TempDir()
	existing := filepath.Join(outDir, "old.md")
	if err := os.WriteFile(existing, []byte("old content"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(outDir, "link.jsonl")
	if err := os.Symlink(transcript, link); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		args   []string
		code   int
		stdout []string // substrings
		stderr string
		file   string // --out file to check
		inFile []string
	}{
		{name: "md to stdout", args: []string{exportTestSession, "--home", home}, stdout: []string{"# Claude Code session " + exportTestSession, "## Conversation", "## Sidechain 1: subagent a1"}},
		{name: "prefix, html to a file", args: []string{"668e1d4c", "--home", home, "--format", "html", "--out", filepath.Join(outDir, "s.html")},
			stderr: "wrote", file: filepath.Join(outDir, "s.html"), inFile: []string{"<!DOCTYPE html>", "Content-Security-Policy"}},
		{name: "over an existing file", args: []string{exportTestSession, "--home", home, "--out", existing}, file: existing, inFile: []string{"## Conversation"}},
		{name: "json, flags first", args: []string{"--format", "json", "--home", home, "aaaa0000"}, stdout: []string{`"origin": "paste-cache"`, `"text": "line one\nline two"`}},
		{name: "a path in a home finds its pastes", args: []string{filepath.Join(home, "projects", model.Slug(project), "aaaa0000-1111-4222-8333-444455556666.jsonl"), "--format", "json"},
			stdout: []string{`"origin": "paste-cache"`}},
		{name: "refuses the transcript itself", args: []string{exportTestSession, "--home", home, "--out", transcript}, code: 1, stderr: "own transcript"},
		{name: "refuses a subagent transcript", args: []string{exportTestSession, "--home", home, "--out", filepath.Join(filepath.Dir(transcript), exportTestSession, "subagents", "agent-a1.jsonl")},
			code: 1, stderr: "own transcript"},
		{name: "refuses the transcript through a link", args: []string{exportTestSession, "--home", home, "--out", link}, code: 1, stderr: "own transcript"},
		{name: "memory as md", args: []string{"--memory", "--home", home, "--project", project}, stdout: []string{"# Claude Code memory of " + project, "## Feedback memories (1)", "21 days, fresh"}},
		{name: "memory as json", args: []string{"--memory", "--home", home, "--project", project, "--format", "json"}, stdout: []string{`"schema": "memscope.memory-export/v1"`}},
		{name: "memory refuses its own folder", args: []string{"--memory", "--home", home, "--project", project, "--out", filepath.Join(memDir, "export.md")}, code: 1, stderr: "inside the memory folder"},
		{name: "memory has no html", args: []string{"--memory", "--home", home, "--format", "html"}, code: 2},
		{name: "no session", args: []string{"--home", home}, code: 2, stderr: "usage"},
		{name: "two sessions", args: []string{"a", "b", "--home", home}, code: 2},
		{name: "bad format", args: []string{exportTestSession, "--home", home, "--format", "pdf"}, code: 2, stderr: "unknown export format"},
		{name: "unknown session", args: []string{"ffff", "--home", home}, code: 2, stderr: "no session"},
		{name: "project without memory", args: []string{exportTestSession, "--project", project, "--home", home}, code: 2},
	}
	before, _ := os.ReadFile(transcript)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, out, errb := testEnv(t)
			if code := run(e, append([]string{"export"}, tt.args...)); code != tt.code {
				t.Fatalf("exit %d, want %d: %s", code, tt.code, errb)
			}
			for _, s := range tt.stdout {
				if !strings.Contains(out.String(), s) {
					t.Errorf("stdout lacks %q:\n%.600s", s, out)
				}
			}
			if !strings.Contains(errb.String(), tt.stderr) {
				t.Errorf("stderr %q lacks %q", errb, tt.stderr)
			}
			if tt.file != "" {
				data, err := os.ReadFile(tt.file)
				if err != nil {
					t.Fatal(err)
				}
				for _, s := range tt.inFile {
					if !strings.Contains(string(data), s) {
						t.Errorf("%s lacks %q", tt.file, s)
					}
				}
				if out.Len() != 0 {
					t.Errorf("stdout not empty with --out")
				}
			}
		})
	}
	after, _ := os.ReadFile(transcript)
	if string(before) != string(after) {
		t.Errorf("the transcript changed")
	}
	if st, err := os.Stat(filepath.Join(outDir, "s.html")); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("new export file mode %v, %v; want 0600", st.Mode(), err)
	}
	if entries, _ := os.ReadDir(memDir); len(entries) != 2 {
		t.Errorf("memory folder has %d entries, want the 2 it had", len(entries))
	}
}

// The JSON export decodes with fields as documented (decoded here with
// its own struct, not the engine's).
func TestExportCommandJSONShape(t *testing.T) {
	home, _, _ := exportHome(t)
	e, out, errb := testEnv(t)
	if code := run(e, []string{"export", exportTestSession, "--home", home, "--format", "json"}); code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	var x struct {
		Schema       string   `json:"schema"`
		SessionID    string   `json:"sessionId"`
		Models       []string `json:"models"`
		Conversation []struct {
			Kind string `json:"kind"`
			Line int    `json:"line"`
		} `json:"conversation"`
		Leaf struct {
			Source string `json:"source"`
			Line   int    `json:"line"`
		} `json:"leaf"`
	}
	if err := json.Unmarshal(out.Bytes(), &x); err != nil {
		t.Fatal(err)
	}
	// From the file: the leaf named by the last last-prompt is the
	// turn_duration record on line 37; the first message is line 5.
	if x.Schema != "memscope.session-export/v1" || x.SessionID != exportTestSession || x.Leaf.Source != "last-prompt" || x.Leaf.Line != 37 ||
		len(x.Conversation) == 0 || x.Conversation[0].Line != 5 || x.Conversation[0].Kind != "user" || strings.Join(x.Models, ",") != "claude-opus-5-5" {
		t.Errorf("%+v", x)
	}
}

// export --out and compact --out write through the command's writer, so a
// failing disk is reported and leaves no file (the writer seam, not the
// real OS behind the test's back).
func TestOutWritesGoThroughTheWriter(t *testing.T) {
	home, _, _ := exportHome(t)
	for _, args := range [][]string{
		{"export", exportTestSession, "--home", home, "--format", "md"},
		{"compact", exportTestSession, "--home", home, "--manual"},
	} {
		e, _, errb := testEnv(t)
		e.writes = &faultfs.FS{Step: faultfs.StepWrite, Nth: 1, Err: syscall.ENOSPC}
		dst := filepath.Join(t.TempDir(), "out.txt")
		if code := run(e, append(args, "--out", dst)); code == 0 || !strings.Contains(errb.String(), "no space left on device") {
			t.Errorf("%v: exit %d, stderr %q; want the injected ENOSPC", args[0], code, errb)
		}
		if _, err := os.Stat(dst); !os.IsNotExist(err) {
			t.Errorf("%v: %s exists after a failed write (%v)", args[0], dst, err)
		}
	}
}

// The settings file's staleness thresholds class the exported memories,
// as they do in lint, prune and the Memories pane: the 21-day feedback
// memory, fresh by the defaults, is stale from 10 days.
func TestExportMemoryUsesSettingsStaleness(t *testing.T) {
	home, _, project := exportHome(t)
	e, path, take := configEnv(t)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("staleness:\n  feedback: {aging_days: 5, stale_days: 10}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code := run(e, []string{"export", "--memory", "--home", home, "--project", project})
	if o, er := take(); code != 0 || !strings.Contains(o, "21 days, stale") {
		t.Errorf("exit %d, stderr %q: the export does not class the memory by the settings file:\n%.600s", code, er, o)
	}
}

package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// promptFixture writes a Claude home and a project into temp folders.
func promptFixture(t *testing.T) (home, proj string) {
	t.Helper()
	root := t.TempDir()
	home, proj = filepath.Join(root, "claude-home"), filepath.Join(root, "proj")
	slug := regexp.MustCompile(`[^A-Za-z0-9]`).ReplaceAllString(proj, "-")
	mem := filepath.Join(home, "projects", slug, "memory")
	write := func(p, s string) {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(home, "CLAUDE.md"), "User rule.")
	write(filepath.Join(proj, "CLAUDE.md"), "Project rule. See @docs/gone.md\n")
	write(filepath.Join(proj, ".claude", "rules", "web.md"), "---\npaths: web/**\n---\nweb only")
	write(filepath.Join(mem, "MEMORY.md"), "- [deploys](deploys.md) — no Friday deploys\n")
	write(filepath.Join(mem, "deploys.md"), "---\nname: deploys\ndescription: No deploys on Friday\nmetadata:\n  type: project\n  modified: 2026-11-01T10:00:00.000Z\n---\nFreeze starts Thursday.\n")
	return home, proj
}

func TestPromptJSON(t *testing.T) {
	home, proj := promptFixture(t)
	e, out, errb := testEnv(t)
	if code := run(e, []string{"prompt", "--home", home, "--project", proj, "--query", "deploy on friday", "--json"}); code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(out.Bytes(), &raw); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	for _, k := range []string{"project", "memoryDir", "layers", "memoryIndex", "recalled", "missingImports", "conditionalRules", "text"} {
		if _, ok := raw[k]; !ok {
			t.Errorf("JSON lacks %q", k)
		}
	}
	var p struct {
		Project   string `json:"project"`
		MemoryDir string `json:"memoryDir"`
		Layers    []map[string]any
		Index     map[string]any `json:"memoryIndex"`
		Recalled  []map[string]any
		Missing   []struct{ Path string } `json:"missingImports"`
		Cond      []struct{ Path string } `json:"conditionalRules"`
		Text      string
	}
	json.Unmarshal(out.Bytes(), &p)
	slug := regexp.MustCompile(`[^A-Za-z0-9]`).ReplaceAllString(proj, "-")
	if p.Project != proj || p.MemoryDir != filepath.Join(home, "projects", slug, "memory") {
		t.Errorf("project %s memoryDir %s", p.Project, p.MemoryDir)
	}
	for _, l := range p.Layers {
		for _, k := range []string{"kind", "path", "chars", "tokens", "truncated"} {
			if _, ok := l[k]; !ok {
				t.Errorf("layer lacks %q: %v", k, l)
			}
		}
	}
	for _, k := range []string{"lines", "chars", "loadedLines", "loadedChars", "truncated", "warning", "droppedEntries"} {
		if _, ok := p.Index[k]; !ok {
			t.Errorf("memoryIndex lacks %q", k)
		}
	}
	if len(p.Recalled) != 1 || p.Recalled[0]["file"] != "deploys.md" || p.Recalled[0]["ageDays"].(float64) != 21 ||
		!strings.HasPrefix(p.Recalled[0]["freshnessWarning"].(string), "This memory is 21 days old.") || p.Recalled[0]["score"].(float64) <= 0 {
		t.Errorf("recalled %v", p.Recalled)
	}
	if len(p.Missing) != 1 || p.Missing[0].Path != filepath.Join(proj, "docs", "gone.md") {
		t.Errorf("missing %v", p.Missing)
	}
	if len(p.Cond) != 1 || !strings.HasSuffix(p.Cond[0].Path, "web.md") {
		t.Errorf("conditional %v", p.Cond)
	}
	// Recall is off without CLAUDE_MEMORY_STORES: MEMORY.md is sent, the
	// recalled memory is not.
	for _, want := range []string{"Contents of " + filepath.Join(home, "CLAUDE.md"), "Project rule.", "no Friday deploys"} {
		if !strings.Contains(p.Text, want) {
			t.Errorf("text lacks %q", want)
		}
	}
	if strings.Contains(p.Text, "Freeze starts Thursday.") {
		t.Error("recall is off, but the recalled memory is in the text")
	}

	// --recall on shows the other state: the recalled memory, no MEMORY.md.
	e, out, errb = testEnv(t)
	if code := run(e, []string{"prompt", "--home", home, "--project", proj, "--query", "deploy on friday", "--recall", "on", "--json"}); code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	p.Text = ""
	json.Unmarshal(out.Bytes(), &p)
	if !strings.Contains(p.Text, "Freeze starts Thursday.") || strings.Contains(p.Text, "no Friday deploys") {
		t.Errorf("--recall on text:\n%s", p.Text)
	}
	e, _, errb = testEnv(t)
	if code := run(e, []string{"prompt", "--home", home, "--project", proj, "--recall", "maybe"}); code != 2 || !strings.Contains(errb.String(), "want on, off or env") {
		t.Errorf("--recall maybe: exit %d, %s", code, errb)
	}
}

func TestPromptTextAndErrors(t *testing.T) {
	home, proj := promptFixture(t)
	e, out, _ := testEnv(t)
	if code := run(e, []string{"prompt", "--home", home, "--project", proj}); code != 0 || !strings.Contains(out.String(), "----- assembled text -----") || !strings.Contains(out.String(), "missing imports") {
		t.Errorf("report: exit %d\n%s", code, out)
	}
	e, out, _ = testEnv(t)
	if code := run(e, []string{"prompt", "--home", home, "--project", proj, "--text", "--at", "2026-11-01T09:00"}); code != 0 || !strings.HasPrefix(out.String(), "Codebase and user instructions") {
		t.Errorf("--text: exit %d\n%s", code, out)
	}
	for _, c := range []struct {
		args []string
		code int
	}{{[]string{"--at", "yesterday"}, 1}, {[]string{"--stale", "project=9"}, 1}, {[]string{"--home", filepath.Join(home, "nope")}, 2}} {
		e, _, errb := testEnv(t)
		if code := run(e, append([]string{"prompt", "--project", proj}, c.args...)); code != c.code || !strings.Contains(errb.String(), "memscope prompt:") {
			t.Errorf("%v: exit %d (want %d), stderr %q", c.args, code, c.code, errb)
		}
	}
}

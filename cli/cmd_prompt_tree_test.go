package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// promptTree writes a repository with every CLAUDE.md case under root:
// nested CLAUDE.md files, .claude/rules with and without paths:,
// CLAUDE.local.md, an import chain six files deep, a cycle, an escaped
// space, a #fragment, imports in a code span, a fence, an HTML comment
// and an indented code block, a file over 4 MiB, a binary extension, a
// missing file, imports from outside the startup folder, an excluded
// file, and an --add-dir folder.
func promptTree(t *testing.T, root string) {
	t.Helper()
	write := func(rel, s string) {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("home/.claude/CLAUDE.md", "user global. @~/notes.md\n")
	write("home/notes.md", "user notes\n")
	write("home/.claude/rules/u.md", "user rule\n")
	write("home/.claude/rules/go.md", "---\npaths:\n  - \"**/*.go\"\n---\ngo rule\n")
	write("home/.claude/settings.json", `{"claudeMdExcludes": ["**/sub/CLAUDE.md"]}`)
	write("repo/.git/HEAD", "ref: refs/heads/main\n")
	write("repo/CLAUDE.md", "# Repo\n@docs/shared.md\n@../outside/ext.md\n")
	write("repo/docs/shared.md", "shared doc\n")
	write("outside/ext.md", "outside ext\n")
	write("repo/.claude/CLAUDE.md", "dot claude\n")
	write("repo/.claude/rules/a.md", "rule a\n")
	write("repo/.claude/rules/c.md", "---\npaths: src/**, lib/*.ts\n---\nconditional string\n")
	write("repo/.claude/rules/sub/b.md", "---\npaths:\n  - web/**\n---\nconditional list\n")
	write("repo/CLAUDE.local.md", "repo local\n")
	write("repo/sub/CLAUDE.md", "excluded\n")
	write("repo/sub/deeper/CLAUDE.md", "# Deeper\n@d1.md\n@cyc1.md\n@my\\ notes.md\n@guide.md#setup\n`@span.md` and\n```\n@fenced.md\n```\n"+
		"<!-- @commented.md -->\n    @indented.md\n@big.md @logo.png @LICENSE @missing.md\nemail@example.com\n")
	for i := 1; i <= 6; i++ {
		write(fmt.Sprintf("repo/sub/deeper/d%d.md", i), fmt.Sprintf("level %d @d%d.md\n", i, i+1))
	}
	write("repo/sub/deeper/cyc1.md", "cyc1 @cyc2.md\n")
	write("repo/sub/deeper/cyc2.md", "cyc2 @cyc1.md\n")
	write("repo/sub/deeper/my notes.md", "my notes\n")
	write("repo/sub/deeper/guide.md", "guide\n")
	for _, f := range []string{"span", "fenced", "commented", "indented"} {
		write("repo/sub/deeper/"+f+".md", "MUST NOT LOAD\n")
	}
	write("repo/sub/deeper/big.md", strings.Repeat("x", 4<<20+1))
	write("repo/sub/deeper/logo.png", "\x89PNG\r\n")
	write("repo/sub/deeper/LICENSE", "MIT\n")
	write("other/CLAUDE.md", "other add dir\n")
}

func TestPromptRealTree(t *testing.T) {
	root := t.TempDir()
	promptTree(t, root)
	rows := func(approved, addDirs bool) ([]string, string) {
		t.Helper()
		cj := "{}"
		if approved {
			cj = fmt.Sprintf(`{"projects": {%q: {"hasClaudeMdExternalIncludesApproved": true}}}`, filepath.Join(root, "repo"))
		}
		if err := os.WriteFile(filepath.Join(root, "home", ".claude.json"), []byte(cj), 0o644); err != nil {
			t.Fatal(err)
		}
		e, out, errb := testEnv(t)
		e.userHome = func() (string, error) { return filepath.Join(root, "home"), nil }
		if addDirs {
			e.getenv = func(k string) string {
				return map[string]string{"CLAUDE_CODE_ADDITIONAL_DIRECTORIES_CLAUDE_MD": "true"}[k]
			}
		}
		args := []string{"prompt", "--json", "--home", filepath.Join(root, "home", ".claude"), "--project", filepath.Join(root, "repo", "sub", "deeper"), "--add-dir", filepath.Join(root, "other")}
		if code := run(e, args); code != 0 {
			t.Fatalf("exit %d: %s", code, errb)
		}
		var p struct {
			Layers []struct{ Kind, Path, Status string }
			Text   string
		}
		if err := json.Unmarshal(out.Bytes(), &p); err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, l := range p.Layers {
			got = append(got, l.Status+" "+l.Kind+" "+strings.TrimPrefix(l.Path, root+"/"))
		}
		return got, p.Text
	}
	d := "repo/sub/deeper/"
	want := func(shared string) []string {
		return []string{
			"loaded user home/.claude/CLAUDE.md", "loaded user home/notes.md",
			"conditional user home/.claude/rules/go.md", "loaded user home/.claude/rules/u.md",
			"loaded project repo/CLAUDE.md", shared + " project repo/docs/shared.md", shared + " project outside/ext.md",
			"loaded project repo/.claude/CLAUDE.md", "loaded project repo/.claude/rules/a.md",
			"conditional project repo/.claude/rules/c.md", "conditional project repo/.claude/rules/sub/b.md",
			"loaded local repo/CLAUDE.local.md", "skipped project repo/sub/CLAUDE.md",
			"loaded project " + d + "CLAUDE.md",
			"loaded project " + d + "d1.md", "loaded project " + d + "d2.md", "loaded project " + d + "d3.md", "loaded project " + d + "d4.md", "skipped project " + d + "d5.md",
			"loaded project " + d + "cyc1.md", "loaded project " + d + "cyc2.md", "skipped project " + d + "cyc1.md",
			"loaded project " + d + "my notes.md", "loaded project " + d + "guide.md",
			"skipped project " + d + "big.md", "skipped project " + d + "logo.png", "loaded project " + d + "LICENSE", "missing project " + d + "missing.md",
			"loaded project other/CLAUDE.md",
		}
	}
	for _, approved := range []bool{false, true} {
		got, text := rows(approved, true)
		w := want(map[bool]string{false: "skipped", true: "loaded"}[approved])
		if !reflect.DeepEqual(got, w) {
			t.Errorf("approved=%v layers\n%s\nwant\n%s", approved, strings.Join(got, "\n"), strings.Join(w, "\n"))
		}
		if strings.Contains(text, "MUST NOT LOAD") || strings.Contains(text, "level 5") || !strings.Contains(text, "level 4") {
			t.Errorf("approved=%v: text has code/comment imports or the wrong depth", approved)
		}
	}
	// Without CLAUDE_CODE_ADDITIONAL_DIRECTORIES_CLAUDE_MD the client
	// does not read the --add-dir folder's CLAUDE.md.
	got, text := rows(false, false)
	if last := got[len(got)-1]; last != "skipped project other/CLAUDE.md" || strings.Contains(text, "other add dir") {
		t.Errorf("env unset: --add-dir file %q, in the text: %v", last, strings.Contains(text, "other add dir"))
	}
}

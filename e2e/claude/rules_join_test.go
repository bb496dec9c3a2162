package claude

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memscope/memscope/engine/preview"
	"github.com/memscope/memscope/model"
)

// TestPathRuleJoinsAsComputed: a .claude/rules file with paths: joins
// when the model reads a matching file; the tool result's request holds
// exactly the ConditionalRule.Text memscope's preview computes for it,
// for a small rule (leading blank lines, a comment, a final newline) and
// one over preview.NestedMaxChars (cut as a nested CLAUDE.md is: its
// start and the note).
func TestPathRuleJoinsAsComputed(t *testing.T) {
	claude := client(t)
	var big strings.Builder
	for i := 0; big.Len() < 400000; i++ {
		big.WriteString("- rule " + strings.Repeat("y", 190) + "\n")
	}
	for _, body := range []string{"\n\n<!-- why -->\n- use strict mode in sub\n\n", big.String()} {
		w := newWorld(t)
		rules, sub := filepath.Join(w.project, ".claude", "rules"), filepath.Join(w.project, "sub")
		for _, d := range []string{rules, sub} {
			if err := os.MkdirAll(d, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		rule := filepath.Join(rules, "sub.md")
		if err := os.WriteFile(rule, []byte("---\npaths: [\"sub/**\"]\n---\n"+body), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(sub, "x.go"), []byte("package sub\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		res := preview.AssembleClaudeMd(preview.ClaudeMdOptions{Root: model.DirFS("/"), HomeDir: w.config, UserHome: w.home, Project: w.project})
		var want string
		for _, c := range res.ConditionalRules {
			if c.Path == rule {
				want = c.Text
			}
		}
		if want == "" {
			t.Fatalf("memscope lists no conditional rule %s: %+v", rule, res.ConditionalRules)
		}
		reqs := w.run(t, claude, "Read", map[string]any{"file_path": filepath.Join(sub, "x.go")})
		found, seen := false, ""
		for _, r := range reqs {
			walkStrings(r.Body["messages"], func(s string) {
				j := strings.Index(s, "Contents of "+rule)
				if j < 0 {
					return
				}
				seen = strings.TrimSuffix(s[j:], "\n</system-reminder>")
				found = found || seen == want
			})
		}
		if !found {
			t.Errorf("%d-byte rule: the client sent %d characters\n%q…%q\nmemscope computes %d\n%q…%q", len(body), len(seen), seen[:min(len(seen), 200)], seen[max(0, len(seen)-200):], len(want), want[:min(len(want), 200)], want[max(0, len(want)-200):])
		}
	}
}

package lint_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/memscope/memscope/engine/internal/enginetest"
	"github.com/memscope/memscope/engine/lint"
)

// overflowingIndex is a MEMORY.md of 210 lines: early links oldLine's
// target on line 3, late's on line 206 (past the 200-line cut).
func overflowingIndex(early, late string) string {
	var b strings.Builder
	b.WriteString("# Memory\n\n")
	fmt.Fprintf(&b, "- [Early](%s) — the deploy rule\n", early)
	for i := 4; i <= 205; i++ {
		fmt.Fprintf(&b, "- note %d about nothing in particular\n", i)
	}
	fmt.Fprintf(&b, "- [Late](%s) — the deploy rule, corrected\n", late)
	for i := 207; i <= 210; i++ {
		fmt.Fprintf(&b, "- tail %d\n", i)
	}
	return b.String()
}

func deployMemory(name, modified, when string) string {
	m := enginetest.ClientMemory(name, "How deploys go", "project",
		"Deploys go out from the release branch on "+when+" after the staging soak; the on-call engineer signs off in the channel.\n")
	return strings.Replace(m, "2026-10-01T08:00:00.000Z", modified, 1)
}

// TestCorrectionBelowCut: the newer of two near-duplicates is linked only
// past the cut and the older loads: an error on the newer file, naming the
// older and the index line. The same pair the other way round (the older
// one cut off), or an index under the caps, is only a duplicate.
func TestCorrectionBelowCut(t *testing.T) {
	old := deployMemory("deploy_old", "2026-10-01T08:00:00.000Z", "Tuesdays")
	newer := deployMemory("deploy_new", "2026-11-20T08:00:00.000Z", "Thursdays")
	cases := []struct {
		name  string
		files map[string]string
		want  bool
	}{
		{"newer cut off", map[string]string{"MEMORY.md": overflowingIndex("deploy_old.md", "deploy_new.md"), "deploy_old.md": old, "deploy_new.md": newer}, true},
		{"older cut off", map[string]string{"MEMORY.md": overflowingIndex("deploy_new.md", "deploy_old.md"), "deploy_old.md": old, "deploy_new.md": newer}, false},
		{"under the caps", map[string]string{"MEMORY.md": "- [Early](deploy_old.md) — x\n- [Late](deploy_new.md) — y\n", "deploy_old.md": old, "deploy_new.md": newer}, false},
		{"same age", map[string]string{"MEMORY.md": overflowingIndex("deploy_old.md", "deploy_new.md"), "deploy_old.md": old,
			"deploy_new.md": deployMemory("deploy_new", "2026-10-01T08:00:00.000Z", "Thursdays")}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := lintFixture(t, c.files, nil)
			var dup bool
			var got []lint.Finding
			for _, f := range r.Findings {
				switch f.Kind {
				case lint.Duplicate:
					dup = true
				case lint.CorrectionBelowCut:
					got = append(got, f)
				}
			}
			if !dup {
				t.Fatalf("the pair is not a near-duplicate: %+v", r.Duplicates)
			}
			if !c.want {
				if len(got) != 0 {
					t.Errorf("unexpected %+v", got)
				}
				return
			}
			if len(got) != 1 {
				t.Fatalf("%d correction findings: %+v", len(got), r.Findings)
			}
			f := got[0]
			if f.Severity != lint.SevError || f.Path != "deploy_new.md" || len(f.Related) != 2 || f.Related[0] != "deploy_old.md" || f.Related[1] != "MEMORY.md:206" ||
				!strings.Contains(f.Message, "index line 206 is past the cut (line 201)") || !strings.Contains(f.Message, "2026-11-20 vs 2026-10-01") {
				t.Errorf("finding %+v", f)
			}
			if !r.HasErrors() {
				t.Error("the report has no error")
			}
		})
	}
}

package overview_test

import (
	"testing"

	"github.com/memscope/memscope/engine/lint"
	"github.com/memscope/memscope/engine/overview"
	"github.com/memscope/memscope/engine/preview"
	"github.com/memscope/memscope/internal/testroot"
)

// The Lint and Prompt lines take an app's check of the project
// (Source.Checked) instead of linting and building the preview again,
// only when it is of the same project, memory folder and tree; otherwise
// they compute their own, as the CLI does. A check whose figures no
// computation gives (7 errors, 1234 tokens) tells which was used.
func TestLinesTakeTheAppsCheckOfTheSameProject(t *testing.T) {
	own := source(t, testroot.BetaProject)
	lintOwn, promptOwn := overview.Compute(own, overview.Lint), overview.Compute(own, overview.Prompt)
	tgt := own.Env.Open(testroot.BetaProject)
	marked := func() *overview.Checked {
		return &overview.Checked{Project: testroot.BetaProject, MemoryDir: tgt.Loc.Dir, Tree: tgt.Tree,
			Lint: &lint.Report{Errors: 7}, Preview: &preview.Preview{Totals: preview.Totals{Tokens: 1234}}}
	}
	s := source(t, testroot.BetaProject)
	s.Checked = marked()
	if l := overview.Compute(s, overview.Lint); l.Part(overview.PartErrors) != 7 || l.Count != 7 {
		t.Errorf("the lint line did not take the check of the same folder: %+v", l)
	}
	if l := overview.Compute(s, overview.Prompt); l.Count != 1234 {
		t.Errorf("the prompt line did not take the check's preview: %+v", l)
	}
	for name, change := range map[string]func(*overview.Checked){
		"another project": func(c *overview.Checked) { c.Project += "/other" },
		"another folder":  func(c *overview.Checked) { c.MemoryDir += "/other" },
		"another tree":    func(c *overview.Checked) { c.Tree += "/other" },
		"no lint":         func(c *overview.Checked) { c.Lint = nil },
	} {
		s := source(t, testroot.BetaProject)
		s.Checked = marked()
		change(s.Checked)
		if l := overview.Compute(s, overview.Lint); l.Count != lintOwn.Count || l.Text != lintOwn.Text {
			t.Errorf("%s: the lint line is %+v, want its own %+v", name, l, lintOwn)
		}
	}
	s = source(t, testroot.BetaProject)
	s.Checked = marked()
	s.Checked.Project += "/other"
	if l := overview.Compute(s, overview.Prompt); l.Count != promptOwn.Count || l.Count == 1234 {
		t.Errorf("another project's preview was taken: %+v, want %+v", l, promptOwn)
	}
}

package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/memscope/memscope/engine/lint"
)

// Everything the demo plants is found, at the right file (the demo's
// README of problems: a dangling link, orphans, a duplicate pair, a leaked
// AWS key, an injection, a broken frontmatter, an over-cap index, a stale
// file path, a too-long file), and lint exits 1 for the errors.
func TestLintDemo(t *testing.T) {
	e, out, errb := testEnv(t)
	l := sharedDemo(t)
	code := run(e, []string{"lint", "--home", l.Home, "--project", l.Project("shop-api"), "--json"})
	if code != 1 {
		t.Fatalf("exit %d, want 1 (errors found): %s", code, errb)
	}
	var rep lintOutput
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	tests := []struct {
		kind lint.Kind
		sev  lint.Severity
		path string
		text string
	}{
		{lint.DanglingLink, lint.SevError, "MEMORY.md", "cache_notes.md"},
		{lint.IndexOverCap, lint.SevError, "MEMORY.md", "4 index entries fall off"},
		{lint.Orphan, lint.SevWarning, "feedback_integration_tests_real_db.md", "not in MEMORY.md"},
		{lint.Orphan, lint.SevWarning, "project_incident_notes.md", "not in MEMORY.md"},
		{lint.Duplicate, lint.SevWarning, "feedback_integration_tests_real_db.md", "feedback_no_db_mocks.md"},
		{lint.Security, lint.SevError, "reference_staging.md", "aws-access-key-id"},
		{lint.Security, lint.SevError, "reference_vendor_docs.md", "ignore previous instructions"},
		{lint.InvalidFrontmatter, lint.SevError, "broken_frontmatter.md", "yaml"},
		{lint.Drift, lint.SevWarning, "project_checkout_rewrite.md", "internal/cart/legacy.go"},
		{lint.TooLong, lint.SevWarning, "project_incident_notes.md", "5002 bytes"},
		{lint.Stale, lint.SevWarning, "project_api_versioning.md", "150 days old"},
		{lint.UnknownType, lint.SevWarning, "notes_untyped.md", `"scratch"`},
	}
	for _, tt := range tests {
		found := false
		for _, f := range rep.Findings {
			found = found || f.Kind == tt.kind && f.Severity == tt.sev && f.Path == tt.path && strings.Contains(f.Message, tt.text)
		}
		if !found {
			t.Errorf("no %s %s on %s mentioning %q", tt.sev, tt.kind, tt.path, tt.text)
		}
	}
	// Memories in the index are not orphans; paths that exist are no drift.
	for _, f := range rep.Findings {
		if f.Kind == lint.Orphan && (f.Path == "user_role.md" || f.Path == "user_timezone.md") ||
			f.Kind == lint.Drift && strings.Contains(f.Message, "internal/pricing/basket.go") {
			t.Errorf("false finding: %+v", f)
		}
	}
	if rep.MemoryDir == "" || rep.Errors == 0 {
		t.Errorf("memoryDir %q, errors %d", rep.MemoryDir, rep.Errors)
	}

	out.Reset()
	run(e, []string{"lint", "--home", l.Home, "--project", l.Project("shop-api")})
	if !strings.Contains(out.String(), "MEMORY.md:15: error dangling-index-link:") || !strings.Contains(out.String(), " errors, ") {
		t.Errorf("text output:\n%s", out)
	}
}

// A project with healthy memory (or none) exits 0.
func TestLintCleanProject(t *testing.T) {
	e, out, errb := testEnv(t)
	l := sharedDemo(t)
	if code := run(e, []string{"lint", "--home", l.Home, "--project", l.Project("infra")}); code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, errb, out)
	}
	if !strings.Contains(out.String(), "no memory folder yet") || !strings.Contains(out.String(), "0 errors, 0 warnings, 0 notes") {
		t.Errorf("output:\n%s", out)
	}
}

// Lint says so when the client has auto memory off for the project.
func TestLintSaysMemoryIsOff(t *testing.T) {
	e, out, _ := testEnv(t)
	e.getenv = func(k string) string {
		if k == "CLAUDE_CODE_DISABLE_AUTO_MEMORY" {
			return "1"
		}
		return ""
	}
	l := sharedDemo(t)
	run(e, []string{"lint", "--home", l.Home, "--project", l.Project("notes-site")})
	if !strings.Contains(out.String(), "auto memory is off here (CLAUDE_CODE_DISABLE_AUTO_MEMORY=1)") {
		t.Errorf("output:\n%s", out)
	}
}

// With CLAUDE_CODE_DISABLE_CLAUDE_MDS=1 lint says MEMORY.md does not
// load, in text and JSON.
func TestLintSaysClaudeMdsAreOff(t *testing.T) {
	e, out, _ := testEnv(t)
	e.getenv = func(k string) string { return map[string]string{"CLAUDE_CODE_DISABLE_CLAUDE_MDS": "1"}[k] }
	run(e, []string{"lint", "--demo"})
	if !strings.Contains(out.String(), "MEMORY.md does not load (CLAUDE_CODE_DISABLE_CLAUDE_MDS=1") {
		t.Errorf("lint text:\n%s", out)
	}
	out.Reset()
	run(e, []string{"lint", "--demo", "--json"})
	if !strings.Contains(out.String(), `"notLoaded": "CLAUDE_CODE_DISABLE_CLAUDE_MDS=1`) {
		t.Errorf("lint --json:\n%.400s", out)
	}
}

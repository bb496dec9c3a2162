package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/memscope/memscope/demo"
	"github.com/memscope/memscope/engine/extract"
	"github.com/memscope/memscope/model"
)

// extractJSON is `extract --json` as a script reads it.
type extractJSON struct {
	Session, Path, Project, MemoryDir string
	MemoryEnabled                     bool
	Existing, Prompts                 int
	Skipped                           map[string]int
	Candidates                        []extract.Candidate
	Duplicates                        []extract.DuplicateCandidate
	Rejected                          []extract.Rejection
	Written                           []writtenMemory
	Failed                            []failedWrite
}

// runJSONAs runs memscope with args, checks the exit code and decodes
// what it printed as a T.
func runJSONAs[T any](t *testing.T, wantCode int, args ...string) T {
	t.Helper()
	e, out, errb := testEnv(t)
	if code := run(e, args); code != wantCode {
		t.Fatalf("%q: exit %d, want %d: %s", args, code, wantCode, errb)
	}
	var r T
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	return r
}

func runExtractJSON(t *testing.T, wantCode int, args ...string) extractJSON {
	t.Helper()
	return runJSONAs[extractJSON](t, wantCode, append([]string{"extract", "--json"}, args...)...)
}

func materializeDemo(t *testing.T) demo.Layout {
	t.Helper()
	l, err := demo.Materialize(t.TempDir(), time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// The demo's rewind session (demo/sessions.go): seven prompts on the main
// chains, one subagent prompt, one Read result. Three of the prompts hold
// five things worth remembering, written for the demo.
var demoRewindWant = []struct {
	typ   extract.CandidateType
	quote string
}{
	{extract.CandidateFeedback, "Yes, exactly, keep writing the failing test before the fix."},
	{extract.CandidateProject, "Remember that every payment webhook handler must be idempotent"},
	{extract.CandidateFeedback, "No, don't add a retry loop around the order insert"},
	{extract.CandidateReference, "The on-call runbook for webhook incidents is https://shop.atlassian.net/wiki/"},
	{extract.CandidateProject, "We decided to page the payments rotation"},
}

func TestExtractDemoRewindSession(t *testing.T) {
	t.Parallel()
	l := sharedDemo(t)
	r := runExtractJSON(t, 0, demo.SessionRewind, "--home", l.Home)
	memDir := filepath.Join(l.Home, "projects", model.Slug(l.Project("shop-api")), "memory")
	// 20 topic files: 19 in demo/_files/shop-api/memory (archive/ included)
	// and the incident notes Materialize writes.
	if r.Session != demo.SessionRewind || r.MemoryDir != memDir || r.Project != l.Project("shop-api") || !r.MemoryEnabled || r.Existing != 20 {
		t.Errorf("session %s memory %s project %s enabled %v existing %d", r.Session, r.MemoryDir, r.Project, r.MemoryEnabled, r.Existing)
	}
	// Three tool results: the Read of the first turn, and the Write and
	// Edit whose files the demo keeps in file history.
	if r.Prompts != 7 || r.Skipped["sidechain"] != 1 || r.Skipped["tool result"] != 3 || len(r.Skipped) != 2 {
		t.Errorf("prompts %d skipped %v", r.Prompts, r.Skipped)
	}
	if len(r.Candidates) != len(demoRewindWant) {
		t.Fatalf("%d candidates, want %d: %+v", len(r.Candidates), len(demoRewindWant), r.Candidates)
	}
	for i, w := range demoRewindWant {
		c := r.Candidates[i]
		if c.Type != w.typ || !strings.HasPrefix(c.Provenance.Quote, w.quote) || c.Provenance.SessionID != demo.SessionRewind || c.Provenance.MessageUUID == "" || c.Reason == "" {
			t.Errorf("candidate %d: %s %q (%s) from %+v", i, c.Type, c.Description, c.Reason, c.Provenance)
		}
	}
	if len(r.Written) != 0 || len(r.Failed) != 0 {
		t.Errorf("wrote without --write: %+v %+v", r.Written, r.Failed)
	}
	if _, err := os.Stat(filepath.Join(memDir, ".memscope")); err == nil {
		t.Error("a read-only extract created the journal folder")
	}
}

// --write saves each candidate as the client would read it, adds its
// index line and journals it; a second run finds them all as duplicates.
func TestExtractWriteDemo(t *testing.T) {
	t.Parallel()
	l := materializeDemo(t)
	r := runExtractJSON(t, 0, demo.SessionRewind, "--home", l.Home, "--write")
	if len(r.Written) != len(r.Candidates) || len(r.Failed) != 0 || len(r.Written) != len(demoRewindWant) {
		t.Fatalf("written %+v failed %+v", r.Written, r.Failed)
	}
	index, err := os.ReadFile(filepath.Join(r.MemoryDir, model.MemoryIndexName))
	if err != nil {
		t.Fatal(err)
	}
	for i, w := range r.Written {
		c := r.Candidates[i]
		f, prob := model.ReadMemoryFile(os.DirFS(r.MemoryDir), w.Path, w.Path)
		if prob != nil {
			t.Fatalf("%s: %s", w.Path, prob.Reason)
		}
		if f.Name != c.Name || f.Description != c.Description || string(f.Type) != string(c.Type) || f.OriginSessionID != demo.SessionRewind ||
			strings.TrimSpace(f.Body) != strings.TrimSpace(c.Body) || w.Change == "" {
			t.Errorf("%s reads back as %+v, want candidate %+v", w.Path, f, c)
		}
		// The backfill's line: the file's base name as the title, the
		// description cut with "…" to keep the line within 150 characters.
		head := "- [" + strings.TrimSuffix(w.Path, ".md") + "](" + w.Path + ") — "
		found := false
		for line := range strings.SplitSeq(string(index), "\n") {
			rest, ok := strings.CutPrefix(line, head)
			found = found || ok && (rest == c.Description || strings.HasSuffix(rest, "…") && strings.HasPrefix(c.Description, strings.TrimSuffix(rest, "…"))) && utf8.RuneCountInString(line) <= 150
		}
		if !found {
			t.Errorf("MEMORY.md has no index line for %s:\n%s", w.Path, index)
		}

	}
	journal, err := os.ReadFile(filepath.Join(r.MemoryDir, ".memscope", "journal.jsonl"))
	if err != nil || strings.Count(string(journal), `"op":"create"`) != len(r.Written) {
		t.Errorf("journal (err %v) has %d creates, want %d", err, strings.Count(string(journal), `"op":"create"`), len(r.Written))
	}

	again := runExtractJSON(t, 0, demo.SessionRewind, "--home", l.Home, "--write")
	if len(again.Candidates) != 0 || len(again.Written) != 0 || len(again.Duplicates) != len(r.Written) || again.Existing != r.Existing+len(r.Written) {
		t.Fatalf("second run: %d candidates, %d written, %d duplicates, %d existing", len(again.Candidates), len(again.Written), len(again.Duplicates), again.Existing)
	}
	for i, d := range again.Duplicates {
		if d.Matches != r.Candidates[i].Name {
			t.Errorf("duplicate %d matches %s, want %s", i, d.Matches, r.Candidates[i].Name)
		}
	}
}

// secretSession writes a session (outside any home) whose first request
// to remember holds a GitHub token.
func secretSession(t *testing.T, cwd string) string {
	t.Helper()
	token := "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
	prompts := []string{
		"Remember that the CI bot authenticates with " + token + " when it pushes tags.",
		"Remember that ledger exports are reconciled every Monday by the finance team.",
	}
	var b strings.Builder
	parent := "null"
	for i, p := range prompts {
		u := fmt.Sprintf("c0ffee0%d-1111-4222-8333-444455556666", i)
		cwdField := ""
		if cwd != "" {
			cwdField = fmt.Sprintf(`"cwd":%q,`, cwd)
		}
		fmt.Fprintf(&b, `{"parentUuid":%s,"isSidechain":false,%s"sessionId":"c0ffee00-1111-4222-8333-444455556666","version":"2.1.330","gitBranch":"main","type":"user","message":{"role":"user","content":%q},"uuid":%q,"timestamp":"2026-06-01T09:00:0%d.000Z"}`+"\n",
			parent, cwdField, p, u, i)
		parent = fmt.Sprintf("%q", u)
	}
	path := filepath.Join(t.TempDir(), "c0ffee00-1111-4222-8333-444455556666.jsonl")
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// A write the security scan blocks is reported and the others are
// written; the exit code says something failed. --force writes it.
func TestExtractWriteBlockedBySecretScan(t *testing.T) {
	home := t.TempDir()
	session := secretSession(t, "/srv/ledger")
	r := runExtractJSON(t, 1, session, "--home", home, "--write")
	if want := filepath.Join(home, "projects", "-srv-ledger", "memory"); r.MemoryDir != want || r.Existing != 0 {
		t.Errorf("memory %s (%d existing), want %s", r.MemoryDir, r.Existing, want)
	}
	if len(r.Candidates) != 2 || len(r.Written) != 1 || len(r.Failed) != 1 {
		t.Fatalf("candidates %d written %+v failed %+v", len(r.Candidates), r.Written, r.Failed)
	}
	f := r.Failed[0]
	if f.Name != r.Candidates[0].Name || !f.Blocked || len(f.Findings) == 0 || f.Findings[0].Rule != "github-pat" {
		t.Errorf("failed %+v", f)
	}
	for _, fd := range f.Findings {
		if strings.Contains(fd.Excerpt, "A1b2C3d4E5f6G7h8") {
			t.Errorf("finding shows the secret: %+v", fd)
		}
	}
	if r.Written[0].Name != r.Candidates[1].Name {
		t.Errorf("written %+v, want the second candidate", r.Written[0])
	}
	entries, _ := os.ReadDir(r.MemoryDir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if slices.ContainsFunc(names, func(n string) bool { return strings.Contains(n, "ci_bot") }) {
		t.Errorf("the blocked memory is on disk: %q", names)
	}

	forced := runExtractJSON(t, 0, session, "--home", home, "--write", "--force")
	if len(forced.Written) != 1 || forced.Written[0].Name != f.Name || len(forced.Written[0].Findings) == 0 || len(forced.Duplicates) != 1 {
		t.Errorf("forced: written %+v duplicates %d", forced.Written, len(forced.Duplicates))
	}
}

func TestExtractText(t *testing.T) {
	t.Parallel()
	l := sharedDemo(t)
	e, out, errb := testEnv(t)
	if code := run(e, []string{"extract", demo.SessionRewind, "--home", l.Home}); code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	for _, want := range []string{
		"session   " + demo.SessionRewind,
		"memory    " + filepath.Join(l.Home, "projects", model.Slug(l.Project("shop-api")), "memory") + ", 20 memories",
		"read      7 user prompts (skipped: sidechain 1, tool result 3)",
		"5 candidates",
		"why          explicit request to remember",
		`quote        "No, don't add a retry loop around the order insert`,
		"     **Why:** The provider already retries with backoff and our own retries made the storm worse.",
		"nothing written; --write saves the candidates into ",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}

	home := t.TempDir()
	e, out, _ = testEnv(t)
	if code := run(e, []string{"extract", secretSession(t, "/srv/ledger"), "--home", home, "--write"}); code != 1 {
		t.Fatalf("exit %d, want 1", code)
	}
	for _, want := range []string{"written   project_ledger_exports_reconciled_every_monday.md", "BLOCKED   project-ci-bot-authenticates-ghp: the security scan found",
		"high github-pat", "1 blocked by the security scan; --force writes them anyway", "memscope undo --project /srv/ledger"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestExtractErrors(t *testing.T) {
	home := t.TempDir()
	noCwd := secretSession(t, "")
	cases := []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"extract"}, 2, "usage"},
		{[]string{"extract", "a", "b"}, 2, "usage"},
		{[]string{"extract", noCwd, "--force"}, 2, "usage"},
		{[]string{"extract", "no-such-session", "--home", home}, 2, `no session "no-such-session"`},
		{[]string{"extract", noCwd, "--home", home}, 1, "names no startup folder (cwd); pass --project"},
	}
	for _, c := range cases {
		e, _, errb := testEnv(t)
		if code := run(e, c.args); code != c.code || !strings.Contains(errb.String(), c.msg) {
			t.Errorf("%q: exit %d, stderr %q; want %d and %q", c.args, code, errb, c.code, c.msg)
		}
	}
	// --project names the folder when the session does not.
	r := runExtractJSON(t, 0, noCwd, "--home", home, "--project", "/srv/other")
	if r.MemoryDir != filepath.Join(home, "projects", "-srv-other", "memory") || r.Project != "/srv/other" || len(r.Candidates) != 2 {
		t.Errorf("with --project: %+v", r)
	}
}

// With auto memory off (the user's settings.json), extract still proposes
// and says the client would not read what it writes.
func TestExtractMemoryOff(t *testing.T) {
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "settings.json"), []byte(`{"autoMemoryEnabled": false}`), 0o600); err != nil {
		t.Fatal(err)
	}
	session := secretSession(t, "/srv/ledger")
	r := runExtractJSON(t, 0, session, "--home", home)
	if r.MemoryEnabled || len(r.Candidates) != 2 {
		t.Errorf("enabled %v, %d candidates", r.MemoryEnabled, len(r.Candidates))
	}
	e, out, _ := testEnv(t)
	run(e, []string{"extract", session, "--home", home})
	if !strings.Contains(out.String(), "auto memory is off for this project") {
		t.Errorf("no note that memory is off:\n%s", out)
	}
}

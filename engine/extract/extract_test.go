package extract

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// monday is the message time of most cases: Monday 2026-11-23, 10:00 UTC.
var monday = time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)

func extractOne(t *testing.T, text string, existing ...ExistingMemory) Result {
	t.Helper()
	res, err := RuleExtractor{}.Extract(context.Background(),
		[]Input{{SessionID: "sess-1", UUID: "msg-1", Timestamp: monday, Text: text}}, existing)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestRuleExtractorProposes(t *testing.T) {
	tests := []struct {
		name   string
		text   string
		typ    CandidateType
		slug   string
		desc   string
		reason string
		body   []string // each must appear in the body
		quote  string
	}{
		{
			name: "correction with reason in the next sentence",
			text: "No, don't mock the database in integration tests. Last time a mock hid a broken migration and we had to roll back.",
			typ:  CandidateFeedback, slug: "feedback-no-mock-database-integration-tests",
			desc: "Don't mock the database in integration tests", reason: "correction",
			body:  []string{"Don't mock the database in integration tests.\n\n**Why:** Last time a mock hid a broken migration and we had to roll back.\n**How to apply:** "},
			quote: "No, don't mock the database in integration tests.",
		},
		{
			name: "stop with a reason clause",
			text: "please stop adding a comment to every line, it makes the diffs noisy",
			typ:  CandidateFeedback, slug: "feedback-stop-adding-comment-every-line",
			desc: "Stop adding a comment to every line", reason: "correction",
			body:  []string{"**Why:** It makes the diffs noisy.\n"},
			quote: "please stop adding a comment to every line, it makes the diffs noisy",
		},
		{
			name: "never with a dash reason",
			text: "Never force-push to main - other people build on it",
			typ:  CandidateFeedback, slug: "feedback-no-force-push-main",
			desc: "Never force-push to main", reason: "correction",
			body: []string{"**Why:** Other people build on it.\n", "**How to apply:** "},
		},
		{
			name: "use X instead of Y",
			text: "Use pnpm instead of npm",
			typ:  CandidateFeedback, slug: "feedback-use-pnpm-instead-npm",
			desc: "Use pnpm instead of npm", reason: "correction with the right way",
			body: []string{"**Why:** The user asked for this on 2026-11-23 and gave no reason", "**How to apply:** Reach for this first"},
		},
		{
			name: "no, use X",
			text: "nope, use the retry helper from the http package",
			typ:  CandidateFeedback, slug: "feedback-use-retry-helper-http-package",
			desc: "Use the retry helper from the http package", reason: "correction with the right way",
		},
		{
			name: "confirmed approach",
			text: "Yes exactly, keep using table-driven tests for the parsers",
			typ:  CandidateFeedback, slug: "feedback-keep-using-table-driven-tests",
			desc: "Keep using table-driven tests for the parsers", reason: "confirmed approach",
			body: []string{"**How to apply:** Keep doing this in similar work"},
		},
		{
			name: "polite question is a correction",
			text: "Could you stop rewriting my commit messages?",
			typ:  CandidateFeedback, slug: "feedback-stop-rewriting-commit-messages",
			desc: "Stop rewriting the user's commit messages", reason: "correction",
		},
		{
			name: "remember to is feedback",
			text: "Remember to run make generate before committing proto changes",
			typ:  CandidateFeedback, slug: "feedback-run-make-generate-before-committing",
			desc: "Run make generate before committing proto changes", reason: "explicit request to remember",
		},
		{
			name: "remember that refers to the sentence before",
			text: "We only deploy the billing service on Tuesdays. Remember that.",
			typ:  CandidateProject, slug: "project-only-deploy-billing-service-tuesdays",
			desc: "We only deploy the billing service on Tuesdays", reason: "explicit request to remember",
			quote: "We only deploy the billing service on Tuesdays. Remember that.",
		},
		{
			name: "remember a fact",
			text: "remember that the staging database is reset every night at 02:00 UTC",
			typ:  CandidateProject, slug: "project-staging-database-reset-every-night",
			desc: "The staging database is reset every night at 02:00 UTC", reason: "explicit request to remember",
			body: []string{"**Why:** Stated by the user on 2026-11-23.\n"},
		},
		{
			name: "from now on",
			text: "From now on, write commit messages in the imperative mood.",
			typ:  CandidateFeedback, slug: "feedback-write-commit-messages-imperative-mood",
			desc: "Write commit messages in the imperative mood", reason: "standing instruction",
		},
		{
			name: "role",
			text: "I'm a backend engineer and new to the React side of this codebase",
			typ:  CandidateUser, slug: "user-backend-engineer-new-react-side",
			desc: "User is a backend engineer and new to the React side of this codebase", reason: "user's role",
			body: []string{"User is a backend engineer and new to the React side of this codebase.\n"},
		},
		{
			name: "role with first person rewritten",
			text: "I'm the tech lead for the payments team and I review every schema change myself.",
			typ:  CandidateUser, slug: "user-tech-lead-payments-team-review",
			desc: "User is the tech lead for the payments team and they review every schema change themselves", reason: "user's role",
		},
		{
			name: "experience",
			text: "btw I've been writing Go for ten years but I'm new to Kubernetes",
			typ:  CandidateUser, slug: "user-writing-go-ten-years-new",
			desc: "User has been writing Go for ten years but they're new to Kubernetes", reason: "user's role",
		},
		{
			name: "preference",
			text: "I prefer short answers with the diff, not whole files",
			typ:  CandidateUser, slug: "user-prefers-short-answers-diff-no",
			desc: "User prefers short answers with the diff, not whole files", reason: "user's preference",
		},
		{
			name: "decision with weekday",
			text: "We decided to freeze merges on Thursday so the release branch can be cut",
			typ:  CandidateProject, slug: "project-decided-freeze-merges-thursday-2026",
			desc: "We decided to freeze merges on Thursday 2026-11-26 so the release branch can be cut", reason: "decision",
			body: []string{"**How to apply:** Take it into account when planning or suggesting work; after 2026-11-26 it may no longer hold.\n"},
		},
		{
			name: "deadlines made absolute",
			text: "The mobile release ships by Friday, and the API must be frozen by end of next week.",
			typ:  CandidateProject, slug: "project-mobile-release-ships-friday-2026",
			desc: "The mobile release ships by Friday 2026-11-27, and the API must be frozen by 2026-12-04", reason: "deadline",
			body: []string{"after 2026-12-04 it may no longer hold"},
		},
		{
			name: "Linear project link",
			text: "Pipeline bugs are tracked in the Linear project INGEST: https://linear.app/acme/project/ingest-42",
			typ:  CandidateReference, slug: "reference-linear-pipeline-bugs-tracked-linear",
			desc: "Linear: Pipeline bugs are tracked in the Linear project INGEST", reason: "tracker or dashboard link",
			body: []string{"\n\nLink: https://linear.app/acme/project/ingest-42\n"},
		},
		{
			name: "Grafana board",
			text: "the p99 latency board the on-call watches is https://grafana.acme.dev/d/abc123/api-latency",
			typ:  CandidateReference, slug: "reference-grafana-p99-latency-board-call",
			desc: "Grafana: The p99 latency board the on-call watches", reason: "tracker or dashboard link",
		},
		{
			name: "GitHub issues and Slack",
			text: "Flaky tests go in https://github.com/acme/api/issues with the flaky label.",
			typ:  CandidateReference, slug: "reference-github-issues-flaky-tests-go",
			desc: "GitHub issues: Flaky tests go in with the flaky label", reason: "tracker or dashboard link",
		},
		{
			name: "Jira board behind a remember request",
			text: "Please remember: release blockers live on https://acme.atlassian.net/jira/software/projects/REL/boards/7 and nowhere else.",
			typ:  CandidateReference, slug: "reference-jira-release-blockers-live-nowhere",
			desc: "Jira: Release blockers live on and nowhere else", reason: "explicit request to remember",
		},
		{
			name: "curly apostrophe",
			text: "Don\u2019t run the full e2e suite for docs-only changes",
			typ:  CandidateFeedback, slug: "feedback-no-run-full-e2e-suite",
			desc: "Don't run the full e2e suite for docs-only changes", reason: "correction",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := extractOne(t, tc.text)
			if len(res.Candidates) != 1 {
				t.Fatalf("want one candidate, got %+v (rejected %+v)", res.Candidates, res.Rejected)
			}
			c := res.Candidates[0]
			if c.Type != tc.typ || c.Name != tc.slug || c.Description != tc.desc || c.Reason != tc.reason {
				t.Errorf("got\n  %s %q %q (%s)\nwant\n  %s %q %q (%s)", c.Type, c.Name, c.Description, c.Reason, tc.typ, tc.slug, tc.desc, tc.reason)
			}
			for _, part := range tc.body {
				if !strings.Contains(c.Body, part) {
					t.Errorf("body %q lacks %q", c.Body, part)
				}
			}
			if (c.Type == CandidateFeedback || c.Type == CandidateProject) &&
				(!strings.Contains(c.Body, "\n**Why:** ") || !strings.Contains(c.Body, "\n**How to apply:** ")) {
				t.Errorf("%s body lacks Why/How lines: %q", c.Type, c.Body)
			}
			want := Provenance{SessionID: "sess-1", MessageUUID: "msg-1", Quote: tc.quote}
			if tc.quote == "" {
				want.Quote = c.Provenance.Quote
			}
			if c.Provenance != want || !strings.Contains(tc.text, c.Provenance.Quote) && tc.quote == "" {
				t.Errorf("provenance %+v, want %+v", c.Provenance, want)
			}
		})
	}
}

func TestRuleExtractorRejects(t *testing.T) {
	tests := []struct {
		name   string
		text   string
		reason string // "" means no rejection either: nothing was picked up
	}{
		{"in-progress instruction", "don't touch the migration yet, I'm still looking at it", "in-progress task state"},
		{"task scoped", "Don't change this file, just fix the bug", "in-progress task state"},
		{"for now", "For now, never run the seed script", "in-progress task state"},
		{"file path list", "don't commit the files in cmd/tool/main.go and internal/x/y.go", "list of file paths"},
		{"git history", "Remember that the retry logic was merged in PR #412", "derivable from git history"},
		{"commit sha", "remember we reverted 3f9a2b1c because of the outage", "derivable from git history"},
		{"debugging recipe", "Remember: the fix was to bump the client timeout to 30s", "debugging recipe"},
		{"derivable from code", "note that the function parseConfig returns nil when the file is missing", "derivable from the code"},
		{"code", "remember: if err != nil { return fmt.Errorf(\"load: %w\", err) }", "code, not prose"},
		{"vague correction", "Don't do that again", "too vague to act on"},
		{"vague confirmation", "yes, keep doing that", "confirmation does not say which approach"},
		{"remember without content", "Remember this.", "remember request without content"},
		{"bare link", "https://linear.app/acme/issue/ENG-123", "link without context"},
		{"pull request link", "the change is in https://github.com/acme/api/pull/77 if you want to look", "pull request or commit link (git history)"},
		{"transient state of mind", "I'm a bit confused by this error", ""},
		{"question", "Can you check why the tests fail?", ""},
		{"task request", "let's rename the handler next", ""},
		{"plain statement", "The tests pass on my machine.", ""},
		{"reported speech", "My manager said don't use mocks, what do you think?", ""},
		{"negated role", "I'm not a frontend person", ""},
		{"non-tracker link", "the docs at https://go.dev/doc/effective_go are a good read", ""},
		{"going to", "I'm going to refactor the parser after lunch", ""},
		{"only a wrapper", "<command-name>/compact</command-name>\n<command-message>compact</command-message>\n<command-args>don't lose the notes</command-args>", ""},
		{"system reminder", "<system-reminder>Never use tabs. Always run gofmt.</system-reminder>thanks, looks good", ""},
		{"pasted content", "summarize this <pasted_content id=\"a1b2\">Don't ever deploy on Fridays, the on-call is thin.</pasted_content id=\"a1b2\"> please", ""},
		{"unterminated paste", "look: <pasted_content id=\"x\">We decided to drop MySQL by Friday", ""},
		{"code block", "what does this do?\n```go\n// never call this from a handler\nfunc init() {}\n```", ""},
		{"stack trace", "panic: runtime error: index out of range\n\ngoroutine 1 [running]:\nmain.main()\n\t/app/main.go:12 +0x1d", ""},
		{"compact summary", "This session is being continued from a previous conversation that ran out of context. Remember that the user prefers tabs.", ""},
		{"quoted assistant text", "> Never use the legacy client\nwhy did you say that?", ""},
		{"placeholder only", "[Pasted text #1 +39 lines] [Image #2]", ""},
		{"interrupted", "[Request interrupted by user for tool use]", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := extractOne(t, tc.text)
			if len(res.Candidates) != 0 {
				t.Fatalf("want no candidate, got %+v", res.Candidates)
			}
			switch {
			case tc.reason == "" && len(res.Rejected) != 0:
				t.Errorf("want nothing picked up, got rejections %+v", res.Rejected)
			case tc.reason != "" && (len(res.Rejected) != 1 || res.Rejected[0].Reason != tc.reason):
				t.Errorf("want one rejection %q, got %+v", tc.reason, res.Rejected)
			case tc.reason != "" && res.Rejected[0].Provenance.MessageUUID != "msg-1":
				t.Errorf("rejection provenance %+v", res.Rejected[0].Provenance)
			}
		})
	}
}

func TestRuleExtractorDuplicates(t *testing.T) {
	existing := []ExistingMemory{
		{Name: "feedback_no_mock_db", Type: CandidateFeedback, Description: "Integration tests hit a real database, never a mock",
			Body: "Do not mock the database in integration tests.\n\n**Why:** a mock hid a broken migration.\n**How to apply:** use the fixtures loader.\n"},
		{Name: "user-role", Type: CandidateUser, Description: "User is a backend engineer, new to React", Body: "Backend engineer; new to the React side."},
		{Name: "reference_grafana", Type: CandidateReference, Description: "p99 latency dashboard the on-call watches",
			Body: "https://grafana.acme.dev/d/abc123/api-latency"},
	}
	tests := []struct {
		name    string
		text    string
		matches string // "" means the candidate is new
	}{
		{"same rule reworded", "don't mock the database in the integration tests", "feedback_no_mock_db"},
		{"same role", "I'm a backend engineer, new to React", "user-role"},
		{"same dashboard", "the on-call watches the p99 latency dashboard at https://grafana.acme.dev/d/abc123/api-latency", "reference_grafana"},
		{"opposite rule is not a repeat", "Always mock the database in integration tests", ""},
		{"unrelated rule", "Never force-push to main", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := extractOne(t, tc.text, existing...)
			if tc.matches == "" {
				if len(res.Candidates) != 1 || len(res.Duplicates) != 0 {
					t.Fatalf("want a new candidate, got %+v / duplicates %+v", res.Candidates, res.Duplicates)
				}
				return
			}
			if len(res.Candidates) != 0 || len(res.Duplicates) != 1 {
				t.Fatalf("want one duplicate, got %+v / duplicates %+v", res.Candidates, res.Duplicates)
			}
			d := res.Duplicates[0]
			if d.Matches != tc.matches || d.Similarity < DefaultDuplicateThreshold || d.Similarity > 1 {
				t.Errorf("duplicate of %q at %.2f, want %q at or above %.2f", d.Matches, d.Similarity, tc.matches, DefaultDuplicateThreshold)
			}
		})
	}
}

func TestRuleExtractorAcrossMessages(t *testing.T) {
	msgs := []Input{
		{SessionID: "s", UUID: "u1", Timestamp: monday, Text: "Don't use the ORM for reporting queries, it hides the N+1 problems."},
		{SessionID: "s", UUID: "u2", Timestamp: monday.Add(time.Hour), Text: "Again: don't use the ORM for the reporting queries!"},
		{SessionID: "s", UUID: "u3", Timestamp: monday.Add(2 * time.Hour), Text: "I'm a data engineer. I prefer SQL over ORMs."},
	}
	existing := []ExistingMemory{{Name: "user-data-engineer", Description: "something unrelated about coffee", Body: "Coffee."}}
	res, err := RuleExtractor{}.Extract(context.Background(), msgs, existing)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range res.Candidates {
		got = append(got, c.Name+"@"+c.Provenance.MessageUUID)
	}
	want := []string{
		"feedback-no-use-orm-reporting-queries@u1",
		"user-data-engineer-2@u3",
		"user-prefers-sql-over-orms@u3",
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("candidates %v, want %v", got, want)
	}
	if len(res.Duplicates) != 1 || res.Duplicates[0].Matches != "feedback-no-use-orm-reporting-queries" || res.Duplicates[0].Candidate.Provenance.MessageUUID != "u2" {
		t.Errorf("duplicates %+v, want the second message matching the first", res.Duplicates)
	}
}

func TestRuleExtractorCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := RuleExtractor{}.Extract(ctx, []Input{{Text: "Never force-push to main"}}, nil)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}

func TestRuleExtractorLongAndOddInput(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("word ", 2<<20) + "\n" + "Never force-push to main because the release tooling builds from it." + "\n" + strings.Repeat("x", 10<<20)
	res := extractOne(t, long+"\xff\xfe\r\n\ufeff")
	if len(res.Candidates) != 1 || res.Candidates[0].Name != "feedback-no-force-push-main" {
		t.Fatalf("candidates %+v", res.Candidates)
	}
	if got := res.Candidates[0].Body; !strings.Contains(got, "**Why:** The release tooling builds from it.") {
		t.Errorf("body %q", got)
	}
	res = extractOne(t, "Never "+strings.Repeat("use the long tool ", 60))
	if len(res.Candidates) != 0 {
		t.Errorf("a sentence over %d bytes is data, not a fact: %+v", exMaxSentence, res.Candidates)
	}
	res = extractOne(t, "Never "+strings.Repeat("use the long tool ", 45))
	if len(res.Candidates) != 1 || len(res.Candidates[0].Provenance.Quote) > exQuoteMax+len("…") || len(res.Candidates[0].Description) > exDescriptionMax+len("…") || len(res.Candidates[0].Name) > len("feedback-")+exNameMax {
		t.Errorf("long sentence not bounded: %+v", res.Candidates)
	}
}

package extract

import (
	"net/url"
	"strings"

	"github.com/memscope/memscope/engine/scan"
)

// Exclusion reasons, reported in Rejection.Reason.
const (
	exWhyGit        = "derivable from git history"
	exWhyDebugging  = "debugging recipe"
	exWhyCode       = "derivable from the code"
	exWhyInProgress = "in-progress task state"
	exWhyCodeText   = "code, not prose"
	exWhyPaths      = "list of file paths"
	exWhyVague      = "too vague to act on"
	exWhyNoContext  = "link without context"
	exWhyGitLink    = "pull request or commit link (git history)"
)

var (
	exGitHistory = scan.NewLazyRegexp(`(?i)\bgit\s+(?:log|blame|show|history)\b|\b(?:PR|pull request|MR|merge request)\s*#?\d+|\b(?:was|were|got|been|is|are)\s+(?:merged|reverted|committed|cherry-picked|pushed|rebased)\b|\b(?:last|previous|latest|recent|earlier)\s+commits?\b|\bcommit\s+[0-9a-f]{7,40}\b`)
	exSHA        = scan.NewLazyRegexp(`\b[0-9a-f]{7,40}\b`)
	exDebugging  = scan.NewLazyRegexp(`(?i)\b(?:the (?:fix|bug|issue|problem|error|crash|failure) (?:was|is)|fixed (?:it|this|that|the \w+) by|root cause|to fix (?:this|it|that)|work-?around (?:is|was)|the trick (?:is|was)|stack ?trace|traceback|segfault|was caused by|turned out to be|to debug|when debugging|repro(?:duce)? (?:it|this|the bug)|the test fails)\b`)
	exFromCode   = scan.NewLazyRegexp(`(?i)\b(?:is|are)\s+(?:defined|declared|implemented|located|exported)\s+in\b|\bthe (?:function|method|class|struct|module|package|variable|constant|endpoint|handler|interface|type)\s+\S+\s+(?:is|does|returns|calls|takes|lives|handles|expects)\b|\b(?:this|the|our) (?:repo|codebase|project|code)\s+(?:uses|is written in|is built with|has a|depends on)\b`)
	// exInProgress marks state of the task at hand; exInProgressStrong is
	// the part that also rules out a user memory ("I'm going to …").
	exInProgress       = scan.NewLazyRegexp(`(?i)\b(?:right now|for now|at the moment|for this (?:task|pr|ticket|change|branch|one)|in this (?:pr|branch|commit|file|function)|this (?:time|file|function|test|bug|change|one|line|method)|these (?:files|tests|changes|lines)|that one|just yet|yet|next step|todo|wip|then|after that|let's|let me|i'll|i will|we'll|in here|over here|just (?:fix|do|make|change|update|add|remove|revert)|currently|today|tonight|tomorrow|this morning|this afternoon)\b`)
	exInProgressStrong = scan.NewLazyRegexp(`(?i)\b(?:i'm|i am)\s+(?:going to|about to|trying to|working on|looking at|debugging|confused|stuck|not sure|a bit|a little)\b|\b(?:right now|for now|at the moment|this time|just yet)\b`)
	exPathToken        = scan.NewLazyRegexp(`(?:^|\s)(?:\.{0,2}/)?[\w.-]+(?:/[\w.-]+)+/?|\b[\w-]+\.(?:go|py|ts|tsx|js|jsx|rs|java|kt|rb|php|c|h|cc|cpp|hpp|cs|swift|md|json|ya?ml|toml|ini|sh|sql|proto|lock)\b`)
	exCodeChars        = scan.NewLazyRegexp(`[{}();=<>\[\]|&$\\]`)
	exCodeTokens       = scan.NewLazyRegexp(`:=|=>|->|::|\(\)|\);|&&|\|\||==|!=`)
	exURL              = scan.NewLazyRegexp(`(?i)https?://[^\s<>()\[\]"'` + "`" + `]+`)
)

// exExclusion applies Claude Code's "what not to save" list to a match and
// returns the reason it is excluded, or "".
func exExclusion(m *exMatch) string {
	if m.reject != "" {
		return m.reject
	}
	s := m.statement
	text := exURL.ReplaceAllString(s, " ")
	switch {
	case exCodeTokens.MatchString(text) || len(exCodeChars.FindAllStringIndex(text, -1))*12 > len(text):
		return exWhyCodeText
	case len(exPathToken.FindAllStringIndex(text, -1)) >= 2:
		return exWhyPaths
	case exGitHistory.MatchString(s) || exHasSHA(text):
		return exWhyGit
	case exDebugging.MatchString(s):
		return exWhyDebugging
	case exFromCode.MatchString(s):
		return exWhyCode
	}
	switch m.typ {
	case CandidateUser:
		if exInProgressStrong.MatchString(m.quote + " " + s) {
			return exWhyInProgress
		}
		if len(exContentTokens(s)) < 2 {
			return exWhyVague
		}
	case CandidateProject:
		// Dates are what a project memory is about; only task-state words
		// other than days rule it out.
		if exInProgressStrong.MatchString(s) || exInProgress.MatchString(exDateWords.ReplaceAllString(s, " ")) {
			return exWhyInProgress
		}
		if len(exContentTokens(s)) < 3 {
			return exWhyVague
		}
	case CandidateReference:
		if len(exContentTokens(text)) < 3 {
			return exWhyNoContext
		}
	default:
		// The quote counts too: "for now, never …" keeps "for now" out of
		// the rule but it still scopes it.
		if exInProgress.MatchString(m.quote+" "+s) || exInProgressStrong.MatchString(m.quote+" "+s) {
			return exWhyInProgress
		}
		if len(exContentTokens(s)) < 3 {
			return exWhyVague
		}
	}
	return ""
}

// exHasSHA reports a hex word of 7 to 40 characters with both a digit and
// a letter: a commit id.
func exHasSHA(s string) bool {
	for _, w := range exSHA.FindAllString(s, -1) {
		if strings.ContainsAny(w, "0123456789") && strings.ContainsAny(w, "abcdef") {
			return true
		}
	}
	return false
}

// exTracker names the external system a link points at, or "" when it is
// not a tracker or dashboard. gitLink is true for pull requests and
// commits, which are git history.
func exTracker(raw string) (system string, gitLink bool) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", false
	}
	host := strings.ToLower(u.Hostname())
	path := strings.ToLower(u.Path)
	has := func(suffix string) bool { return host == suffix || strings.HasSuffix(host, "."+suffix) }
	switch {
	case has("linear.app"):
		return "Linear", false
	case has("atlassian.net") && strings.HasPrefix(path, "/wiki"):
		return "Confluence", false
	case has("atlassian.net") || strings.HasPrefix(host, "jira."):
		return "Jira", false
	case strings.Contains(host, "grafana"):
		return "Grafana", false
	case has("slack.com") && !has("hooks.slack.com"):
		return "Slack", false
	case has("github.com") || has("gitlab.com"):
		switch {
		case strings.Contains(path, "/pull/") || strings.Contains(path, "/commit/") || strings.Contains(path, "/merge_requests/") || strings.Contains(path, "/compare/"):
			return "", true
		case strings.Contains(path, "/issues") || strings.Contains(path, "/projects") || strings.Contains(path, "/milestone"):
			if has("gitlab.com") {
				return "GitLab issues", false
			}
			return "GitHub issues", false
		}
	case has("sentry.io"):
		return "Sentry", false
	case has("datadoghq.com") || has("datadoghq.eu"):
		return "Datadog", false
	case has("pagerduty.com"):
		return "PagerDuty", false
	case has("notion.so") || has("notion.site"):
		return "Notion", false
	case has("honeycomb.io"):
		return "Honeycomb", false
	case strings.Contains(host, "kibana") || strings.Contains(path, "/app/kibana"):
		return "Kibana", false
	case strings.Contains(path, "dashboard") || strings.Contains(host, "dashboard"):
		return "Dashboard", false
	}
	return "", false
}

// exReference picks up a sentence with a tracker or dashboard link.
func exReference(core string) (exMatch, bool) {
	for _, raw := range exURL.FindAllString(core, -1) {
		raw = strings.TrimRight(raw, ".,;:!?")
		system, gitLink := exTracker(raw)
		if gitLink {
			return exMatch{typ: CandidateReference, reason: exRuleReference, statement: core, url: raw, reject: exWhyGitLink}, true
		}
		if system != "" {
			return exMatch{typ: CandidateReference, reason: exRuleReference, statement: exCapitalize(exThirdPersonFeedback(core)), url: raw, system: system}, true
		}
	}
	return exMatch{}, false
}

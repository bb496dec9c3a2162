package scan

import (
	"encoding/base64"
	"encoding/json"
	"strings"
)

// tokenRule is a secret rule for a token with a recognisable prefix.
func tokenRule(id RuleID, message string, keywords []string, pattern string) scanRule {
	return scanRule{
		id:           id,
		category:     CategorySecret,
		severity:     SeverityHigh,
		message:      message,
		keywords:     keywords,
		re:           NewLazyRegexp(pattern),
		minEntropy:   3,
		placeholders: true,
		accept:       endsAtTokenBoundary,
	}
}

// secretRules is a gitleaks-style rule set: the patterns and names follow
// gitleaks' default config where it has the rule.
func secretRules() []scanRule {
	return []scanRule{
		tokenRule("aws-access-key-id", "AWS access key ID",
			[]string{"akia", "asia", "abia", "acca", "a3t"},
			`\b(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}\b`),
		tokenRule("github-pat", "GitHub personal access token",
			[]string{"ghp_"}, `\bghp_[0-9A-Za-z]{36}\b`),
		tokenRule("github-oauth", "GitHub OAuth access token",
			[]string{"gho_"}, `\bgho_[0-9A-Za-z]{36}\b`),
		tokenRule("github-app-token", "GitHub app token",
			[]string{"ghu_", "ghs_"}, `\bgh[us]_[0-9A-Za-z]{36}\b`),
		tokenRule("github-refresh-token", "GitHub refresh token",
			[]string{"ghr_"}, `\bghr_[0-9A-Za-z]{36}\b`),
		tokenRule("github-fine-grained-pat", "GitHub fine-grained personal access token",
			[]string{"github_pat_"}, `\bgithub_pat_[0-9A-Za-z_]{82}\b`),
		tokenRule("anthropic-api-key", "Anthropic API key",
			[]string{"sk-ant-api03-"}, `\bsk-ant-api03-[A-Za-z0-9_\-]{93}AA\b`),
		tokenRule("anthropic-admin-api-key", "Anthropic admin API key",
			[]string{"sk-ant-admin01-"}, `\bsk-ant-admin01-[A-Za-z0-9_\-]{93}AA\b`),
		tokenRule("openai-api-key", "OpenAI API key",
			[]string{"t3blbkfj"}, `\bsk-(?:(?:proj|svcacct|admin)-)?[A-Za-z0-9_\-]{20,}T3BlbkFJ[A-Za-z0-9_\-]{20,}`),
		// Newer OpenAI project keys need not contain the T3BlbkFJ marker;
		// their length alone sets them apart from prose.
		tokenRule("openai-project-key", "OpenAI project API key",
			[]string{"sk-proj-", "sk-svcacct-", "sk-admin-"}, `\bsk-(?:proj|svcacct|admin)-[A-Za-z0-9_\-]{80,}`),
		tokenRule("gcp-api-key", "Google Cloud API key",
			[]string{"aiza"}, `\bAIza[0-9A-Za-z_\-]{35}`),
		{
			id:       "gcp-service-account-key",
			category: CategorySecret,
			severity: SeverityHigh,
			message:  "Google Cloud service account private key",
			keywords: []string{"private_key"},
			whole:    true,
			re:       NewLazyRegexp(`"private_key"\s*:\s*"(-----BEGIN[A-Z ]*PRIVATE KEY-----[A-Za-z0-9+/=\\]{64,})`),
			group:    1,
		},
		tokenRule("gitlab-pat", "GitLab personal access token",
			[]string{"glpat-"}, `\bglpat-[0-9A-Za-z_\-]{20,}`),
		tokenRule("slack-token", "Slack token",
			[]string{"xox"}, `\bxox[baprse]-[0-9]{6,}-[0-9A-Za-z\-]{10,}`),
		tokenRule("slack-app-token", "Slack app-level token",
			[]string{"xapp-"}, `\bxapp-\d-[A-Z0-9]{8,}-\d{6,}-[a-z0-9]{20,}`),
		tokenRule("slack-webhook-url", "Slack incoming webhook URL",
			[]string{"hooks.slack.com"}, `(?:https?://)?hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9+/]{43,56}`),
		tokenRule("stripe-secret-key", "Stripe live secret key",
			[]string{"sk_live_", "rk_live_", "sk_prod_", "rk_prod_"}, `\b[rs]k_(?:live|prod)_[0-9A-Za-z]{10,99}\b`),
		tokenRule("npm-access-token", "npm access token",
			[]string{"npm_"}, `\bnpm_[A-Za-z0-9]{36}\b`),
		tokenRule("pypi-upload-token", "PyPI upload token",
			[]string{"pypi-ageichlwas5vcmc"}, `pypi-AgEIcHlwaS5vcmc[A-Za-z0-9\-_]{50,}`),
		{
			id:       "private-key",
			category: CategorySecret,
			severity: SeverityHigh,
			message:  "private key block",
			keywords: []string{"private key"},
			whole:    true,
			re:       NewLazyRegexp(`-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----([\s\S]{64,}?)-----END[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----`),
			accept:   privateKeyHasBody,
		},
		{
			id:       "jwt",
			category: CategorySecret,
			severity: SeverityHigh,
			message:  "JSON Web Token",
			keywords: []string{"eyj"},
			re:       NewLazyRegexp(`\beyJ[A-Za-z0-9_-]{9,}\.ey[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]*`),
			accept:   jwtHeaderHasAlg,
		},
	}
}

// endsAtTokenBoundary rejects a match that stops in the middle of a longer
// token (some patterns end in characters \b cannot see past, like "-").
func endsAtTokenBoundary(text string, loc []int) bool {
	end := loc[1]
	if end >= len(text) {
		return true
	}
	c := text[end]
	return !(c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c == '_' || c == '-')
}

var base64Run = NewLazyRegexp(`[A-Za-z0-9+/=]{40,}`)

// privateKeyHasBody accepts a key block with real key material, not a
// documentation placeholder such as "...".
func privateKeyHasBody(text string, loc []int) bool {
	return base64Run.MatchString(text[loc[2]:loc[3]])
}

// jwtHeaderHasAlg accepts a three-part token whose header decodes to a JSON
// object with "alg", which is what makes it a JWT and not any dotted name.
func jwtHeaderHasAlg(text string, loc []int) bool {
	header, _, _ := strings.Cut(text[loc[0]:loc[1]], ".")
	raw, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(header, "="))
	if err != nil {
		return false
	}
	var h map[string]any
	if json.Unmarshal(raw, &h) != nil {
		return false
	}
	_, ok := h["alg"]
	return ok
}

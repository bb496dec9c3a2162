package scan

import (
	"encoding/base64"
	"encoding/json"
	"slices"
	"strings"
)

// tokenRule is a secret rule for a token with a recognisable prefix;
// anchors are literals every match contains (see scanRule.anchors).
func tokenRule(id RuleID, message string, anchors []string, pattern string) scanRule {
	return scanRule{
		id:           id,
		category:     CategorySecret,
		severity:     SeverityHigh,
		message:      message,
		anchors:      anchors,
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
			[]string{"AKIA", "ASIA", "ABIA", "ACCA", "A3T"},
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
			[]string{"T3BlbkFJ"}, `\bsk-(?:(?:proj|svcacct|admin)-)?[A-Za-z0-9_\-]{20,}T3BlbkFJ[A-Za-z0-9_\-]{20,}`),
		// Newer OpenAI project keys need not contain the T3BlbkFJ marker;
		// their length alone sets them apart from prose.
		tokenRule("openai-project-key", "OpenAI project API key",
			[]string{"sk-proj-", "sk-svcacct-", "sk-admin-"}, `\bsk-(?:proj|svcacct|admin)-[A-Za-z0-9_\-]{80,}`),
		tokenRule("gcp-api-key", "Google Cloud API key",
			[]string{"AIza"}, `\bAIza[0-9A-Za-z_\-]{35}`),
		{
			id:       "gcp-service-account-key",
			category: CategorySecret,
			severity: SeverityHigh,
			message:  "Google Cloud service account private key",
			anchors:  []string{"private_key"},
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
			[]string{"pypi-AgEIcHlwaS5vcmc"}, `pypi-AgEIcHlwaS5vcmc[A-Za-z0-9\-_]{50,}`),
		tokenRule("google-oauth-client-secret", "Google OAuth client secret",
			[]string{"GOCSPX-"}, `\bGOCSPX-[A-Za-z0-9_\-]{28}\b`),
		tokenRule("google-oauth-access-token", "Google OAuth access token",
			[]string{"ya29."}, `\bya29\.[0-9A-Za-z_\-]{30,}`),
		{
			id:           "azure-storage-account-key",
			category:     CategorySecret,
			severity:     SeverityHigh,
			message:      "Azure storage account key (connection string)",
			anchors:      []string{"AccountKey="},
			re:           NewLazyRegexp(`AccountKey=([A-Za-z0-9+/]{86}==)`),
			group:        1,
			minEntropy:   4,
			placeholders: true,
		},
		{
			id:           "azure-shared-access-key",
			category:     CategorySecret,
			severity:     SeverityHigh,
			message:      "Azure shared access key (Service Bus, Event Hubs, IoT Hub connection string)",
			anchors:      []string{"SharedAccessKey="},
			re:           NewLazyRegexp(`SharedAccessKey=([A-Za-z0-9+/]{43}=)`),
			group:        1,
			minEntropy:   4,
			placeholders: true,
		},
		{
			// gitleaks' azure-ad-client-secret: the "Q~" after three
			// characters and a digit is the format's own marker.
			id:           "azure-ad-client-secret",
			category:     CategorySecret,
			severity:     SeverityHigh,
			message:      "Azure AD (Entra ID) client secret",
			anchors:      []string{"Q~"},
			re:           NewLazyRegexp("(?m)(?:^|[\\'\"`\\s>=:(,)])([a-zA-Z0-9_~.]{3}\\dQ~[a-zA-Z0-9_~.\\-]{31,34})(?:$|[\\'\"`\\s<),])"),
			group:        1,
			minEntropy:   3,
			placeholders: true,
		},
		tokenRule("twilio-api-key", "Twilio API key",
			[]string{"SK"}, `\bSK[0-9a-fA-F]{32}\b`),
		tokenRule("sendgrid-api-token", "SendGrid API key",
			[]string{"SG."}, `\bSG\.[A-Za-z0-9_\-]{22}\.[A-Za-z0-9_\-]{43}\b`),
		{
			// The password of a database URL; the rest of the URL (user,
			// host, database) stays readable, and is what a scrub keeps.
			id:       "database-url-password",
			category: CategorySecret,
			severity: SeverityHigh,
			message:  "password in a database URL",
			anchors:  dbURLAnchors,
			re:       NewLazyRegexp(`\b(?:postgres(?:ql)?|mysql|mariadb|mongodb(?:\+srv)?|rediss?|amqps?|mssql|sqlserver|cockroachdb|clickhouse)://[^\s:/@'"\x60\\<>]{0,64}:([^\s:/@'"\x60\\<>\[\]${}]{3,200})@[A-Za-z0-9.\-_\[\]]+`),
			group:    1,
			accept:   passwordIsReal,
		},
		{
			// .env-style assignments of a credential-named variable; the
			// value is reported.
			id:           "dotenv-secret",
			category:     CategorySecret,
			severity:     SeverityHigh,
			message:      "credential in a KEY=value assignment (.env style)",
			anchors:      []string{"SECRET", "TOKEN", "PASSWORD", "PASSWD", "API_KEY", "APIKEY"},
			re:           NewLazyRegexp(`(?m)(?:^|[^A-Za-z0-9_$.\n\r])(?:export[ \t]+)?([A-Z0-9_]*(?:SECRET|TOKEN|PASSWORD|PASSWD|API_KEY|APIKEY)[A-Z0-9_]*)[ \t]*=[ \t]*["']?([^\s"'\x60\\$#=()\[\]{}<>,;|&][^\s"'\x60\\$#()\[\]{}<>,;|&]{7,199})`),
			group:        2,
			minEntropy:   3,
			placeholders: true,
			accept:       dotenvNameIsSecret,
		},
		{
			id:       "private-key",
			category: CategorySecret,
			severity: SeverityHigh,
			message:  "private key block",
			anchors:  []string{"PRIVATE KEY"},
			whole:    true,
			re:       NewLazyRegexp(`-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----([\s\S]{64,}?)-----END[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----`),
			accept:   privateKeyHasBody,
		},
		{
			id:       "jwt",
			category: CategorySecret,
			severity: SeverityHigh,
			message:  "JSON Web Token",
			anchors:  []string{"eyJ"},
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

// dbURLAnchors are the schemes database-url-password knows, with the
// colon (not the "//", which some JSON writers escape).
var dbURLAnchors = []string{"postgres:", "postgresql:", "mysql:", "mariadb:", "mongodb:", "mongodb+srv:",
	"redis:", "rediss:", "amqp:", "amqps:", "mssql:", "sqlserver:", "cockroachdb:", "clickhouse:"}

// placeholderPasswords are the values documentation and templates put
// where a password goes.
var placeholderPasswords = []string{"password", "passwd", "pass", "pwd", "secret", "changeme", "change_me",
	"yourpassword", "your_password", "your-password", "mypassword", "my_password", "example", "dummy",
	"placeholder", "redacted", "hidden", "null", "none", "undefined", "true", "false", "xxx", "***"}

// passwordIsReal rejects the placeholder passwords of examples:
// "postgres://user:password@host", "${DB_PASSWORD}" (already refused
// by the pattern), "%s", "*****".
func passwordIsReal(text string, loc []int) bool {
	pw := strings.ToLower(text[loc[2]:loc[3]])
	if slices.Contains(placeholderPasswords, pw) || strings.HasPrefix(pw, "%") || looksLikePlaceholder(pw) {
		return false
	}
	return strings.Trim(pw, "*x.") != ""
}

// notSecretNameSuffixes end the names of credential-named variables that
// do not hold the credential: where it is, how long it lives, what it is
// called.
var notSecretNameSuffixes = []string{"_NAME", "_FILE", "_PATH", "_DIR", "_URL", "_URI", "_ENDPOINT", "_HOST",
	"_PORT", "_ID", "_TYPE", "_LIMIT", "_COUNT", "_TTL", "_EXPIRY", "_EXPIRES", "_EXPIRES_IN", "_LENGTH", "_LEN",
	"_SIZE", "_HEADER", "_FIELD", "_PREFIX", "_ENV", "_VAR", "_REF", "_ARN", "_REGION", "_VERSION", "_ENABLED",
	"_MODE", "_MAX", "_MIN", "_TIMEOUT", "_FORMAT", "_ALGORITHM", "_SCOPE", "_SCOPES", "_AUDIENCE", "_ISSUER"}

// placeholderValues are assignment values that stand for a credential
// rather than being one.
var placeholderValues = []string{"changeme", "change_me", "placeholder", "your_token_here", "your-token-here",
	"your_api_key", "your-api-key", "your_secret", "your-secret", "redacted", "undefined", "required", "optional",
	"insert_here", "replace_me", "replaceme", "not_set", "notset"}

// dotenvNameIsSecret accepts an assignment whose name says it holds the
// credential itself (not its file, URL, id or lifetime) and whose value
// is not a placeholder or a number.
func dotenvNameIsSecret(text string, loc []int) bool {
	name := text[loc[2]:loc[3]]
	for _, suf := range notSecretNameSuffixes {
		if strings.HasSuffix(name, suf) {
			return false
		}
	}
	v := text[loc[4]:loc[5]]
	lv := strings.ToLower(v)
	if slices.Contains(placeholderValues, lv) || strings.HasPrefix(lv, "your") || strings.HasPrefix(lv, "http") ||
		strings.Contains(lv, "your-") || strings.Contains(lv, "your_") || strings.HasSuffix(lv, "here") ||
		strings.HasPrefix(v, "/") || strings.HasPrefix(v, "~") || strings.HasPrefix(v, "%") {
		return false
	}
	digits := true
	for i := 0; i < len(v); i++ {
		if v[i] < '0' || v[i] > '9' {
			digits = false
			break
		}
	}
	return !digits
}

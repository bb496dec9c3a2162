package gate

import "fmt"

// Decision is the gate's answer for a rule, and for a call.
type Decision string

// The decisions, weakest first. Allow makes the gate say nothing to the
// client: answering "allow" would skip the user's own permission prompt,
// which a gate must never do; the call goes through the client's normal
// flow and the decision is recorded.
const (
	Allow Decision = "allow"
	Ask   Decision = "ask"
	Deny  Decision = "deny"
)

// ParseDecision reads allow, ask or deny.
func ParseDecision(s string) (Decision, error) {
	switch d := Decision(s); d {
	case Allow, Ask, Deny:
		return d, nil
	}
	return "", fmt.Errorf("%q is not a decision: use allow, ask or deny", s)
}

func (d Decision) rank() int {
	switch d {
	case Deny:
		return 2
	case Ask:
		return 1
	}
	return 0
}

// Rule names a check of the gate: the keys of the settings file's gate:
// section.
type Rule string

// The gate's rules.
const (
	// RuleSecret: a credential in the new text (the scan's secret and SSH
	// backdoor rules).
	RuleSecret Rule = "secret"
	// RuleInjection: text aimed at the model (the scan's injection rules).
	RuleInjection Rule = "injection"
	// RuleInvisibleUnicode: text a person cannot see but the model reads.
	RuleInvisibleUnicode Rule = "invisible_unicode"
	// RuleCutOwnLines: MEMORY.md over its cap with the call's own new or
	// changed lines past the cut: they would never load.
	RuleCutOwnLines Rule = "cut_own_lines"
	// RuleCutOtherLines: the call pushes other entries of MEMORY.md past
	// the cut.
	RuleCutOtherLines Rule = "cut_other_lines"
	// RuleNearDuplicate: a topic file that nearly duplicates another.
	RuleNearDuplicate Rule = "near_duplicate"
	// RuleFrontmatter: invalid or missing frontmatter, an unknown type.
	RuleFrontmatter Rule = "frontmatter"
	// RuleDanglingLink: a new MEMORY.md line links a file that does not
	// exist.
	RuleDanglingLink Rule = "dangling_link"
	// RuleInstructionSize: a CLAUDE.md or rule grows past the size the
	// client reads in full.
	RuleInstructionSize Rule = "instruction_size"
)

// Rules are the gate's rules in the order the settings file lists them.
func Rules() []Rule {
	return []Rule{RuleSecret, RuleCutOwnLines, RuleInjection, RuleNearDuplicate, RuleInvisibleUnicode,
		RuleCutOtherLines, RuleFrontmatter, RuleDanglingLink, RuleInstructionSize}
}

// RuleHelp says what a rule checks, for the default settings file.
func RuleHelp(r Rule) string {
	switch r {
	case RuleSecret:
		return "a credential in the text written (the security scan's secret rules)"
	case RuleCutOwnLines:
		return "MEMORY.md over 200 lines / 25 000 characters with the write's own lines past the cut"
	case RuleInjection:
		return "text aimed at the model (the security scan's injection rules)"
	case RuleNearDuplicate:
		return "a topic file that nearly duplicates another"
	case RuleInvisibleUnicode:
		return "characters a person cannot see but the model reads"
	case RuleCutOtherLines:
		return "the write pushes other MEMORY.md entries past the cut"
	case RuleFrontmatter:
		return "invalid or missing frontmatter, an unknown memory type"
	case RuleDanglingLink:
		return "a new MEMORY.md line links a file that does not exist"
	case RuleInstructionSize:
		return "a CLAUDE.md or rule growing past the 40 000 characters the client reads in full"
	}
	return ""
}

// Policy is the decision of each rule.
type Policy map[Rule]Decision

// DefaultPolicy denies secrets and writes whose own lines fall past the
// cut, asks for injection text and near-duplicates, allows the rest.
func DefaultPolicy() Policy {
	p := Policy{}
	for _, r := range Rules() {
		p[r] = Allow
	}
	p[RuleSecret], p[RuleCutOwnLines] = Deny, Deny
	p[RuleInjection], p[RuleNearDuplicate] = Ask, Ask
	return p
}

// Of is r's decision (allow when the policy does not name it).
func (p Policy) Of(r Rule) Decision {
	if d, ok := p[r]; ok {
		return d
	}
	return Allow
}

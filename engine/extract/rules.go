package extract

import (
	"strings"
	"time"
	"unicode/utf8"

	"github.com/memscope/memscope/engine/scan"
)

// Rule names, reported in Candidate.Reason and Rejection.Rule.
const (
	exRuleRemember     = "explicit request to remember"
	exRuleCorrection   = "correction"
	exRuleInstead      = "correction with the right way"
	exRuleStanding     = "standing instruction"
	exRuleConfirmation = "confirmed approach"
	exRuleRole         = "user's role"
	exRulePreference   = "user's preference"
	exRuleDecision     = "decision"
	exRuleDeadline     = "deadline"
	// exRejectEmptyRemember is why a "remember this" with nothing to
	// remember is not a candidate (an instruction all the same).
	exRejectEmptyRemember = "remember request without content"
	exRuleReference       = "tracker or dashboard link"
)

// exMatch is a sentence a rule picked up.
type exMatch struct {
	typ    CandidateType
	reason string
	// statement is the memory's main sentence, already rephrased for the
	// memory's reader where the rule knows how.
	statement string
	// why and how, when the rule found them, fill the **Why:** and
	// **How to apply:** lines.
	why string
	how string
	// url and system name a reference's link.
	url    string
	system string
	quote  string
	// reject, when set, is the exclusion that keeps the sentence out.
	reject string
}

var (
	exLead = scan.NewLazyRegexp(`(?i)^(?:(?:ok(?:ay)?|also|again|and|btw|fyi|oh|so|well|ah|hey|alright|hmm+|pls|please|one more thing|just so you know)\b[,:!.]*\s*)+`)

	exRemember = scan.NewLazyRegexp(`(?i)^(?:(?:can|could|would|will)\s+you\s+(?:please\s+)?|please\s+)?` +
		`(?:remember|memori[sz]e|keep in mind|bear in mind|don't forget|do not forget|never forget|make a note(?: of)?|note|` +
		`save (?:this |that |it )?(?:to|in) (?:your )?memory|add (?:this |that |it )?to (?:your )?memory|for future reference|for next time)\b` +
		`(?:\s+(?:this|that))?\s*[:,-]?\s*`)

	exCorrection = scan.NewLazyRegexp(`(?i)^(?:(?:no|nope|nah|wrong|wait|stop|for now|right now|this time|for today)\b[,.!;:-]*\s+)*(?:please\s+)?` +
		`(don't|do not|dont|never|stop|quit|avoid|no more|you (?:shouldn't|should not|must not|mustn't)|we (?:don't|do not|never))\s+(\S.*)`)
	exPoliteStop = scan.NewLazyRegexp(`(?i)^(?:can|could|would)\s+you\s+(?:please\s+)?(stop|not|avoid|quit)\s+(\S.*?)\?*$`)

	exInstead      = scan.NewLazyRegexp(`(?i)^(?:(?:no|nope|nah|actually|wrong)\b[,.!;:-]*\s+)*(?:please\s+)?((?:use|try|run|call|pick|choose|go with|switch to|stick with|stick to)\s+.+?)\s+instead(?:\s+of\s+(.+?))?\s*[.!]*$`)
	exInsteadOf    = scan.NewLazyRegexp(`(?i)^instead of\s+(.+?),\s*((?:use|run|call|go with|switch to|stick with)\s+.+?)\s*[.!]*$`)
	exNoUse        = scan.NewLazyRegexp(`(?i)^(?:no|nope|actually)\b[,.!;:-]*\s+((?:use|we use|run|call)\s+\S.*)`)
	exAlways       = scan.NewLazyRegexp(`(?i)^(?:please\s+)?(always\s+\S.*)`)
	exStanding     = scan.NewLazyRegexp(`(?i)^(?:from now on|going forward|in (?:the )?future|next time|in general|as a rule|by default)\s*[,:]?\s+(\S.*)`)
	exConfirmHead  = scan.NewLazyRegexp(`(?i)^(?:(?:yes|yep|yeah|yup|exactly|perfect|great|good|nice|right|correct|spot on|that's (?:it|right|perfect|exactly it|exactly right)|this is (?:it|right|perfect|exactly what i wanted))\b[,.!;:—–-]*\s*)+(.*)`)
	exConfirmBody  = scan.NewLazyRegexp(`(?i)\b(?:keep (?:\w+ing|it|that|this)|(?:that's|this is|that was|this was|was) (?:the right|a good|the correct) (?:call|approach|way|choice|move)|do it (?:this|that|like this) way|(?:more|exactly) (?:of this|like this|what i (?:want|wanted|meant))|just like that|(?:good|great|nice) call)\b`)
	exConfirmVague = scan.NewLazyRegexp(`(?i)\b(?:keep (?:doing|going)|doing|that|this|it|so|going|exactly|more|of|like|just|what|i|want|wanted|meant|good|great|nice|call|the|right|correct|way|approach|a|was|is|do)\b`)

	exRoleIntro  = scan.NewLazyRegexp(`(?i)^(?:i'm|i am|im)\s+((?:a|an|the|one of the)\s+.+)`)
	exRoleNoun   = scan.NewLazyRegexp(`(?i)^(?:\S+\s+){0,5}?(?:engineers?|developers?|devs?|programmers?|scientists?|analysts?|designers?|managers?|leads?|architects?|sres?|admins?|administrators?|students?|researchers?|founders?|cto|ceo|vp|consultants?|contractors?|maintainers?|interns?|testers?|qa|devops|writers?|pm|owners?|specialists?|professors?|teachers?|hobbyists?|freelancers?|statisticians?|mathematicians?|physicists?|biologists?|economists?|editors?|operators?)\b`)
	exWork       = scan.NewLazyRegexp(`(?i)^i\s+(?:mostly\s+|mainly\s+|usually\s+)?work\s+((?:as|at|for|in|on|with)\s+\S.*)`)
	exMyRole     = scan.NewLazyRegexp(`(?i)^my\s+(role|job|title|background|team)\s*(?:is|:)\s*(\S.*)`)
	exExperience = scan.NewLazyRegexp(`(?i)^(?:i'm|i am)\s+((?:new to|not (?:very )?familiar with|unfamiliar with|an expert in|experienced (?:in|with)|fluent in|comfortable with|most comfortable (?:in|with))\s+\S.*)`)
	exBeenDoing  = scan.NewLazyRegexp(`(?i)^i(?:'ve| have)\s+been\s+((?:writing|using|coding in|programming in|working with|working in|doing)\s+.+?\s+for\s+\S.*)`)
	exPrefer     = scan.NewLazyRegexp(`(?i)^i\s+(?:really\s+|strongly\s+|generally\s+|usually\s+|much\s+)?(prefer|'d prefer|would prefer|'d rather|would rather|like it when|love it when|hate it when|dislike|can't stand|like|love|hate)\s+(\S.*)`)

	exDecision = scan.NewLazyRegexp(`(?i)^(?:(?:we|the team|our team|leadership|product|management|i)\s+(?:have\s+|'ve\s+|has\s+)?(?:decided|agreed|chose|settled on|committed)\b|(?:we're|we are|the team is|our team is)\s+(?:going with|moving to|switching to|migrating to|standardi[sz]ing on|dropping|deprecating|sunsetting)\b|decision:)`)
	exEvent    = scan.NewLazyRegexp(`(?i)\b(?:deadline|due|freeze|release|launch|launches|ship|ships|shipping|cutover|go-live|go live|demo|beta|ga|rollout|roll out|migration|sunset|deprecation|end of life|eol|audit|offsite|handoff|hand-off|kickoff|cutoff|cut-off|goes live|submission)\b`)

	exBecause      = scan.NewLazyRegexp(`(?i)\s*(?:,\s*|\s+)(?:because|'cause|as otherwise|otherwise|so that|given that|the reason is)\s+|\s+[—–]\s+|\s+-\s+`)
	exWhyClause    = scan.NewLazyRegexp(`(?i),\s+((?:it|that|this|they)(?:'s|\s+is|\s+are)?\s+(?:makes?|making|breaks?|breaking|caus\w+|hides?|hiding|slows?|confus\w+|clutters?|adds?|costs?|wastes?|noisy|slow|confusing|unreadable|flaky|fragile|risky|dangerous|annoying)\b.*)`)
	exRememberTail = scan.NewLazyRegexp(`(?i)[,;:—–-]?\s*(?:please\s+)?(?:remember|note|keep in mind) (?:that|this)[.!]*$`)
	exWhyNext      = scan.NewLazyRegexp(`(?i)^(?:because|last time|otherwise|that (?:broke|caused|cost|led|hid)|it (?:broke|caused|cost|led|hides|hid|breaks)|we got burned|the reason|this (?:broke|caused|hid)|they (?:break|broke))\b`)
)

// exClassify runs the rules on one sentence. prev is the sentence before
// it in the same message ("Remember that." refers to it).
func exClassify(s, prev string, ts time.Time) (exMatch, bool) {
	return exClassifyAs(s, prev, ts, true)
}

// exClassifyAs is exClassify; with exclude unset it skips the "what not
// to save" list (the loss ledger reads every instruction, saved or not)
// and, for a plain statement, the project rules (decisions, dated
// events): the ledger takes feedback and preferences only, and those
// rules are the dearest (a date search) on a long session's sentences.
func exClassifyAs(s, prev string, ts time.Time, exclude bool) (exMatch, bool) {
	judge := func(m *exMatch) string {
		if !exclude {
			return m.reject
		}
		return exExclusion(m)
	}
	core := exTrimLead(exStraightQuotes(s))
	if loc := exRemember.FindStringIndex(core); loc != nil && (loc[1] > 0) {
		return exClassifyRemember(s, strings.TrimSpace(core[loc[1]:]), prev, ts, judge)
	}
	// "…, remember that": the request comes after what to remember.
	if loc := inFind(exRememberTail, core); loc != nil && loc[0] > 0 {
		return exClassifyRemember(s, strings.TrimSpace(core[:loc[0]]), "", ts, judge)
	}
	if strings.HasSuffix(core, "?") {
		m := exMatch{}
		if g := exPoliteStop.FindStringSubmatch(core); g != nil {
			verb := "Stop"
			if !strings.EqualFold(g[1], "stop") {
				verb = "Don't"
			}
			m = exMatch{typ: CandidateFeedback, reason: exRuleCorrection, statement: verb + " " + exThirdPersonFeedback(g[2])}
			m.quote = s
			m.reject = judge(&m)
			return m, true
		}
		return m, false
	}
	m, ok := exClassifyStatement(core, ts, exclude)
	if !ok {
		return m, false
	}
	m.quote = s
	m.reject = judge(&m)
	return m, true
}

// exClassifyRemember handles an explicit request: what follows "remember"
// is classified like any statement; an imperative ("remember to …") is
// feedback and a plain fact is a project (or user) memory.
func exClassifyRemember(s, rest, prev string, ts time.Time, judge func(*exMatch) string) (exMatch, bool) {
	rest = strings.TrimRight(rest, " .!")
	if rest == "" || strings.EqualFold(rest, "this") || strings.EqualFold(rest, "that") || strings.EqualFold(rest, "it") {
		if prev == "" || strings.HasSuffix(prev, "?") {
			return exMatch{reason: exRuleRemember, quote: s, reject: exRejectEmptyRemember}, true
		}
		rest = strings.TrimRight(exTrimLead(exStraightQuotes(prev)), " .!")
		s = prev + " " + s
	}
	m, ok := exClassifyStatement(rest, ts, true)
	switch {
	case ok:
	case strings.HasPrefix(strings.ToLower(rest), "to "):
		m = exMatch{typ: CandidateFeedback, statement: exCapitalize(exThirdPersonFeedback(rest[3:]))}
		m.statement, m.why = exSplitWhy(m.statement)
	case exFirstPerson(rest):
		m = exMatch{typ: CandidateUser, statement: "User: " + exThirdPerson(rest)}
	default:
		m = exMatch{typ: CandidateProject, statement: exCapitalize(exThirdPersonFeedback(rest))}
		m.statement, m.why = exSplitWhy(m.statement)
	}
	m.reason = exRuleRemember
	m.quote = s
	m.reject = judge(&m)
	return m, true
}

// exClassifyStatement tries the type rules in order on a sentence whose
// leading interjections are gone; the project rules last, and only with
// project set.
func exClassifyStatement(core string, ts time.Time, project bool) (exMatch, bool) {
	core = strings.TrimSpace(core)
	if m, ok := exReference(core); ok {
		return m, true
	}
	if m, ok := exFeedback(core); ok {
		return m, true
	}
	if m, ok := exUser(core); ok {
		return m, true
	}
	if !project {
		return exMatch{}, false
	}
	return exProject(core, ts)
}

func exFeedback(core string) (exMatch, bool) {
	fb := func(reason, statement string) (exMatch, bool) {
		m := exMatch{typ: CandidateFeedback, reason: reason, statement: exCapitalize(exThirdPersonFeedback(statement))}
		m.statement, m.why = exSplitWhy(m.statement)
		return m, true
	}
	if g := exInstead.FindStringSubmatch(core); g != nil {
		st := g[1] + " instead"
		if g[2] != "" {
			st += " of " + g[2]
		}
		m, ok := fb(exRuleInstead, st)
		m.how = "Reach for this first whenever the other way would have been used."
		return m, ok
	}
	if g := exInsteadOf.FindStringSubmatch(core); g != nil {
		m, ok := fb(exRuleInstead, g[2]+" instead of "+g[1])
		m.how = "Reach for this first whenever the other way would have been used."
		return m, ok
	}
	if g := exCorrection.FindStringSubmatchIndex(core); g != nil {
		return fb(exRuleCorrection, core[g[2]:])
	}
	if g := exNoUse.FindStringSubmatch(core); g != nil {
		return fb(exRuleInstead, g[1])
	}
	if g := exAlways.FindStringSubmatch(core); g != nil {
		return fb(exRuleStanding, g[1])
	}
	if g := exStanding.FindStringSubmatch(core); g != nil {
		return fb(exRuleStanding, g[1])
	}
	if g := exConfirmHead.FindStringSubmatch(core); g != nil && exConfirmBody.MatchString(g[1]) {
		m := exMatch{typ: CandidateFeedback, reason: exRuleConfirmation, statement: exCapitalize(g[1]),
			how: "Keep doing this in similar work: the user confirmed it, not just tolerated it."}
		if len(exContentTokens(exConfirmVague.ReplaceAllString(g[1], " "))) < 2 {
			m.reject = "confirmation does not say which approach"
		}
		return m, true
	}
	return exMatch{}, false
}

func exUser(core string) (exMatch, bool) {
	user := func(reason, statement string) (exMatch, bool) {
		return exMatch{typ: CandidateUser, reason: reason, statement: exThirdPerson(statement)}, true
	}
	if g := exRoleIntro.FindStringSubmatch(core); g != nil && exRoleNoun.MatchString(g[1]) {
		return user(exRuleRole, "User is "+g[1])
	}
	if g := exExperience.FindStringSubmatch(core); g != nil {
		return user(exRuleRole, "User is "+g[1])
	}
	if g := exBeenDoing.FindStringSubmatch(core); g != nil {
		return user(exRuleRole, "User has been "+g[1])
	}
	if g := exWork.FindStringSubmatch(core); g != nil {
		return user(exRuleRole, "User works "+g[1])
	}
	if g := exMyRole.FindStringSubmatch(core); g != nil {
		return user(exRuleRole, "User's "+strings.ToLower(g[1])+" is "+g[2])
	}
	if g := exPrefer.FindStringSubmatch(core); g != nil {
		verb := map[string]string{
			"prefer": "prefers", "'d prefer": "would prefer", "would prefer": "would prefer",
			"'d rather": "would rather", "would rather": "would rather", "like it when": "likes it when",
			"love it when": "loves it when", "hate it when": "hates it when", "dislike": "dislikes",
			"can't stand": "can't stand", "like": "likes", "love": "loves", "hate": "hates",
		}[strings.ToLower(g[1])]
		return user(exRulePreference, "User "+verb+" "+g[2])
	}
	return exMatch{}, false
}

func exProject(core string, ts time.Time) (exMatch, bool) {
	reason := ""
	switch {
	case exDecision.MatchString(core):
		reason = exRuleDecision
	case exEvent.MatchString(core) && exHasDate(core):
		reason = exRuleDeadline
	default:
		return exMatch{}, false
	}
	st := strings.TrimPrefix(core, "Decision: ")
	st = exCapitalize(exDecisionSubject(st))
	m := exMatch{typ: CandidateProject, reason: reason}
	m.statement, m.why = exSplitWhy(st)
	return m, true
}

// exDecisionSubject makes a first-person singular decision read from the
// memory reader's side ("I decided" → "The user decided").
func exDecisionSubject(s string) string {
	if len(s) > 2 && (s[:2] == "I " || s[:2] == "i ") {
		return "The user " + exThirdPersonFeedback(s[2:])
	}
	return s
}

// exSplitWhy splits "rule because reason" into the rule and the reason,
// when the rule part still says something on its own.
func exSplitWhy(s string) (rule, why string) {
	if loc := exBecause.FindStringIndex(s); loc != nil && len(exContentTokens(s[:loc[0]])) >= 2 {
		return strings.TrimSpace(s[:loc[0]]), exCapitalize(strings.TrimSpace(s[loc[1]:]))
	}
	if g := exWhyClause.FindStringSubmatchIndex(s); g != nil && len(exContentTokens(s[:g[0]])) >= 2 {
		return strings.TrimSpace(s[:g[0]]), exCapitalize(s[g[2]:g[3]])
	}
	return s, ""
}

var exFirstPersonRe = scan.NewLazyRegexp(`(?i)^(?:i|i'm|i've|i'd|my)\b`)

func exFirstPerson(s string) bool { return exFirstPersonRe.MatchString(s) }

var exPronounRe = scan.NewLazyRegexp(`\b(?:I'm|I've|I'd|I|my|My|me|mine|myself)\b`)

// exThirdPerson rewrites the user's first person for a user memory:
// "I'm new to my team's stack" → "they're new to their team's stack".
func exThirdPerson(s string) string {
	return exPronounRe.ReplaceAllStringFunc(s, func(w string) string {
		switch w {
		case "I'm":
			return "they're"
		case "I've":
			return "they've"
		case "I'd":
			return "they'd"
		case "I":
			return "they"
		case "my", "My":
			return "their"
		case "me":
			return "them"
		case "mine":
			return "theirs"
		}
		return "themselves"
	})
}

// exThirdPersonFeedback rewrites the user's first person in a rule the
// model will read, where "me" would mean the model: "don't ask me" →
// "don't ask the user".
func exThirdPersonFeedback(s string) string {
	return exPronounRe.ReplaceAllStringFunc(s, func(w string) string {
		switch w {
		case "I'm":
			return "the user is"
		case "I've":
			return "the user has"
		case "I'd":
			return "the user would"
		case "my", "My":
			return "the user's"
		case "mine":
			return "the user's"
		case "myself":
			return "the user"
		}
		return "the user"
	})
}

// exTrimLead is exLead.ReplaceAllString(s, ""), the pattern run only when
// s opens with a letter one of its words opens with, in either case, or
// with a byte outside ASCII (the pattern ignores case, so ſ reads as s).
func exTrimLead(s string) string {
	if s == "" || s[0] < utf8.RuneSelf && !exLeadFirst[s[0]|0x20] {
		return s
	}
	return exLead.ReplaceAllString(s, "")
}

// exLeadFirst are the first letters of exLead's words, lower case.
var exLeadFirst = func() (set [256]bool) {
	for _, c := range []byte("oabfswhpj") {
		set[c] = true
	}
	return set
}()

// exStraightQuotes turns typographic apostrophes and quotes into ASCII so
// "don’t" matches like "don't".
func exStraightQuotes(s string) string {
	if strings.IndexByte(s, 0xE2) < 0 {
		return s // every quote it replaces is written E2 80 xx in UTF-8
	}
	return exQuotes.Replace(s)
}

var exQuotes = strings.NewReplacer("\u2019", "'", "\u2018", "'", "\u201c", `"`, "\u201d", `"`)

// exCapitalize upper-cases the first letter of s.
func exCapitalize(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return s
	}
	if strings.HasPrefix(s, "http") {
		return s
	}
	if c := s[0]; c >= 'a' && c <= 'z' {
		return string(c-'a'+'A') + s[1:]
	}
	return s
}

package scan

import (
	"strings"
)

// textRules are the prompt-injection and SSH backdoor rules. Memory is read
// back into every future prompt, so text that speaks to the model instead
// of about the work is a lasting instruction.
func textRules() []scanRule {
	// sp is white space between the words of a phrase: at most one line
	// break, so a phrase spans a bounded number of lines (phraseSpan).
	const sp = `(?:[ \t]+(?:\r?\n[ \t]*)?|\r?\n[ \t]*)`
	phrase := func(p string) *LazyRegexp { return NewLazyRegexp(strings.ReplaceAll(p, "_", sp)) }
	sshKey := NewLazyRegexp(`(?:ssh-(?:rsa|ed25519|dss)|ecdsa-sha2-nistp(?:256|384|521)|sk-(?:ssh-ed25519|ecdsa-sha2-nistp256)@openssh\.com)[ \t]+AAAA[0-9A-Za-z+/]{20,}={0,3}`)
	return []scanRule{
		{
			id:       "injection-ignore-instructions",
			category: CategoryInjection,
			severity: SeverityHigh,
			message:  "tells the model to ignore earlier instructions",
			keywords: []string{"ignore", "disregard", "forget"},
			span:     phraseSpan,
			re: phrase(`(?i)\b(?:ignore|disregard|forget)_(?:(?:all|any|every|the|your|my|of|these|those)_){0,3}` +
				`(?:(?:previous|prior|above|earlier|preceding|former|original)_(?:instructions?|prompts?|directions|rules|guidelines|directives|context)` +
				`|(?:instructions?|prompts?|directions|rules|guidelines|directives)_(?:above|before_this|you_(?:were|have_been)_given))\b`),
		},
		{
			id:       "injection-role-tag",
			category: CategoryInjection,
			severity: SeverityHigh,
			message:  "forged chat role or system tag at the start of a line",
			keywords: []string{"<|", "<system", "</system", "[inst", "[/inst", "<<sys", "<</sys", "human", "assistant", "<user", "</user"},
			re:       NewLazyRegexp(`(?im)^[ \t]*(?:<\|(?:im_start|im_end|system|user|assistant|endoftext)\|>|</?(?:system|assistant|user|human)>|\[/?INST\]|<</?SYS>>|(?:Human|Assistant)[ \t]*:)`),
		},
		{
			// Mentions in code spans (`<system-reminder>`) are documentation,
			// not forgery.
			id:       "injection-system-reminder",
			category: CategoryInjection,
			severity: SeverityHigh,
			message:  "forged <system-reminder> tag",
			keywords: []string{"system-reminder"},
			re:       NewLazyRegexp("(?im)(?:^|[^`\\n])(</?system-reminder\\b[^>\\n]*>)"),
			group:    1,
		},
		{
			id:       "injection-disregard-above",
			category: CategoryInjection,
			severity: SeverityMedium,
			message:  "tells the reader to disregard what came before",
			keywords: []string{"disregard", "ignore"},
			span:     phraseSpan,
			re:       phrase(`(?im)\b(?:disregard|ignore)_(?:(?:all|everything)_)?(?:of_)?(?:the_|what_is_|what's_)?(?:above|foregoing|preceding)(?:[ \t]*[.,;:!]|_and\b|_instead\b|[ \t\r]*$)`),
		},
		{
			id:       "injection-role-reassignment",
			category: CategoryInjection,
			severity: SeverityMedium,
			message:  "tries to give the model a new identity",
			keywords: []string{"you"},
			span:     phraseSpan,
			re:       phrase(`(?i)\byou_are_now_(?:an?_\w+|in_\w+_mode|no_longer_\w+|free_(?:of|from)|unrestricted|jailbroken|DAN|acting_as)\b`),
		},
		{
			id:       "injection-html-comment",
			category: CategoryInjection,
			severity: SeverityMedium,
			message:  "HTML comment with instructions for the model (hidden when rendered)",
			keywords: []string{"<!--"},
			whole:    true,
			re:       NewLazyRegexp(`<!--([\s\S]*?)-->`),
			accept:   commentAddressesModel,
		},
		{
			id:       "ssh-authorized-keys-edit",
			category: CategorySSHBackdoor,
			severity: SeverityHigh,
			message:  "adds an SSH key to authorized_keys",
			keywords: []string{"authorized_keys", "ssh-copy-id"},
			re:       NewLazyRegexp(`(?i)[^\n]*?(authorized_keys2?|ssh-copy-id)[^\n]*`),
			group:    1,
			accept:   lineEditsAuthorizedKeys,
		},
		{
			id:       "ssh-public-key-install",
			category: CategorySSHBackdoor,
			severity: SeverityHigh,
			message:  "SSH public key with instructions to install it",
			keywords: []string{"ssh-", "ecdsa-"},
			re:       sshKey,
			accept:   hasInstallContext,
		},
		{
			id:       "ssh-public-key",
			category: CategorySSHBackdoor,
			severity: SeverityLow,
			message:  "SSH public key (check why memory holds it)",
			keywords: []string{"ssh-", "ecdsa-"},
			re:       sshKey,
			accept:   func(text string, loc []int) bool { return !hasInstallContext(text, loc) },
		},
	}
}

// phraseSpan is the most line breaks a phrase rule can match across: one
// per gap between words.
const phraseSpan = 10

var (
	modelAddressee = NewLazyRegexp(`(?i)\b(?:claude|assistant|ai|llm|language\s+model|model|agent|chatbot|copilot|gpt)s?\b`)
	modelDirective = NewLazyRegexp(`(?i)\b(?:you\s+(?:must|should|will|are|need)|always|never|ignore|do\s+not|don't|instead|secretly|silently|without\s+telling|make\s+sure|from\s+now\s+on|instructions?|execute|run|send|upload|include|output|reply|respond|say|tell)\b`)
	installVerb    = NewLazyRegexp(`(?i)(?:>>|\btee\b|\b(?:add|adds|added|adding|append\w*|write|writes|install\w*|copy|copies|cp|put|insert\w*|paste|echo|place|drop|trust|authori[sz]e)\b)`)
)

// commentAddressesModel accepts an HTML comment that names the model and
// tells it to do something: such comments vanish in rendered markdown but
// the model reads them.
func commentAddressesModel(text string, loc []int) bool {
	body := text[loc[2]:loc[3]]
	return modelAddressee.MatchString(body) && modelDirective.MatchString(body)
}

// lineEditsAuthorizedKeys accepts a line that mentions authorized_keys with
// a verb that writes to it, or runs ssh-copy-id.
func lineEditsAuthorizedKeys(text string, loc []int) bool {
	line := text[loc[0]:loc[1]]
	if strings.Contains(strings.ToLower(line), "ssh-copy-id") {
		return true
	}
	return installVerb.MatchString(line)
}

// hasInstallContext reports whether the line holding an SSH public key, or
// the line before or after it, says to add or install a key.
func hasInstallContext(text string, loc []int) bool {
	start, end := loc[0], loc[1]
	from := lineStartBefore(text, start, 2)
	to := lineEndAfter(text, end, 2)
	context := text[from:start] + " " + text[end:to]
	return installVerb.MatchString(context) || strings.Contains(strings.ToLower(context), "authorized_keys")
}

// lineStartBefore returns the start of the line n lines above the one
// holding offset i (n = 1 is that line's own start).
func lineStartBefore(text string, i, n int) int {
	for ; n > 0; n-- {
		j := strings.LastIndexByte(text[:i], '\n')
		if j < 0 {
			return 0
		}
		i = j
	}
	return i + 1
}

// lineEndAfter returns the end of the line n-1 lines below the one holding
// offset i (n = 1 is that line's own end).
func lineEndAfter(text string, i, n int) int {
	for ; n > 0; n-- {
		j := strings.IndexByte(text[i:], '\n')
		if j < 0 {
			return len(text)
		}
		i += j + 1
	}
	return i - 1
}

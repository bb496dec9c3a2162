package extract

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/memscope/memscope/engine/scan"
	"github.com/memscope/memscope/model"
)

// exWrapperTags are the harness's wrappers around text the user did not
// type: reminders, slash-command echoes, shell output, hook output, IDE
// context. Their content is never the user's own statement.
var exWrapperTags = []string{
	"system-reminder", "command-name", "command-message", "command-args",
	"command-contents", "local-command-stdout", "local-command-stderr",
	"local-command-caveat", "bash-input", "bash-stdout", "bash-stderr",
	"user-prompt-submit-hook", "ide_selection", "ide_opened_file",
	"ide_diagnostics", "task-notification", "pasted_content",
}

var (
	// exWrapperRes match each wrapper with its content; an unclosed wrapper
	// runs to the end of the message. pasted_content closes with its id
	// repeated (</pasted_content id="…">), which [^>]* allows.
	exWrapperRes = func() []*scan.LazyRegexp {
		res := make([]*scan.LazyRegexp, 0, len(exWrapperTags))
		for _, tag := range exWrapperTags {
			t := regexp.QuoteMeta(tag)
			res = append(res, scan.NewLazyRegexp(`(?is)<`+t+`\b[^>]*>.*?(?:</`+t+`\b[^>]*>|\z)`))
		}
		return res
	}()
	// exFence matches a fenced code block, or an unclosed one to the end.
	exFence = scan.NewLazyRegexp("(?s)(?:^|\n)[ \t]*(```|~~~)[^\n]*\n.*?(?:\n[ \t]*(?:```|~~~)[ \t]*(?:\n|\\z)|\\z)")
	// exInlineCode is a code span.
	exInlineCode = scan.NewLazyRegexp("`[^`\n]*`")
	// exPlaceholders are the client's stand-ins for pastes, images and
	// interruptions.
	exPlaceholders = scan.NewLazyRegexp(`\[(?:Pasted text #\d+(?: \+\d+ lines)?|Image #\d+|\.\.\.Truncated text #\d+(?: \+\d+ lines)?\.\.\.|Request interrupted by user[^\]]*)\]`)
	// exNoiseLine is a line that is output, not prose: stack frames, log
	// lines, shell prompts, quotes of earlier text, diffs.
	exNoiseLine = scan.NewLazyRegexp(`^(?:\s+at\s+\S|\s*File "[^"]*", line \d+|Traceback \(most recent call last\)|goroutine \d+ \[|\s*panic:|\s*\S+\.(?:go|py|js|ts|rs|java|rb|c|cc|cpp):\d+|\s*#\d+\s+0x[0-9a-f]+|\s*Exception in thread|\s*Caused by:|\s*\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}|\s*\[?(?:INFO|WARN|WARNING|ERROR|DEBUG|TRACE|FATAL)\]?[: ]|\s*[$#>]\s|\s*[+-]{3}\s|\s*@@ )`)
	// exCompactSummary opens the user message that carries a compact summary.
	exCompactSummary = scan.NewLazyRegexp(`^\s*This session is being continued from a previous conversation`)
)

// exWrapperOpens are "<" and each of exWrapperTags: what
// exCleanMessage looks for in the lower-cased text.
var exWrapperOpens = func() []string {
	opens := make([]string, len(exWrapperTags))
	for i, tag := range exWrapperTags {
		opens[i] = "<" + tag
	}
	return opens
}()

// exCompactSummaryHead is what exCompactSummary matches after the
// white space (\s: \t \n \f \r and space) it allows.
const exCompactSummaryHead = "This session is being continued from a previous conversation"

// exIsCompactSummary is exCompactSummary.MatchString(text) without the
// pattern (it ran on every message): the head after leading white space
// (TestCompactSummaryIsPattern).
func exIsCompactSummary(text string) bool {
	return strings.HasPrefix(strings.TrimLeft(text, "\t\n\f\r "), exCompactSummaryHead)
}

// exIsNoiseLine is exNoiseLine.MatchString(line), the pattern run only
// on a line that can match it: one that opens with white space (\s), or
// with a byte one of its alternatives opens with, or that holds a ':'
// (file:line, "Caused by:", a time). Most lines of prose do neither
// (TestNoiseLinePrefilter, FuzzNoiseLinePrefilter).
func exIsNoiseLine(line string) bool {
	if line == "" {
		return false
	}
	if !exNoiseFirst[line[0]] && strings.IndexByte(line, ':') < 0 {
		return false
	}
	return exNoiseLine.MatchString(line)
}

// exNoiseFirst are the bytes a line exNoiseLine matches without a ':'
// can open with: white space, and the first bytes of File, Traceback,
// goroutine, panic, #, Exception, Caused, a digit, [ and the log levels,
// $ > + - and @.
var exNoiseFirst = func() (set [256]bool) {
	for _, c := range []byte("\t\n\f\r FTgp#EC[IWD$>+-@0123456789") {
		set[c] = true
	}
	return set
}()

// exCleanMessage returns the prose the user typed in text: wrappers,
// pastes, placeholders, code blocks and spans, indented code, stack
// traces and log lines removed; terminal controls stripped.
func exCleanMessage(text string) string {
	if exIsCompactSummary(text) {
		return ""
	}
	text = model.SanitizeForTerminal(text)
	// Each wrapper regexp runs only when its tag is there: they are
	// case-insensitive, which Go's regexp cannot search for quickly.
	// Text without a '<' has none, and is not lower-cased to look.
	if strings.IndexByte(text, '<') >= 0 {
		lower := scan.AsciiLower(text)
		for i, re := range exWrapperRes {
			if strings.Contains(lower, exWrapperOpens[i]) {
				text = re.ReplaceAllString(text, "\n")
			}
		}
	}
	if strings.Contains(text, "```") || strings.Contains(text, "~~~") {
		text = exFence.ReplaceAllString(text, "\n")
	}
	if strings.Contains(text, "[") {
		text = exPlaceholders.ReplaceAllString(text, " ")
	}
	var b strings.Builder
	b.Grow(len(text) + 1) // each line is kept or shortened, and ends in "\n"
	for line := range strings.SplitSeq(text, "\n") {
		if exIsNoiseLine(line) || strings.HasPrefix(line, "    ") || strings.HasPrefix(line, "\t") {
			b.WriteByte('\n')
			continue
		}
		b.WriteString(exCodeSpans(line))
		b.WriteByte('\n')
	}
	return b.String()
}

// exCodeSpans replaces each code span of line with exCodeSpan's answer;
// a line without a backtick has none, and the pattern is not run.
func exCodeSpans(line string) string {
	if strings.IndexByte(line, '`') < 0 {
		return line
	}
	return exInlineCode.ReplaceAllStringFunc(line, exCodeSpan)
}

// exCodeSpan keeps a short code span's text (`pnpm` reads as a word in
// "use `pnpm`") and drops long ones, which are code.
func exCodeSpan(span string) string {
	inner := strings.Trim(span, "`")
	if len(inner) <= 40 && !strings.ContainsAny(inner, "(){};=") {
		return inner
	}
	return " "
}

// exListMarker is a bullet or number at the start of a line.
var exListMarker = scan.NewLazyRegexp(`^\s*(?:[-*+•]|\d{1,3}[.)])\s+`)

// exSentences splits cleaned text into trimmed sentences: each line, with
// its list marker removed, split after ".", "!" or "?" when white space
// and an upper-case letter, digit or quote follow (so "e.g. this" and
// URLs stay whole).
func exSentences(text string) []string {
	var out []string
	for line := range strings.SplitSeq(text, "\n") {
		line = exTrimListMarker(line)
		start := 0
		for i := 0; i < len(line); i++ {
			if c := line[i]; c != '.' && c != '!' && c != '?' {
				continue
			}
			j := i + 1
			for j < len(line) && (line[j] == '.' || line[j] == '!' || line[j] == '?') {
				j++
			}
			k := j
			for k < len(line) && (line[k] == ' ' || line[k] == '\t') {
				k++
			}
			if k == j || k >= len(line) {
				continue
			}
			if r, _ := utf8.DecodeRuneInString(line[k:]); unicode.IsUpper(r) || unicode.IsDigit(r) || r == '"' || r == '\'' || r == '(' {
				out = exAppendSentence(out, line[start:j])
				start = k
				i = k - 1
			}
		}
		out = exAppendSentence(out, line[start:])
	}
	return out
}

// exTrimListMarker is exListMarker.ReplaceAllString(line, ""), the
// pattern run only when the line's first byte past white space (\s) can
// open a marker: - * + a digit, or the first byte of •.
func exTrimListMarker(line string) string {
	i := 0
	for i < len(line) && (line[i] == ' ' || line[i] == '\t' || line[i] == '\n' || line[i] == '\f' || line[i] == '\r') {
		i++
	}
	if i == len(line) {
		return line
	}
	switch c := line[i]; {
	case c == '-', c == '*', c == '+', c == 0xE2, '0' <= c && c <= '9':
		return exListMarker.ReplaceAllString(line, "")
	}
	return line
}

// exMaxSentence is the longest sentence the rules read: a memory is one
// short fact, and anything longer is pasted data, not something said.
const exMaxSentence = 1000

func exAppendSentence(out []string, s string) []string {
	s = strings.TrimSpace(s)
	if s == "" || len(s) > exMaxSentence {
		return out
	}
	return append(out, s)
}

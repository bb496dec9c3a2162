package scan

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/memscope/memscope/model"
)

// Rules of the character pass.
const (
	ruleEscapeSequence   RuleID = "terminal-escape-sequence"
	ruleC1Control        RuleID = "terminal-c1-control"
	ruleControlCharacter RuleID = "terminal-control-character"
	ruleBidi             RuleID = "invisible-bidi-control"
	ruleZeroWidth        RuleID = "invisible-zero-width"
	ruleBOM              RuleID = "invisible-bom"
	ruleTags             RuleID = "invisible-tag-characters"
	ruleVariation        RuleID = "invisible-variation-selectors"
)

// maxQuotedBytes bounds how much of an escape sequence an excerpt quotes.
const maxQuotedBytes = 48

// scanCharacters finds terminal controls and invisible Unicode in one pass
// over text.
func scanCharacters(c *hitCollector, text string) {
	for i := 0; i < len(text); {
		b := text[i]
		if b < utf8.RuneSelf {
			if b == '\n' || b == '\t' || (b >= 0x20 && b < 0x7f) || (b == '\r' && i+1 < len(text) && text[i+1] == '\n') {
				i++
				continue
			}
			i = controlHit(c, text, i)
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		switch {
		case r >= 0x80 && r <= 0x9f && size == 2:
			i = controlHit(c, text, i)
			continue
		case model.IsBidiControl(r):
			i = runHit(c, text, i, model.IsBidiControl, ruleBidi, SeverityHigh,
				"bidi control: text displays in another order than the model reads it")
			continue
		case isZeroWidth(r):
			end, runes := runOf(text, i, isZeroWidth)
			if !zeroWidthJoinsScript(text, i, end, runes) {
				addRunHit(c, i, end, runes, ruleZeroWidth, SeverityMedium, "zero-width characters")
			}
			i = end
			continue
		case r == 0xfeff && i > 0:
			addRunHit(c, i, i+size, []rune{r}, ruleBOM, SeverityMedium, "byte order mark inside the text")
		case isTagCharacter(r):
			i = tagHit(c, text, i)
			continue
		case isVariationSelector(r):
			end, runes := runOf(text, i, isVariationSelector)
			if len(runes) > 1 || (r >= 0xe0100 && !isIdeograph(lastRuneBefore(text, i))) {
				addRunHit(c, i, end, runes, ruleVariation, SeverityMedium,
					"variation selectors that render as nothing can carry hidden data")
			}
			i = end
			continue
		}
		i += size
	}
}

// controlHit reports the terminal control at text[i] and returns the index
// past it.
func controlHit(c *hitCollector, text string, i int) int {
	kind, end := model.ControlAt(text, i)
	if kind == model.ControlNone {
		return i + 1
	}
	h := scanHit{category: CategoryTerminalEscape, start: i, end: end, rule: ruleEscapeSequence, severity: SeverityHigh}
	switch kind {
	case model.ControlC0:
		h.rule, h.severity = ruleControlCharacter, SeverityMedium
	case model.ControlC1:
		h.rule = ruleC1Control
	}
	if !c.want(h.rule) {
		return end
	}
	switch h.rule {
	case ruleControlCharacter:
		h.message = fmt.Sprintf("control character U+%04X can rewrite what the terminal shows", text[i])
	case ruleC1Control:
		r, _ := utf8.DecodeRuneInString(text[i:])
		h.message = fmt.Sprintf("C1 control character U+%04X", r)
	default:
		h.message = fmt.Sprintf("terminal escape sequence (%s)", kind)
	}
	h.excerpt = quoteControl(text[i:end])
	c.add(h)
	return end
}

func quoteControl(s string) string {
	if len(s) > maxQuotedBytes {
		return strconv.QuoteToASCII(s[:maxQuotedBytes]) + "…"
	}
	return strconv.QuoteToASCII(s)
}

// runOf returns the end of the run of runes matching in that starts at i,
// and the runes (at most 8 kept, which is enough to name them).
func runOf(text string, i int, in func(rune) bool) (int, []rune) {
	var runes []rune
	for i < len(text) {
		r, size := utf8.DecodeRuneInString(text[i:])
		if !in(r) {
			break
		}
		if len(runes) < 8 {
			runes = append(runes, r)
		}
		i += size
	}
	return i, runes
}

// runHit reports one finding for a run of runes matching in.
func runHit(c *hitCollector, text string, i int, in func(rune) bool, rule RuleID, sev Severity, what string) int {
	end, runes := runOf(text, i, in)
	addRunHit(c, i, end, runes, rule, sev, what)
	return end
}

func addRunHit(c *hitCollector, start, end int, runes []rune, rule RuleID, sev Severity, what string) {
	if !c.want(rule) {
		return
	}
	c.add(scanHit{
		rule:     rule,
		category: CategoryInvisibleUnicode,
		severity: sev,
		start:    start,
		end:      end,
		message:  fmt.Sprintf("%s: %s", what, codePoints(runes)),
		excerpt:  codePoints(runes),
	})
}

// codePoints names runes as "U+200B U+200B …".
func codePoints(runes []rune) string {
	parts := make([]string, 0, len(runes))
	for _, r := range runes {
		parts = append(parts, fmt.Sprintf("U+%04X", r))
	}
	s := strings.Join(parts, " ")
	if len(runes) == 8 {
		s += " …"
	}
	return s
}

func isZeroWidth(r rune) bool {
	return (r >= 0x200b && r <= 0x200d) || r == 0x2060
}

// zeroWidthJoinsScript reports a single joiner used as intended: ZWJ inside
// an emoji sequence (👩‍💻), or ZWJ/ZWNJ between letters of a script that
// needs them (Persian, Indic scripts).
func zeroWidthJoinsScript(text string, start, end int, runes []rune) bool {
	if len(runes) != 1 || (runes[0] != 0x200c && runes[0] != 0x200d) {
		return false
	}
	before := lastRuneBefore(text, start)
	after, _ := utf8.DecodeRuneInString(text[end:])
	if runes[0] == 0x200d && isEmojiPart(before) && isEmojiPart(after) {
		return true
	}
	return usesJoiners(before) && usesJoiners(after)
}

func lastRuneBefore(text string, i int) rune {
	r, _ := utf8.DecodeLastRuneInString(text[:i])
	return r
}

func isEmojiPart(r rune) bool {
	return (r >= 0x1f000 && r <= 0x1faff) || (r >= 0x2300 && r <= 0x23ff) ||
		(r >= 0x2600 && r <= 0x27bf) || r == 0xfe0f || r == 0x2b50 || r == 0x2b55
}

func usesJoiners(r rune) bool {
	return (r >= 0x0600 && r <= 0x06ff) || (r >= 0x0750 && r <= 0x077f) ||
		(r >= 0x0900 && r <= 0x0dff) || (r >= 0xfb50 && r <= 0xfdff) || (r >= 0xfe70 && r <= 0xfefc)
}

func isTagCharacter(r rune) bool { return r >= 0xe0000 && r <= 0xe007f }

func isVariationSelector(r rune) bool {
	return (r >= 0xfe00 && r <= 0xfe0f) || (r >= 0xe0100 && r <= 0xe01ef)
}

func isIdeograph(r rune) bool {
	return (r >= 0x3400 && r <= 0x4dbf) || (r >= 0x4e00 && r <= 0x9fff) ||
		(r >= 0xf900 && r <= 0xfaff) || (r >= 0x20000 && r <= 0x3134f)
}

// emojiTagFlags are the only tag sequences Unicode recommends: the flags
// of England, Scotland and Wales (🏴 + tags + CANCEL TAG).
var emojiTagFlags = map[string]bool{"gbeng": true, "gbsct": true, "gbwls": true}

// tagHit reports a run of tag characters with the ASCII it spells, which is
// how "ASCII smuggling" hides instructions only the model can read.
func tagHit(c *hitCollector, text string, i int) int {
	end := i
	var hidden strings.Builder
	var runes []rune
	cancelled := false
	for end < len(text) {
		r, size := utf8.DecodeRuneInString(text[end:])
		if !isTagCharacter(r) {
			break
		}
		if len(runes) < 8 {
			runes = append(runes, r)
		}
		if r == 0xe007f {
			cancelled = true
		} else if r >= 0xe0020 && r <= 0xe007e {
			hidden.WriteByte(byte(r - 0xe0000))
		}
		end += size
	}
	if cancelled && lastRuneBefore(text, i) == 0x1f3f4 && emojiTagFlags[hidden.String()] || !c.want(ruleTags) {
		return end
	}
	c.add(scanHit{
		rule:     ruleTags,
		category: CategoryInvisibleUnicode,
		severity: SeverityHigh,
		start:    i,
		end:      end,
		message:  fmt.Sprintf("Unicode tag characters hide text %q: %s", excerptText(hidden.String()), codePoints(runes)),
		excerpt:  excerptText(hidden.String()),
	})
	return end
}

package sessions

import (
	"fmt"
	"math"
	"strconv"

	"github.com/memscope/memscope/internal/jsonscan"
	"github.com/memscope/memscope/model"
)

// usageVerdict is what a line contributes to usage.
type usageVerdict uint8

const (
	// usageNone: the line carries no usage ccusage would count.
	usageNone usageVerdict = iota
	// usageCounted: the usage is in the returned value.
	usageCounted
	// usageNotWhole: ccusage would count it, but a token count is not a
	// whole number that fits; reported rather than rounded.
	usageNotWhole
)

// isKind reports whether the value at v starts like kind: '{', '[', '"',
// 'n' for a number, 'b' for a boolean.
func isKind(d []byte, v span, kind byte) bool {
	if !v.present() {
		return false
	}
	c := d[v.start]
	switch kind {
	case 'n':
		return c == '-' || '0' <= c && c <= '9'
	case 'b':
		return c == 't' || c == 'f'
	}
	return c == kind
}

// optionalNonEmpty is ccusage's optional(string, minLength 1): absent, or
// a string that decodes to at least one character (every escape does).
func optionalNonEmpty(d []byte, v span) bool {
	return !v.present() || isKind(d, v, '"') && v.end-v.start > 2
}

// ccusageTimestamp matches ^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$.
func ccusageTimestamp(t []byte) bool {
	const shape = "dddd-dd-ddTdd:dd:dd"
	if len(t) != len(shape)+1 && len(t) != len(shape)+5 {
		return false
	}
	for i := 0; i < len(shape); i++ {
		if shape[i] == 'd' && !isDigit(t[i]) || shape[i] != 'd' && t[i] != shape[i] {
			return false
		}
	}
	rest := t[len(shape):]
	if len(rest) == 5 {
		if rest[0] != '.' || !isDigit(rest[1]) || !isDigit(rest[2]) || !isDigit(rest[3]) {
			return false
		}
		rest = rest[4:]
	}
	return string(rest) == "Z"
}

// ccusageVersion matches ^\d+\.\d+\.\d+ (a prefix: "2.1.330-beta" passes).
func ccusageVersion(v string) bool {
	i := 0
	for part := 0; part < 3; part++ {
		j := i
		for j < len(v) && isDigit(v[j]) {
			j++
		}
		if j == i {
			return false
		}
		i = j
		if part < 2 {
			if i >= len(v) || v[i] != '.' {
				return false
			}
			i++
		}
	}
	return true
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// wholeNumber reads a valid JSON number that is a whole number of at most
// 2^53 in size (exact in both int64 and the doubles ccusage sums in).
func wholeNumber(raw []byte) (int64, bool) {
	if n, ok := jsonscan.Int(raw); ok {
		if n < -1<<53 || n > 1<<53 {
			return 0, false
		}
		return n, true
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	if err != nil || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
		return 0, false
	}
	return int64(f), true
}

// lineUsage applies the rules above to the line just scanned.
func (s *lineScanner) lineUsage() (model.Usage, usageVerdict, string) {
	f, d := &s.f, s.js.Bytes()
	if !f.isObject || !isKind(d, f.message, '{') || !isKind(d, f.msgUsage, '{') {
		return model.Usage{}, usageNone, ""
	}
	if !isKind(d, f.input, 'n') || !isKind(d, f.output, 'n') ||
		f.cacheCreation.present() && !isKind(d, f.cacheCreation, 'n') ||
		f.cacheRead.present() && !isKind(d, f.cacheRead, 'n') {
		return model.Usage{}, usageNone, ""
	}
	if f.speed.present() {
		if sp, ok := s.text(f.speed); !ok || sp != "standard" && sp != "fast" {
			return model.Usage{}, usageNone, ""
		}
	}
	if !isKind(d, f.timestamp, '"') || !ccusageTimestamp(s.textBytes(f.timestamp)) {
		return model.Usage{}, usageNone, ""
	}
	if f.cwd.present() && !isKind(d, f.cwd, '"') ||
		!optionalNonEmpty(d, f.sessionID) || !optionalNonEmpty(d, f.requestID) ||
		!optionalNonEmpty(d, f.msgID) || !optionalNonEmpty(d, f.msgModel) ||
		f.costUSD.present() && !isKind(d, f.costUSD, 'n') ||
		f.apiError.present() && !isKind(d, f.apiError, 'b') ||
		f.msgContent.present() && (!isKind(d, f.msgContent, '[') || f.badContent) {
		return model.Usage{}, usageNone, ""
	}
	if f.version.present() {
		if v, ok := s.text(f.version); !ok || !ccusageVersion(v) {
			return model.Usage{}, usageNone, ""
		}
	}
	// The counts go through an array, not pointers into u: a pointer
	// made u escape, an allocation a line.
	var n [4]int64
	for i, v := range [...]span{f.input, f.output, f.cacheCreation, f.cacheRead} {
		if !v.present() {
			continue
		}
		c, ok := wholeNumber(d[v.start:v.end])
		if !ok {
			name := [...]string{"input_tokens", "output_tokens", "cache_creation_input_tokens", "cache_read_input_tokens"}[i]
			return model.Usage{}, usageNotWhole, fmt.Sprintf("message.usage.%s %.40s is not a whole number of tokens; usage not counted", name, d[v.start:v.end])
		}
		n[i] = c
	}
	u := model.Usage{InputTokens: n[0], OutputTokens: n[1], CacheCreationInputTokens: n[2], CacheReadInputTokens: n[3]}
	return u, usageCounted, ""
}

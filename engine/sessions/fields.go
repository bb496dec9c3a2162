package sessions

import (
	"github.com/memscope/memscope/internal/jsonscan"
	"github.com/memscope/memscope/model"
)

// span is a value's [start, end) in the scanned line; end is 0 when the
// member was absent.
type span struct{ start, end int }

func (v span) present() bool { return v.end > 0 }

// lineFields are the members the report reads: the line's own, those of
// its "message", and those of message.usage. badContent is set when
// message.content is an array with an element that is not an object or
// whose "text" is not a string (ccusage skips such lines).
type lineFields struct {
	typ, subtype, timestamp, sessionID, cwd, requestID, version, costUSD, apiError, message span
	compactMeta, microcompactMeta                                                           span
	// totalCost and startTime are a cost-state record's totalCostUSD and
	// startTime (the client's own running cost of one process).
	totalCost, startTime                           span
	msgID, msgModel, msgUsage, msgContent          span
	input, output, cacheCreation, cacheRead, speed span
	// cache1h is usage.cache_creation.ephemeral_1h_input_tokens (priced
	// at the 1-hour cache-write rate).
	cache1h              span
	badContent, isObject bool
	// earlier is a compact summary record's earlierMessages.
	earlier span
	// usageMembers counts "usage" members of the message; usageOdd says
	// one had a key json.Unmarshal would match to a count regardless of
	// case. Either makes the line one for the model's reader.
	usageMembers int
	usageOdd     bool
	// badLink says a uuid, parentUuid, logicalParentUuid or leafUuid was
	// neither a string nor null, which the model reports.
	badLink bool
}

// lineScanner validates a transcript line with jsonscan and, on the way,
// notes in f the spans of the members the report reads. It walks into
// message, message.usage and message.content; other values are only
// validated. A repeated key keeps the last value whole, as encoding/json
// and JSON.parse do, so nested notes are cleared when a new value starts.
type lineScanner struct {
	js jsonscan.Scanner
	f  lineFields
	// kept has the line's top-level members when js.Keep points at it
	// (Summarizing.KeepTop: the shared pass's other readers take them).
	kept jsonscan.Top
	// usage holds the counts record hands out, so they need no allocation.
	usage model.Usage
	// summaryOnly says the line is read for its summary alone, not for
	// ccusage's usage lines (lineUsage, the pricing): message.content's
	// blocks and message.usage.cache_creation, which only those read
	// (badContent, cache1h), are checked as any other value (Value, a
	// walk with no call a member), not walked into. Stat's summary in
	// the shared pass (a scanWorker without ccusage).
	summaryOnly bool
	// blocks counts the members of content blocks walked (tests).
	blocks int

	topFn, messageFn, usageFn, blockFn, cacheFn jsonscan.MemberFunc
	contentFn                                   jsonscan.ElemFunc
}

func newLineScanner() *lineScanner {
	s := &lineScanner{}
	s.topFn, s.messageFn, s.usageFn, s.blockFn, s.contentFn = s.top, s.messageMember, s.usageMember, s.blockMember, s.contentElem
	s.cacheFn = s.cacheCreationMember
	return s
}

// line validates d as one JSON object, noting the report's members in
// s.f; it returns jsonscan.ErrNotObject for valid JSON of another kind.
func (s *lineScanner) line(d []byte) error {
	s.f = lineFields{}
	err := s.js.Line(d, s.topFn)
	s.f.isObject = err == nil
	return err
}

// top reads a member of the line's object.
func (s *lineScanner) top(key []byte, v, depth int) (int, error) {
	f, d := &s.f, s.js.Bytes()
	var end int
	var err error
	if string(key) == "message" {
		f.msgID, f.msgModel, f.msgUsage, f.msgContent = span{}, span{}, span{}, span{}
		f.input, f.output, f.cacheCreation, f.cacheRead, f.speed, f.cache1h = span{}, span{}, span{}, span{}, span{}, span{}
		f.badContent, f.usageMembers, f.usageOdd = false, 0, false
	}
	if string(key) == "message" && d[v] == '{' {
		end, err = s.js.Object(v, depth, s.messageFn)
	} else if end = s.js.ShortString(v); end == 0 {
		end, err = s.js.Value(v, depth)
	}
	if err != nil {
		return 0, err
	}
	sp := span{v, end}
	switch string(key) {
	case "type":
		f.typ = sp
	case "subtype":
		f.subtype = sp
	case "timestamp":
		f.timestamp = sp
	case "sessionId":
		f.sessionID = sp
	case "cwd":
		f.cwd = sp
	case "requestId":
		f.requestID = sp
	case "version":
		f.version = sp
	case "costUSD":
		f.costUSD = sp
	case "totalCostUSD":
		f.totalCost = sp
	case "startTime":
		f.startTime = sp
	case "isApiErrorMessage":
		f.apiError = sp
	case "message":
		f.message = sp
	case "compactMetadata":
		f.compactMeta = sp
	case "microcompactMetadata":
		f.microcompactMeta = sp
	case "earlierMessages":
		f.earlier = sp
	case "uuid", "parentUuid", "logicalParentUuid", "leafUuid":
		if c := d[v]; c != '"' && c != 'n' {
			f.badLink = true
		}
	}
	return end, nil
}

// messageMember reads a member of the line's message.
func (s *lineScanner) messageMember(key []byte, v, depth int) (int, error) {
	f, d := &s.f, s.js.Bytes()
	var end int
	var err error
	switch {
	case string(key) == "usage":
		f.input, f.output, f.cacheCreation, f.cacheRead, f.speed, f.cache1h = span{}, span{}, span{}, span{}, span{}, span{}
		if d[v] == '{' {
			end, err = s.js.Object(v, depth, s.usageFn)
		} else {
			end, err = s.js.Value(v, depth)
		}
	case string(key) == "content":
		f.badContent = false
		if d[v] == '[' && !s.summaryOnly {
			end, err = s.js.Array(v, depth, s.contentFn)
		} else {
			end, err = s.js.Value(v, depth)
		}
	default:
		if end = s.js.ShortString(v); end == 0 {
			end, err = s.js.Value(v, depth)
		}
	}
	if err != nil {
		return 0, err
	}
	sp := span{v, end}
	switch string(key) {
	case "id":
		f.msgID = sp
	case "model":
		f.msgModel = sp
	case "usage":
		f.msgUsage = sp
		f.usageMembers++
	case "content":
		f.msgContent = sp
	}
	return end, nil
}

// usageMember reads a member of message.usage.
func (s *lineScanner) usageMember(key []byte, v, depth int) (int, error) {
	var end int
	var err error
	if string(key) == "cache_creation" && !s.summaryOnly && s.js.Bytes()[v] == '{' {
		s.f.cache1h = span{}
		end, err = s.js.Object(v, depth, s.cacheFn)
	} else {
		end, err = s.js.Value(v, depth)
	}
	if err != nil {
		return 0, err
	}
	f, sp := &s.f, span{v, end}
	switch string(key) {
	case "input_tokens":
		f.input = sp
	case "output_tokens":
		f.output = sp
	case "cache_creation_input_tokens":
		f.cacheCreation = sp
	case "cache_read_input_tokens":
		f.cacheRead = sp
	case "speed":
		f.speed = sp
	case "cache_creation":
	default:
		f.usageOdd = f.usageOdd || model.OddUsageKey(key)
	}
	return end, nil
}

// cacheCreationMember reads a member of message.usage.cache_creation.
func (s *lineScanner) cacheCreationMember(key []byte, v, depth int) (int, error) {
	end, err := s.js.Value(v, depth)
	if err != nil {
		return 0, err
	}
	if string(key) == "ephemeral_1h_input_tokens" {
		s.f.cache1h = span{v, end}
	}
	return end, nil
}

// contentElem reads an element of message.content, which ccusage wants
// to be an object.
func (s *lineScanner) contentElem(v, depth int) (int, error) {
	if s.js.Bytes()[v] == '{' {
		return s.js.Object(v, depth, s.blockFn)
	}
	s.f.badContent = true
	return s.js.Value(v, depth)
}

// blockMember reads a member of a content block, whose "text" ccusage
// wants to be a string.
func (s *lineScanner) blockMember(key []byte, v, depth int) (int, error) {
	s.blocks++
	if string(key) == "text" && s.js.Bytes()[v] != '"' {
		s.f.badContent = true
	}
	return s.js.Value(v, depth)
}

// text returns the decoded text of the string at v.
func (s *lineScanner) text(v span) (string, bool) {
	if !v.present() {
		return "", false
	}
	t, ok := jsonscan.Text(s.js.Bytes()[v.start:v.end])
	return string(t), ok
}

// textBytes is text without a copy for the usual string with no escapes.
func (s *lineScanner) textBytes(v span) []byte {
	t, _ := jsonscan.Text(s.js.Bytes()[v.start:v.end])
	return t
}

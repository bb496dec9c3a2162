package sessions

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math/bits"
)

// jsonMaxDepth is encoding/json's nesting limit.
const jsonMaxDepth = 10000

// SWAR constants: one bit per byte.
const (
	swarLSB = 0x0101010101010101
	swarMSB = 0x8080808080808080
)

// stopMask flags the bytes of the little-endian word x that end a run of
// plain string text: '"', '\\' and bytes below 0x20. Only the lowest flag
// is exact (borrows can set higher ones), which is all callers use.
func stopMask(x uint64) uint64 {
	q := x ^ (swarLSB * '"')
	b := x ^ (swarLSB * '\\')
	return ((q-swarLSB)&^q | (b-swarLSB)&^b | (x-swarLSB*0x20)&^x) & swarMSB
}

// plainRun returns the offset of the first '"', '\\' or control byte in
// d at or after i (len(d) when there is none), and the OR of the bytes
// passed, whose high bit says whether any was not ASCII.
func plainRun(d []byte, i int) (int, uint64) {
	var hi uint64
	for i+16 <= len(d) {
		x := binary.LittleEndian.Uint64(d[i:])
		y := binary.LittleEndian.Uint64(d[i+8:])
		mx, my := stopMask(x), stopMask(y)
		if mx|my != 0 {
			if mx != 0 {
				hi |= x
				return i + bits.TrailingZeros64(mx)>>3, hi
			}
			hi |= x | y
			return i + 8 + bits.TrailingZeros64(my)>>3, hi
		}
		hi |= x | y
		i += 16
	}
	for ; i < len(d); i++ {
		c := d[i]
		if c == '"' || c == '\\' || c < 0x20 {
			break
		}
		hi |= uint64(c)
	}
	return i, hi
}

// lineBytes reports whether d holds a byte below 0x20 and ORs its bytes
// (whose high bits say whether any was not ASCII), 32 bytes a step.
func lineBytes(d []byte) (control bool, or uint64) {
	const lo = swarLSB * 0x20
	// Reslicing (not indexing) lets the compiler drop the bounds checks.
	for len(d) >= 32 {
		a := binary.LittleEndian.Uint64(d[0:8])
		b := binary.LittleEndian.Uint64(d[8:16])
		c := binary.LittleEndian.Uint64(d[16:24])
		e := binary.LittleEndian.Uint64(d[24:32])
		or |= a | b | c | e
		if ((a-lo)&^a|(b-lo)&^b|(c-lo)&^c|(e-lo)&^e)&swarMSB != 0 {
			return true, or
		}
		d = d[32:]
	}
	for _, c := range d {
		if c < 0x20 {
			return true, or
		}
		or |= uint64(c)
	}
	return false, or
}

// jsonSyntaxError is a syntax error at a byte offset of the scanned line.
type jsonSyntaxError struct {
	off int
	msg string
}

func syntaxErr(off int, format string, args ...any) error {
	return &jsonSyntaxError{off: off, msg: fmt.Sprintf(format, args...)}
}

func unexpected(d []byte, i int) string {
	if i >= len(d) {
		return "unexpected end of line"
	}
	return fmt.Sprintf("unexpected %q", d[i])
}

// jsonScanner validates JSON text held in d. It keeps its container
// stack between lines so a scan allocates nothing in the steady state.
type jsonScanner struct {
	d     []byte
	stack []byte
	// hi ORs every string byte seen; its high bits say whether the text
	// had non-ASCII bytes (and so needs a UTF-8 check).
	hi uint64
	// clean says the text has no byte below 0x20, so strings need no
	// control check and their ends can be found with bytes.IndexByte.
	clean bool
	// bs is the offset of the next '\\' once looked up (len(d) when there
	// is none); it is stale when below the offset being read.
	bs int
	f  lineFields
}

func isHexDigit(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// span is a value's [start, end) in the scanned line; end is 0 when the
// member was absent.
type span struct{ start, end int }

// lineFields are the members the report reads: the line's own, those of
// its "message", and those of message.usage. badContent is set when
// message.content is an array with an element that is not an object or
// whose "text" is not a string (ccusage skips such lines).
type lineFields struct {
	typ, subtype, timestamp, sessionID, cwd, requestID, version, costUSD, apiError, message span
	compactMeta, microcompactMeta                                                           span
	msgID, msgModel, msgUsage, msgContent                                                   span
	input, output, cacheCreation, cacheRead, speed                                          span
	badContent, isObject                                                                    bool
	// usageMembers counts "usage" members of the message; usageOdd says
	// one had a key json.Unmarshal would match to a count regardless of
	// case. Either makes the line one for the model's reader.
	usageMembers int
	usageOdd     bool
	// badLink says a uuid, parentUuid, logicalParentUuid or leafUuid was
	// neither a string nor null, which the model reports.
	badLink bool
}

// level says which object a walk is in, so members are noted only where
// the report looks for them.
type level uint8

const (
	levelTop level = iota
	levelMessage
	levelUsage
	levelBlock
)

// decodeString decodes a raw JSON string.
func decodeString(raw []byte) (string, bool) {
	var t string
	if err := json.Unmarshal(raw, &t); err != nil {
		return "", false
	}
	return t, true
}

func (e *jsonSyntaxError) Error() string {
	return fmt.Sprintf("invalid JSON at byte %d: %s", e.off, e.msg)
}

func (s *jsonScanner) reset(d []byte) {
	s.d, s.stack, s.bs = d, s.stack[:0], -1
	control, or := lineBytes(d)
	s.clean, s.hi = !control, or
}

func (s *jsonScanner) ws(i int) int {
	d := s.d
	for i < len(d) {
		switch d[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// str validates the string at d[i] == '"'. It returns the offset past the
// closing quote and whether the string holds escapes.
func (s *jsonScanner) str(i int) (int, bool, error) {
	if s.clean {
		return s.cleanStr(i)
	}
	d := s.d
	start := i
	i++
	escaped := false
	for {
		var hi uint64
		i, hi = plainRun(d, i)
		s.hi |= hi
		if i >= len(d) {
			return 0, false, syntaxErr(start, "unterminated string")
		}
		switch c := d[i]; {
		case c == '"':
			return i + 1, escaped, nil
		case c == '\\':
			escaped = true
			if i+1 >= len(d) {
				return 0, false, syntaxErr(start, "unterminated string")
			}
			switch d[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(d) || !isHexDigit(d[i+2]) || !isHexDigit(d[i+3]) || !isHexDigit(d[i+4]) || !isHexDigit(d[i+5]) {
					return 0, false, syntaxErr(i, "bad \\u escape")
				}
				i += 6
			default:
				return 0, false, syntaxErr(i, "bad escape \\%c", d[i+1])
			}
		default:
			return 0, false, syntaxErr(i, "control character in string")
		}
	}
}

// cleanStr is str for text without control bytes: it jumps to the next
// quote and backslash with bytes.IndexByte, which is many times faster
// than looking at each byte. The next backslash of the line is kept
// across strings, so a string with no escape costs one search.
func (s *jsonScanner) cleanStr(i int) (int, bool, error) {
	d := s.d
	start := i
	i++
	escaped := false
	q := -1 // the next '"' at or after i, kept across escapes
	for {
		if q < i {
			n := bytes.IndexByte(d[i:], '"')
			if n < 0 {
				return 0, false, syntaxErr(start, "unterminated string")
			}
			q = i + n
		}
		if s.bs < i {
			s.bs = len(d)
			if n := bytes.IndexByte(d[i:], '\\'); n >= 0 {
				s.bs = i + n
			}
		}
		if s.bs > q {
			return q + 1, escaped, nil
		}
		e := s.bs
		escaped = true
		if e+1 >= len(d) {
			return 0, false, syntaxErr(start, "unterminated string")
		}
		switch d[e+1] {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			i = e + 2
		case 'u':
			if e+6 > len(d) || !isHexDigit(d[e+2]) || !isHexDigit(d[e+3]) || !isHexDigit(d[e+4]) || !isHexDigit(d[e+5]) {
				return 0, false, syntaxErr(e, "bad \\u escape")
			}
			i = e + 6
		default:
			return 0, false, syntaxErr(e, "bad escape \\%c", d[e+1])
		}
	}
}

func (s *jsonScanner) digits(i int) int {
	d := s.d
	for i < len(d) && '0' <= d[i] && d[i] <= '9' {
		i++
	}
	return i
}

// number validates the number at d[i].
func (s *jsonScanner) number(i int) (int, error) {
	d := s.d
	start := i
	if d[i] == '-' {
		i++
	}
	switch {
	case i < len(d) && d[i] == '0':
		i++
	case i < len(d) && '1' <= d[i] && d[i] <= '9':
		i = s.digits(i + 1)
	default:
		return 0, syntaxErr(start, "bad number")
	}
	if i < len(d) && d[i] == '.' {
		j := s.digits(i + 1)
		if j == i+1 {
			return 0, syntaxErr(start, "bad number")
		}
		i = j
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		j := s.digits(i)
		if j == i {
			return 0, syntaxErr(start, "bad number")
		}
		i = j
	}
	return i, nil
}

// scalar validates a string, number or literal at d[i].
func (s *jsonScanner) scalar(i int) (int, error) {
	d := s.d
	if i >= len(d) {
		return 0, syntaxErr(i, "unexpected end of line")
	}
	lit := ""
	switch c := d[i]; {
	case c == '"':
		end, _, err := s.str(i)
		return end, err
	case c == '-' || '0' <= c && c <= '9':
		return s.number(i)
	case c == 't':
		lit = "true"
	case c == 'f':
		lit = "false"
	case c == 'n':
		lit = "null"
	default:
		return 0, syntaxErr(i, "%s", unexpected(d, i))
	}
	if len(d)-i < len(lit) || string(d[i:i+len(lit)]) != lit {
		return 0, syntaxErr(i, "bad literal")
	}
	return i + len(lit), nil
}

// key validates `"key" :` at d[i] and returns the key's span (quotes
// included), whether it has escapes, and the offset of the value after it.
func (s *jsonScanner) key(i int) (kstart, kend int, esc bool, next int, err error) {
	d := s.d
	if i >= len(d) || d[i] != '"' {
		return 0, 0, false, 0, syntaxErr(i, "%s, want object key", unexpected(d, i))
	}
	kend, esc, err = s.str(i)
	if err != nil {
		return 0, 0, false, 0, err
	}
	j := s.ws(kend)
	if j >= len(d) || d[j] != ':' {
		return 0, 0, false, 0, syntaxErr(j, "%s, want ':'", unexpected(d, j))
	}
	return i, kend, esc, s.ws(j + 1), nil
}

// value validates the value at d[i] (no leading white space) nested
// under depth open containers and returns the offset just past it. The
// stack is explicit so hostile nesting cannot exhaust the goroutine stack.
func (s *jsonScanner) value(i, depth int) (int, error) {
	d := s.d
	base := len(s.stack)
	for {
		if i >= len(d) {
			return 0, syntaxErr(i, "unexpected end of line")
		}
		switch open := d[i]; open {
		case '{', '[':
			s.stack = append(s.stack, open)
			if depth+len(s.stack)-base > jsonMaxDepth {
				return 0, syntaxErr(i, "nested too deeply")
			}
			i = s.ws(i + 1)
			closer := byte('}')
			if open == '[' {
				closer = ']'
			}
			if i < len(d) && d[i] == closer {
				s.stack = s.stack[:len(s.stack)-1]
				i++
				break
			}
			if open == '{' {
				_, _, _, next, err := s.key(i)
				if err != nil {
					return 0, err
				}
				i = next
			}
			continue
		default:
			var err error
			if i, err = s.scalar(i); err != nil {
				return 0, err
			}
		}
		// A value ended at i: close containers until one wants more.
		for {
			if len(s.stack) == base {
				return i, nil
			}
			i = s.ws(i)
			if i >= len(d) {
				return 0, syntaxErr(i, "unexpected end of line")
			}
			top := s.stack[len(s.stack)-1]
			if d[i] == ',' {
				i = s.ws(i + 1)
				if top == '{' {
					_, _, _, next, err := s.key(i)
					if err != nil {
						return 0, err
					}
					i = next
				}
				break
			}
			if top == '{' && d[i] == '}' || top == '[' && d[i] == ']' {
				s.stack = s.stack[:len(s.stack)-1]
				i++
				continue
			}
			return 0, syntaxErr(i, "%s, want ',' or closing bracket", unexpected(d, i))
		}
	}
}

func (v span) present() bool { return v.end > 0 }

// object validates the object at d[i] == '{' nested under depth open
// containers, noting the members of lv in s.f on the way.
func (s *jsonScanner) object(i, depth int, lv level) (int, error) {
	d := s.d
	if depth+1 > jsonMaxDepth {
		return 0, syntaxErr(i, "nested too deeply")
	}
	i = s.ws(i + 1)
	if i < len(d) && d[i] == '}' {
		return i + 1, nil
	}
	for {
		ks, ke, esc, vs, err := s.key(i)
		if err != nil {
			return 0, err
		}
		key := d[ks+1 : ke-1]
		if esc {
			k, _ := decodeString(d[ks:ke])
			key = []byte(k)
		}
		ve, err := s.member(lv, key, vs, depth+1)
		if err != nil {
			return 0, err
		}
		s.note(lv, key, span{vs, ve})
		var done bool
		if i, done, err = s.after(ve, '}'); done || err != nil {
			return i, err
		}
	}
}

// after reads what follows a member or an element at d[i]: a ',' (more
// to come) or the container's closer. It returns the offset past it and
// whether the container ended.
func (s *jsonScanner) after(i int, closer byte) (int, bool, error) {
	d := s.d
	i = s.ws(i)
	switch {
	case i >= len(d):
		return 0, false, syntaxErr(i, "unexpected end of line")
	case d[i] == ',':
		return s.ws(i + 1), false, nil
	case d[i] == closer:
		return i + 1, true, nil
	}
	return 0, false, syntaxErr(i, "%s, want ',' or '%c'", unexpected(d, i), closer)
}

// member validates the value of member key of an lv object, walking into
// the objects the report reads. A repeated key keeps the last value
// whole, as encoding/json and JSON.parse do, so nested notes are cleared
// first.
func (s *jsonScanner) member(lv level, key []byte, i, depth int) (int, error) {
	d := s.d
	if i >= len(d) {
		return 0, syntaxErr(i, "unexpected end of line")
	}
	f := &s.f
	switch {
	case lv == levelTop && string(key) == "message":
		f.msgID, f.msgModel, f.msgUsage, f.msgContent = span{}, span{}, span{}, span{}
		f.input, f.output, f.cacheCreation, f.cacheRead, f.speed = span{}, span{}, span{}, span{}, span{}
		f.badContent, f.usageMembers, f.usageOdd = false, 0, false
		if d[i] == '{' {
			return s.object(i, depth, levelMessage)
		}
	case lv == levelMessage && string(key) == "usage":
		f.input, f.output, f.cacheCreation, f.cacheRead, f.speed = span{}, span{}, span{}, span{}, span{}
		if d[i] == '{' {
			return s.object(i, depth, levelUsage)
		}
	case lv == levelMessage && string(key) == "content":
		f.badContent = false
		if d[i] == '[' {
			return s.blocks(i, depth)
		}
	case lv == levelBlock && string(key) == "text":
		if d[i] != '"' {
			f.badContent = true
		}
	}
	return s.value(i, depth)
}

// blocks validates message.content, an array at d[i] == '[', checking
// that each element is an object.
func (s *jsonScanner) blocks(i, depth int) (int, error) {
	d := s.d
	if depth+1 > jsonMaxDepth {
		return 0, syntaxErr(i, "nested too deeply")
	}
	i = s.ws(i + 1)
	if i < len(d) && d[i] == ']' {
		return i + 1, nil
	}
	for {
		var end int
		var err error
		if i < len(d) && d[i] == '{' {
			end, err = s.object(i, depth+1, levelBlock)
		} else {
			s.f.badContent = true
			end, err = s.value(i, depth+1)
		}
		if err != nil {
			return 0, err
		}
		var done bool
		if i, done, err = s.after(end, ']'); done || err != nil {
			return i, err
		}
	}
}

// note records the span of a member the report reads.
func (s *jsonScanner) note(lv level, key []byte, v span) {
	f := &s.f
	switch lv {
	case levelTop:
		switch string(key) {
		case "type":
			f.typ = v
		case "subtype":
			f.subtype = v
		case "timestamp":
			f.timestamp = v
		case "sessionId":
			f.sessionID = v
		case "cwd":
			f.cwd = v
		case "requestId":
			f.requestID = v
		case "version":
			f.version = v
		case "costUSD":
			f.costUSD = v
		case "isApiErrorMessage":
			f.apiError = v
		case "message":
			f.message = v
		case "compactMetadata":
			f.compactMeta = v
		case "microcompactMetadata":
			f.microcompactMeta = v
		case "uuid", "parentUuid", "logicalParentUuid", "leafUuid":
			if c := s.d[v.start]; c != '"' && c != 'n' {
				f.badLink = true
			}
		}
	case levelMessage:
		switch string(key) {
		case "id":
			f.msgID = v
		case "model":
			f.msgModel = v
		case "usage":
			f.msgUsage = v
			f.usageMembers++
		case "content":
			f.msgContent = v
		}
	case levelUsage:
		switch string(key) {
		case "input_tokens":
			f.input = v
		case "output_tokens":
			f.output = v
		case "cache_creation_input_tokens":
			f.cacheCreation = v
		case "cache_read_input_tokens":
			f.cacheRead = v
		case "speed":
			f.speed = v
		default:
			f.usageOdd = f.usageOdd || oddUsageKey(key)
		}
	}
}

// line validates d as one JSON value and, when it is an object, notes the
// report's members in s.f.
func (s *jsonScanner) line(d []byte) error {
	s.reset(d)
	s.f = lineFields{}
	i := s.ws(0)
	var end int
	var err error
	if i < len(d) && d[i] == '{' {
		s.f.isObject = true
		end, err = s.object(i, 0, levelTop)
	} else {
		end, err = s.value(i, 0)
	}
	if err != nil {
		return err
	}
	if j := s.ws(end); j != len(d) {
		return syntaxErr(j, "%s after value", unexpected(d, j))
	}
	return nil
}

// valid reports whether d is one valid JSON value, as json.Valid does.
func (s *jsonScanner) valid(d []byte) error {
	s.reset(d)
	i := s.ws(0)
	end, err := s.value(i, 0)
	if err != nil {
		return err
	}
	if j := s.ws(end); j != len(d) {
		return syntaxErr(j, "%s after value", unexpected(d, j))
	}
	return nil
}

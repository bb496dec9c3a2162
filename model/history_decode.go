package model

import (
	"encoding/json"
	"strings"
	"unicode/utf8"
)

// History files grow to hundreds of thousands of lines and encoding/json
// reads them at about 40 MB/s. fastHistoryLine decodes the usual line
// shape directly; anything unusual (a syntax error, an unexpected type, a
// null, a key differing only in case, a repeated paste id) makes it give
// up, and ParseHistoryLine falls back to encoding/json, which then
// produces the same entry or the error. FuzzHistoryLine checks that both
// paths agree.

// jsonScan is a strict cursor over one JSON value.
type jsonScan struct {
	b []byte
	i int
}

// maxSkipDepth bounds nesting in skipped values; deeper input falls back.
const maxSkipDepth = 64

func (s *jsonScan) ws() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

func (s *jsonScan) peek() byte {
	if s.i < len(s.b) {
		return s.b[s.i]
	}
	return 0
}

// stringToken checks the string at the cursor and returns its bytes with
// quotes. plain is true when it has no escapes and is valid UTF-8, so its
// content can be used as is.
func (s *jsonScan) stringToken() (tok []byte, plain, ok bool) {
	if s.peek() != '"' {
		return nil, false, false
	}
	start := s.i
	s.i++
	plain = true
	ascii := true
	for s.i < len(s.b) {
		c := s.b[s.i]
		switch {
		case c == '"':
			s.i++
			tok = s.b[start:s.i]
			if !ascii && !utf8.Valid(tok) {
				plain = false
			}
			return tok, plain, true
		case c == '\\':
			plain = false
			s.i++
			if s.i >= len(s.b) {
				return nil, false, false
			}
			switch s.b[s.i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				s.i++
			case 'u':
				if s.i+5 > len(s.b) || !isHex4(s.b[s.i+1:s.i+5]) {
					return nil, false, false
				}
				s.i += 5
			default:
				return nil, false, false
			}
		case c < 0x20:
			return nil, false, false
		default:
			if c >= 0x80 {
				ascii = false
			}
			s.i++
		}
	}
	return nil, false, false
}

func isHex4(b []byte) bool {
	for _, c := range b {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// interned reads a string value that repeats across lines (project,
// session id), sharing one copy per distinct value.
func (s *jsonScan) interned(pool map[string]string) (string, bool) {
	if pool == nil {
		return s.str()
	}
	start := s.i
	tok, plain, ok := s.stringToken()
	if !ok || !plain {
		s.i = start
		return s.str()
	}
	if v, hit := pool[string(tok[1:len(tok)-1])]; hit {
		return v, true
	}
	v := string(tok[1 : len(tok)-1])
	pool[v] = v
	return v, true
}

// str reads a string value.
func (s *jsonScan) str() (string, bool) {
	tok, plain, ok := s.stringToken()
	if !ok {
		return "", false
	}
	if plain {
		return string(tok[1 : len(tok)-1]), true
	}
	var v string
	if err := json.Unmarshal(tok, &v); err != nil {
		return "", false
	}
	return v, true
}

// number checks a JSON number at the cursor.
func (s *jsonScan) number() bool {
	start := s.i
	if s.peek() == '-' {
		s.i++
	}
	switch c := s.peek(); {
	case c == '0':
		s.i++
	case '1' <= c && c <= '9':
		s.digits()
	default:
		return false
	}
	if s.peek() == '.' {
		s.i++
		if !s.digits() {
			return false
		}
	}
	if c := s.peek(); c == 'e' || c == 'E' {
		s.i++
		if c := s.peek(); c == '+' || c == '-' {
			s.i++
		}
		if !s.digits() {
			return false
		}
	}
	return s.i > start
}

func (s *jsonScan) digits() bool {
	start := s.i
	for s.i < len(s.b) && '0' <= s.b[s.i] && s.b[s.i] <= '9' {
		s.i++
	}
	return s.i > start
}

func (s *jsonScan) literal(word string) bool {
	if len(s.b)-s.i >= len(word) && string(s.b[s.i:s.i+len(word)]) == word {
		s.i += len(word)
		return true
	}
	return false
}

// value checks any value at the cursor and returns its bytes.
func (s *jsonScan) value(depth int) ([]byte, bool) {
	if depth > maxSkipDepth {
		return nil, false
	}
	s.ws()
	start := s.i
	var ok bool
	switch c := s.peek(); {
	case c == '"':
		_, _, ok = s.stringToken()
	case c == '{':
		ok = s.object(func([]byte) bool {
			_, ok := s.value(depth + 1)
			return ok
		})
	case c == '[':
		ok = s.array(func() bool {
			_, ok := s.value(depth + 1)
			return ok
		})
	case c == 't':
		ok = s.literal("true")
	case c == 'f':
		ok = s.literal("false")
	case c == 'n':
		ok = s.literal("null")
	default:
		ok = s.number()
	}
	return s.b[start:s.i], ok
}

// object walks an object at the cursor, calling member with each key with
// the cursor before its value; member must consume the value. key is only
// valid during the call (it is not copied, to save an allocation per key).
func (s *jsonScan) object(member func(key []byte) bool) bool {
	s.ws()
	if s.peek() != '{' {
		return false
	}
	s.i++
	s.ws()
	if s.peek() == '}' {
		s.i++
		return true
	}
	for {
		s.ws()
		tok, plain, ok := s.stringToken()
		if !ok {
			return false
		}
		key := tok[1 : len(tok)-1]
		if !plain {
			var k string
			if json.Unmarshal(tok, &k) != nil {
				return false
			}
			key = []byte(k)
		}
		s.ws()
		if s.peek() != ':' {
			return false
		}
		s.i++
		s.ws()
		if !member(key) {
			return false
		}
		s.ws()
		switch s.peek() {
		case ',':
			s.i++
		case '}':
			s.i++
			return true
		default:
			return false
		}
	}
}

// array walks an array at the cursor; elem must consume one value.
func (s *jsonScan) array(elem func() bool) bool {
	s.ws()
	if s.peek() != '[' {
		return false
	}
	s.i++
	s.ws()
	if s.peek() == ']' {
		s.i++
		return true
	}
	for {
		s.ws()
		if !elem() {
			return false
		}
		s.ws()
		switch s.peek() {
		case ',':
			s.i++
		case ']':
			s.i++
			return true
		default:
			return false
		}
	}
}

// foldsToKnown reports whether key would match one of keys case-insensitively
// without matching exactly: encoding/json would fill the field, so the fast
// path must not guess.
func foldsToKnown(key []byte, keys ...string) bool {
	for _, k := range keys {
		if strings.EqualFold(string(key), k) {
			return true
		}
	}
	return false
}

var historyKeys = []string{"display", "pastedContents", "timestamp", "project", "sessionId", "prompt", "pastedContent", "projectName"}

var pasteKeys = []string{"id", "type", "content", "contentHash", "mediaType", "filename"}

// fastHistoryLine decodes a well-formed history line. ok false means "use
// encoding/json", not "bad line".
// pool, when not nil, shares repeated project and session strings.
func fastHistoryLine(line []byte, lineNo int, pool map[string]string) (e HistoryEntry, ok bool) {
	s := &jsonScan{b: line}
	var display, prompt string
	var hasDisplay, hasPrompt bool
	var project, projectName, session string
	var ts []byte
	var pastes map[PasteID]PastedContent
	// encoding/json merges a repeated object but replaces a repeated
	// array; rather than mimic that, repeats fall back.
	seenMap, seenArray := false, false
	addPaste := func(p PastedContent) bool {
		if _, dup := pastes[p.ID]; dup {
			return false
		}
		if pastes == nil {
			pastes = make(map[PasteID]PastedContent, 1)
		}
		pastes[p.ID] = p
		return true
	}
	okObj := s.object(func(key []byte) bool {
		switch string(key) {
		case "display":
			display, hasDisplay = s.str()
			return hasDisplay
		case "prompt":
			prompt, hasPrompt = s.str()
			return hasPrompt
		case "project":
			v, ok := s.interned(pool)
			project = v
			return ok
		case "projectName":
			v, ok := s.interned(pool)
			projectName = v
			return ok
		case "sessionId":
			v, ok := s.interned(pool)
			session = v
			return ok
		case "timestamp":
			v, ok := s.value(0)
			ts = v
			return ok
		case "pastedContents":
			if seenMap {
				return false
			}
			seenMap = true
			return s.object(func(k []byte) bool {
				p, ok := fastPaste(s, k)
				return ok && addPaste(p)
			})
		case "pastedContent":
			if seenArray {
				return false
			}
			seenArray = true
			n := 0
			return s.array(func() bool {
				n++
				p, ok := fastPaste(s, []byte(itoa(n)))
				return ok && addPaste(p)
			})
		}
		if foldsToKnown(key, historyKeys...) {
			return false
		}
		_, ok := s.value(0)
		return ok
	})
	if !okObj {
		return HistoryEntry{}, false
	}
	s.ws()
	if s.i != len(s.b) {
		return HistoryEntry{}, false
	}
	e = HistoryEntry{Line: lineNo, SessionID: SessionID(session), PastedContents: pastes}
	switch {
	case hasDisplay:
		e.Format, e.Display, e.Project = HistoryFormatCurrent, display, project
		if e.Project == "" {
			e.Project = projectName
		}
	case hasPrompt:
		e.Format, e.Display, e.Project = HistoryFormatSeed, prompt, projectName
		if e.Project == "" {
			e.Project = project
		}
	default:
		return HistoryEntry{}, false
	}
	t, err := parseMillisOrISO(ts)
	if err != nil {
		return HistoryEntry{}, false
	}
	e.Timestamp = t
	return e, true
}

func itoa(n int) string {
	if n >= 0 && n < 10 {
		return string(rune('0' + n))
	}
	var b [20]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return string(b[i:])
}

// fastPaste decodes one paste object at the cursor.
func fastPaste(s *jsonScan, key []byte) (PastedContent, bool) {
	var p PastedContent
	var id []byte
	ok := s.object(func(k []byte) bool {
		switch string(k) {
		case "id":
			v, ok := s.value(0)
			id = v
			return ok
		case "type":
			v, ok := s.str()
			p.Kind = PasteKind(v)
			return ok
		case "content":
			v, ok := s.str()
			p.Content, p.Inline = v, true
			return ok
		case "contentHash":
			if s.literal("null") {
				p.Hash = ""
				return true
			}
			v, ok := s.str()
			p.Hash = PasteHash(v)
			return ok
		case "mediaType":
			v, ok := s.str()
			p.MediaType = v
			return ok
		case "filename":
			v, ok := s.str()
			p.Filename = v
			return ok
		}
		if foldsToKnown(k, pasteKeys...) {
			return false
		}
		_, ok := s.value(0)
		return ok
	})
	if !ok {
		return PastedContent{}, false
	}
	pid, ok := parsePasteID(id)
	if !ok {
		pid, ok = parsePasteID(json.RawMessage(key))
	}
	if !ok {
		return PastedContent{}, false
	}
	p.ID = pid
	if p.Kind == "" {
		p.Kind = PasteText
	}
	return p, true
}

package vault

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/memscope/memscope/model"
)

// decodeHead reads a state line's head. A sync reads the head of every
// file the vault holds, so the form the vault writes (json.Marshal of a
// recordHead: its fields in order, strings without escapes) is read by
// hand, about ten times faster than encoding/json; any other form (an
// escape, another order, a field more) is left to encoding/json, which
// gives the same value.
func decodeHead(b []byte, h *recordHead) error { return decodeHeadIn(b, h, nil) }

// decodeHeadIn is decodeHead taking a follow and its hash state from a
// (nil: allocated each).
func decodeHeadIn(b []byte, h *recordHead, a *headArena) error {
	s := headScan{b: b, a: a}
	if s.parse(h) && s.ok && len(s.b) == 0 {
		return nil
	}
	*h = recordHead{}
	return json.Unmarshal(b, h)
}

// headArena hands out the follows and hash states of many heads from a
// few allocations (a state file holds a head per file of the home).
type headArena struct {
	follows []follow
	bytes   []byte
}

// follow is a new follow.
func (a *headArena) follow() *follow {
	if a == nil {
		return &follow{}
	}
	if len(a.follows) == cap(a.follows) {
		a.follows = make([]follow, 0, 256)
	}
	a.follows = a.follows[:len(a.follows)+1]
	return &a.follows[len(a.follows)-1]
}

// take is n bytes of room.
func (a *headArena) take(n int) []byte {
	if a == nil || n > 4<<10 {
		return make([]byte, n)
	}
	if len(a.bytes)+n > cap(a.bytes) {
		a.bytes = make([]byte, 0, 32<<10)
	}
	b := a.bytes[len(a.bytes) : len(a.bytes)+n : len(a.bytes)+n]
	a.bytes = a.bytes[:len(a.bytes)+n]
	return b
}

// headScan reads the canonical head form; ok turns false at the first
// byte that is not as expected.
type headScan struct {
	b  []byte
	ok bool
	a  *headArena
}

// parse reads a whole head into h.
func (s *headScan) parse(h *recordHead) bool {
	s.ok = true
	s.lit(`{"path":`)
	h.Path = s.str()
	s.lit(`,"kind":`)
	h.Kind = s.kind()
	if s.opt(`,"session":`) {
		h.Session = model.SessionID(s.within(h.Path))
	}
	if s.opt(`,"gone":`) {
		t, err := time.Parse(time.RFC3339Nano, s.str())
		s.ok = s.ok && err == nil
		h.Gone = t
	}
	if s.opt(`,"follow":`) {
		f := s.a.follow()
		s.lit(`{"id":{"dev":`)
		f.ID.Dev = uint64(s.num())
		s.lit(`,"ino":`)
		f.ID.Ino = uint64(s.num())
		s.lit(`,"known":`)
		switch {
		case s.opt("true"):
			f.ID.Known = true
		case s.opt("false"):
		default:
			s.ok = false
		}
		s.lit(`},"size":`)
		f.Size = s.num()
		s.lit(`,"modTime":`)
		f.ModTime = s.num()
		s.lit(`,"closed":`)
		f.Closed = s.num()
		s.lit(`,"closedChunks":`)
		f.ClosedChunks = int(s.num())
		if s.opt(`,"hashState":`) {
			f.HashState = s.base64()
		}
		s.lit("}")
		h.Follow = f
	}
	s.lit("}")
	return s.ok
}

// lit consumes l.
func (s *headScan) lit(l string) {
	if !s.opt(l) {
		s.ok = false
	}
}

// opt consumes l when it comes next.
func (s *headScan) opt(l string) bool {
	if !s.ok || !bytes.HasPrefix(s.b, []byte(l)) {
		return false
	}
	s.b = s.b[len(l):]
	return true
}

// str reads a string with no escape, no control byte and valid UTF-8.
func (s *headScan) str() string { return string(s.raw()) }

// raw reads a string as str does, without making a string of it.
func (s *headScan) raw() []byte {
	if !s.ok || len(s.b) == 0 || s.b[0] != '"' {
		s.ok = false
		return nil
	}
	end := bytes.IndexByte(s.b[1:], '"')
	if end < 0 {
		s.ok = false
		return nil
	}
	v := s.b[1 : 1+end]
	for _, c := range v {
		if c < 0x20 || c == '\\' {
			s.ok = false
			return nil
		}
	}
	if !utf8.Valid(v) {
		s.ok = false
		return nil
	}
	s.b = s.b[2+end:]
	return v
}

// kind reads a Kind, the known ones without a copy.
func (s *headScan) kind() Kind {
	v := s.raw()
	for _, k := range kindList {
		if string(k) == string(v) {
			return k
		}
	}
	return Kind(v)
}

// within reads a string, taken from p when one of p's path elements
// (or its name without .jsonl) is that string: a session id is in its
// files' paths, and is not copied again.
func (s *headScan) within(p string) string {
	v := s.raw()
	for rest := p; rest != ""; {
		el, next, _ := strings.Cut(rest, "/")
		if string(v) == el || string(v) == strings.TrimSuffix(el, ".jsonl") {
			i := len(p) - len(rest)
			return p[i : i+len(v)]
		}
		rest = next
	}
	return string(v)
}

// base64 reads a string of standard base64 into the arena's room.
func (s *headScan) base64() []byte {
	v := s.raw()
	if !s.ok {
		return nil
	}
	out := s.a.take(base64.StdEncoding.DecodedLen(len(v)))
	n, err := base64.StdEncoding.Decode(out, v)
	s.ok = err == nil
	return out[:n:n]
}

// num reads an integer (a minus sign allowed).
func (s *headScan) num() int64 {
	if !s.ok {
		return 0
	}
	n := 0
	if n < len(s.b) && s.b[n] == '-' {
		n++
	}
	for n < len(s.b) && s.b[n] >= '0' && s.b[n] <= '9' {
		n++
	}
	if digits := s.b[:n]; n > 0 && n <= 18 && digits[0] != '-' {
		// Under 10^18: no overflow, ParseInt's value.
		var v int64
		for _, c := range digits {
			v = v*10 + int64(c-'0')
		}
		s.b = s.b[n:]
		return v
	}
	v, err := strconv.ParseInt(string(s.b[:n]), 10, 64)
	if err != nil {
		s.ok = false
		return 0
	}
	s.b = s.b[n:]
	return v
}

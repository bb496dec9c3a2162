package vault

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"strconv"
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
func decodeHead(b []byte, h *recordHead) error {
	s := headScan{b: b}
	if s.parse(h) && s.ok && len(s.b) == 0 {
		return nil
	}
	*h = recordHead{}
	return json.Unmarshal(b, h)
}

// headScan reads the canonical head form; ok turns false at the first
// byte that is not as expected.
type headScan struct {
	b  []byte
	ok bool
}

// parse reads a whole head into h.
func (s *headScan) parse(h *recordHead) bool {
	s.ok = true
	s.lit(`{"path":`)
	h.Path = s.str()
	s.lit(`,"kind":`)
	h.Kind = Kind(s.str())
	if s.opt(`,"session":`) {
		h.Session = model.SessionID(s.str())
	}
	if s.opt(`,"gone":`) {
		t, err := time.Parse(time.RFC3339Nano, s.str())
		s.ok = s.ok && err == nil
		h.Gone = t
	}
	if s.opt(`,"follow":`) {
		f := &follow{}
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
			st, err := base64.StdEncoding.DecodeString(s.str())
			s.ok = s.ok && err == nil
			f.HashState = st
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
func (s *headScan) str() string {
	if !s.ok || len(s.b) == 0 || s.b[0] != '"' {
		s.ok = false
		return ""
	}
	end := bytes.IndexByte(s.b[1:], '"')
	if end < 0 {
		s.ok = false
		return ""
	}
	v := s.b[1 : 1+end]
	for _, c := range v {
		if c < 0x20 || c == '\\' {
			s.ok = false
			return ""
		}
	}
	if !utf8.Valid(v) {
		s.ok = false
		return ""
	}
	s.b = s.b[2+end:]
	return string(v)
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
	v, err := strconv.ParseInt(string(s.b[:n]), 10, 64)
	if err != nil {
		s.ok = false
		return 0
	}
	s.b = s.b[n:]
	return v
}

// Package jsonscan is memscope's one validating JSON scanner, shared by
// the transcript, history and sessions readers.
//
// Those readers read lines of up to hundreds of kilobytes of which they
// need a handful of fields; decoding them with encoding/json would
// allocate and copy every string. A Scanner validates a line exactly as
// json.Valid does (fuzz tests hold it to that) but hands out byte offsets,
// and finds the ends of strings, and whether they are valid, from bitmaps
// of the line's unescaped quotes, escaped bytes and bad bytes made in one
// pass of 64-byte blocks (classify.go, simdjson's first stage), so long
// values and escapes cost little. A reader walks the objects it reads with Object and Array and
// skips the rest with Value; the functions of valid.go walk again, without
// checking, text a Scanner has accepted.
package jsonscan

import (
	"bytes"
	"errors"
	"fmt"
	"math/bits"
)

// MaxDepth is encoding/json's nesting limit, so a line accepted here is a
// line encoding/json accepts.
const MaxDepth = 10000

// Error is a syntax error at a byte offset of the scanned text.
type Error struct {
	Off int
	Msg string
}

func (e *Error) Error() string { return fmt.Sprintf("invalid JSON at byte %d: %s", e.Off, e.Msg) }

func errAt(off int, format string, args ...any) error {
	return &Error{Off: off, Msg: fmt.Sprintf(format, args...)}
}

// ErrNotObject is returned by Line for valid JSON that is not an object.
var ErrNotObject = errors.New("not a JSON object")

func describe(d []byte, i int) string {
	if i >= len(d) {
		return "unexpected end of line"
	}
	return fmt.Sprintf("unexpected %q", d[i])
}

// Scanner validates the JSON text given to Reset. It keeps its container
// stack and its bitmap from one text to the next, so a scan allocates
// nothing in the steady state.
//
// Reset marks, in one pass over the text (64 bytes a step, with AVX2 on
// amd64), the bytes of classify.go: the unescaped quotes, the escaped
// bytes and the bytes a string cannot hold, and every byte that ends a
// run of plain string text ('"', '\\' and the bytes below 0x20). A
// string is then its opening quote to the next unescaped one, checked
// by a few word operations, however long it is and however many escapes
// it holds.
type Scanner struct {
	d     []byte
	stack []byte
	// words has classify.go's bitmaps, word by word; stops has bit i%64
	// of word i/64 set when d[i] is a stop byte, once stopsMade.
	words     []words
	stops     []uint64
	stopsMade bool
	// cls is classify's state.
	cls classifyState
	// high says d has a byte above 0x7F.
	high bool
	// checked is checkedMember, bound once; fn is Members' callback.
	checked MemberFunc
	fn      func(key, val []byte)
	// Keep, when set, is given the top-level members of each line Line
	// accepts (and marked not valid for any other line), as they are
	// walked: no second walk for a reader that wants them.
	Keep *Top
	// keepTop is Keep while Line walks the line's object: Object notes
	// each member of depth 0 there, after the caller's function accepted
	// it (no call a member more).
	keepTop *Top
}

// MemberFunc is called by Object with each member of an object: key is
// its name (decoded when written with escapes; valid only during the
// call), v the offset of its value (v < len(Bytes())) and depth the
// number of containers around that value. It returns the offset just
// past the value, having checked it with Value or walked into it with
// Object or Array; an error stops the walk and is returned by it.
type MemberFunc func(key []byte, v, depth int) (int, error)

// ElemFunc is called by Array with the offset of each element (inside
// the text) and the number of containers around it; it returns the
// offset just past the element, as MemberFunc does.
type ElemFunc func(i, depth int) (int, error)

// Reset starts a scan of d.
func (s *Scanner) Reset(d []byte) {
	s.d, s.stack = d, s.stack[:0]
	// A word a block, and one for the offset len(d) when that starts a
	// block (nothing set in it), so that shortString needs no check.
	n := (len(d) + 63) / 64
	if cap(s.stops) < n+1 {
		s.stops = make([]uint64, n, n+1+n/4)
		s.words = make([]words, n+1, n+1+n/4)
	}
	s.stops, s.words, s.stopsMade = s.stops[:n], s.words[:len(d)/64+1], false
	if len(d)%64 == 0 {
		s.words[n] = words{}
	}
	s.high = classify(blocks, d, s.words, &s.cls)
}

// Bytes is the text being scanned.
func (s *Scanner) Bytes() []byte { return s.d }

// ASCII reports whether the text has only ASCII bytes (so it is valid
// UTF-8 without looking further).
func (s *Scanner) ASCII() bool { return !s.high }

// Line validates d as exactly one JSON value (surrounded by optional
// white space). When it is an object, member is called with each of its
// members in order; a valid value of another kind gives ErrNotObject.
func (s *Scanner) Line(d []byte, member MemberFunc) error {
	s.Reset(d)
	if s.Keep != nil {
		s.Keep.reset(d)
	}
	i := s.ws(0)
	if i >= len(d) {
		return errAt(i, "empty")
	}
	if d[i] != '{' {
		end, err := s.Value(i, 0)
		if err != nil {
			return err
		}
		if err := s.end(end, "value"); err != nil {
			return err
		}
		return ErrNotObject
	}
	s.keepTop = s.Keep
	end, err := s.Object(i, 0, member)
	s.keepTop = nil
	if err != nil {
		return err
	}
	if err := s.end(end, "object"); err != nil {
		return err
	}
	if s.Keep != nil {
		s.Keep.ok = true
	}
	return nil
}

// end checks that only white space follows the value ending at i.
func (s *Scanner) end(i int, what string) error {
	if j := s.ws(i); j != len(s.d) {
		return errAt(j, "%s after %s", describe(s.d, j), what)
	}
	return nil
}

// ws returns the offset of the first byte at or after i that is not JSON
// white space.
func (s *Scanner) ws(i int) int { return SkipWS(s.d, i) }

// String validates the string at d[i] == '"'. It returns the offset past
// its closing quote and whether it holds escapes.
//
// Its errors are those of a search for the closing quote first: a string
// with no quote after a bad byte is "unterminated" (at the opening
// quote); a control byte is reported at the start of the run of plain
// text holding it, a bad escape at its backslash.
//
// A string is read from Reset's bitmaps: its end is the next unescaped
// quote, and it is valid when no bad byte lies before that quote (or is
// it: a \u escape cut short by the quote). No byte of it is looked at, so
// a long text with many escapes costs a few instructions a 64-byte word.
// Anything else (a bad byte, no closing quote, a quote the walk did not
// reach as an opening one) goes to stringStops, which gives the answer
// and its error.
func (s *Scanner) String(i int) (end int, escaped bool, err error) {
	d := s.d
	if uint(i) >= uint(len(d)) || d[i] != '"' || i > 0 && d[i-1] == '\\' {
		return s.stringStops(i)
	}
	j := i + 1
	k := j >> 6
	ws := s.words
	if k >= len(ws) {
		return s.stringStops(i)
	}
	w := &ws[k]
	sh := uint(j & 63)
	if q := w.quote >> sh; q != 0 {
		// The usual string: its closing quote in the same word.
		p := uint(bits.TrailingZeros64(q))
		m := uint64(2)<<p - 1 // bits 0..p
		if w.bad>>sh&m != 0 {
			return s.stringStops(i)
		}
		return j + int(p) + 1, w.esc>>sh&(m>>1) != 0, nil
	}
	if w.bad>>sh != 0 {
		return s.stringStops(i)
	}
	// A long string: the words up to the one with its closing quote or
	// a bad byte, one test each.
	esc := w.esc >> sh
	for k++; k < len(ws); k++ {
		w := &ws[k]
		if w.quote|w.bad != 0 {
			q := w.quote
			p := uint(bits.TrailingZeros64(q))
			m := uint64(2)<<p - 1
			if q == 0 || w.bad&m != 0 {
				break
			}
			return k<<6 + int(p) + 1, esc|w.esc&(m>>1) != 0, nil
		}
		esc |= w.esc
	}
	return s.stringStops(i)
}

// stringEnd is String for a caller that wants only the string's end: the
// long string's words are read with no note of its escapes.
func (s *Scanner) stringEnd(i int) (int, error) {
	d, ws := s.d, s.words
	if uint(i) < uint(len(d)) && d[i] == '"' && (i == 0 || d[i-1] != '\\') {
		j := i + 1
		if k := j >> 6; k < len(ws) {
			w := &ws[k]
			sh := uint(j & 63)
			if w.quote>>sh == 0 && w.bad>>sh == 0 {
				// Two words a step while neither has a quote or a bad
				// byte, then one.
				for k+2 < len(ws) {
					a, b := &ws[k+1], &ws[k+2]
					if a.quote|a.bad|b.quote|b.bad != 0 {
						break
					}
					k += 2
				}
				for k++; k < len(ws); k++ {
					w := &ws[k]
					if w.quote|w.bad != 0 {
						q := w.quote
						p := uint(bits.TrailingZeros64(q))
						if q == 0 || w.bad&(uint64(2)<<p-1) != 0 {
							break
						}
						return k<<6 + int(p) + 1, nil
					}
				}
			}
		}
	}
	end, _, err := s.String(i)
	return end, err
}

// shortString is String's usual case, small enough to be inlined where
// keys and values are read: the string at d[i] == '"', d[i-1] not a
// backslash, that ends in the word of its first byte; end is 0 for any
// other, which String answers. i < len(d).
func (s *Scanner) shortString(i int) (end int, escaped bool) {
	j := i + 1
	w := &s.words[j>>6] // there is a word for offset len(d)
	// q-1 &^ q are the bits below q's lowest (the string's bytes), q ^
	// q-1 those and the quote's.
	if q := w.quote >> (j & 63); q != 0 && w.bad>>(j&63)&(q^(q-1)) == 0 {
		return j + bits.TrailingZeros64(q) + 1, w.esc>>(j&63)&(q-1)&^q != 0
	}
	return 0, false
}

// ShortString is Value's answer for the usual value, a string that ends
// in the 64-byte word of its first byte: the offset just past it when
// the value at i (where a member's or an element's value starts, so no
// backslash escapes d[i]) is such a string and valid, else 0, for Value
// to answer. Small enough to be inlined, it spares a reader of many
// string members Value's call.
func (s *Scanner) ShortString(i int) int {
	if d := s.d; uint(i) < uint(len(d)) && d[i] == '"' {
		j := i + 1
		w := &s.words[j>>6]
		if q := w.quote >> (j & 63); q != 0 && w.bad>>(j&63)&(q^(q-1)) == 0 {
			return j + bits.TrailingZeros64(q) + 1
		}
	}
	return 0
}

// stringStops is String over the stop bitmap alone, with the current
// word in a register: a good escape clears its backslash's mark (and the
// mark of the quote or backslash it escapes, the next one), with no
// search from the escape's end; the first stop that is neither the
// closing quote nor a good escape hands the string to stringWalk, which
// gives the answer and its error.
func (s *Scanner) stringStops(i int) (end int, escaped bool, err error) {
	d, stops := s.d, s.stopBitmap()
	k := (i + 1) >> 6
	if k >= len(stops) {
		return s.stringWalk(i)
	}
	w := stops[k] >> uint((i+1)&63) << uint((i+1)&63)
	// skip says the first mark of the next word is an escaped byte.
	skip := false
	for {
		for w == 0 {
			if k++; k >= len(stops) {
				return s.stringWalk(i)
			}
			w = stops[k]
			if skip {
				w &= w - 1
				skip = false
			}
		}
		p := k<<6 + bits.TrailingZeros64(w)
		switch d[p] {
		case '"':
			return p + 1, escaped, nil
		case '\\':
			if p+1 >= len(d) {
				return s.stringWalk(i)
			}
			w &= w - 1
			switch e := d[p+1]; {
			case e == '"' || e == '\\':
				// The escaped byte's mark is the next one: in w, or the
				// first of the next word.
				if w != 0 {
					w &= w - 1
				} else {
					skip = true
				}
			case isShortEscape[e]:
			case e == 'u' && p+6 <= len(d) && isHex[d[p+2]] && isHex[d[p+3]] && isHex[d[p+4]] && isHex[d[p+5]]:
			default:
				return s.stringWalk(i)
			}
			escaped = true
		default:
			return s.stringWalk(i)
		}
	}
}

// isShortEscape are the bytes after a backslash of a two-byte escape
// other than a quote or a backslash (which are marks themselves).
var isShortEscape = func() (t [256]bool) {
	for _, c := range []byte("/bfnrt") {
		t[c] = true
	}
	return t
}()

// stringWalk is String walking from stop to stop, each search starting
// where the last escape ended: every escape in turn, and the first bad
// byte's error.
func (s *Scanner) stringWalk(i int) (end int, escaped bool, err error) {
	d := s.d
	run := i + 1 // the start of the current run of plain text
	for {
		p := s.plain(run)
		if p >= len(d) {
			return 0, false, errAt(i, "unterminated string")
		}
		switch d[p] {
		case '"':
			return p + 1, escaped, nil
		case '\\':
			escaped = true
			if p+1 < len(d) {
				switch d[p+1] {
				case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
					run = p + 2
					continue
				case 'u':
					if p+6 <= len(d) && isHex[d[p+2]] && isHex[d[p+3]] && isHex[d[p+4]] && isHex[d[p+5]] {
						run = p + 6
						continue
					}
				}
			}
			if bytes.IndexByte(d[p+1:], '"') < 0 {
				return 0, false, errAt(i, "unterminated string")
			}
			if p+1 < len(d) && d[p+1] == 'u' {
				return 0, false, errAt(p, "bad \\u escape")
			}
			return 0, false, errAt(p, "bad escape \\%c", d[p+1])
		default: // a control byte
			if bytes.IndexByte(d[p:], '"') < 0 {
				return 0, false, errAt(i, "unterminated string")
			}
			return 0, false, errAt(run, "control character in string")
		}
	}
}

// stopBitmap makes the stop bitmap of the text, once.
func (s *Scanner) stopBitmap() []uint64 {
	if !s.stopsMade {
		stopBits(s.d, s.stops)
		s.stopsMade = true
	}
	return s.stops
}

// plain returns the offset of the first stop byte ('"', '\\' or a byte
// below 0x20) at or after i, len(d) when there is none.
func (s *Scanner) plain(i int) int {
	s.stopBitmap()
	k := i >> 6
	if k >= len(s.stops) {
		return len(s.d)
	}
	if w := s.stops[k] >> uint(i&63); w != 0 {
		return i + bits.TrailingZeros64(w)
	}
	for k++; k < len(s.stops); k++ {
		if w := s.stops[k]; w != 0 {
			return k<<6 + bits.TrailingZeros64(w)
		}
	}
	return len(s.d)
}

// isHex are the hex digits.
var isHex = func() (t [256]bool) {
	for _, c := range []byte("0123456789abcdefABCDEF") {
		t[c] = true
	}
	return t
}()

func (s *Scanner) digits(i int) int {
	d := s.d
	for i < len(d) && '0' <= d[i] && d[i] <= '9' {
		i++
	}
	return i
}

// number validates the number at d[i].
func (s *Scanner) number(i int) (int, error) {
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
		return 0, errAt(start, "bad number")
	}
	if i < len(d) && d[i] == '.' {
		j := s.digits(i + 1)
		if j == i+1 {
			return 0, errAt(start, "bad number")
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
			return 0, errAt(start, "bad number")
		}
		i = j
	}
	return i, nil
}

// scalar validates a string, number or literal at d[i], i < len(d).
func (s *Scanner) scalar(i int) (int, error) {
	d := s.d
	lit := ""
	switch c := d[i]; {
	case c == '"':
		if i == 0 || d[i-1] != '\\' {
			if end, _ := s.shortString(i); end != 0 {
				return end, nil
			}
		}
		return s.stringEnd(i)
	case c == '-' || '0' <= c && c <= '9':
		return s.number(i)
	case c == 't':
		lit = "true"
	case c == 'f':
		lit = "false"
	case c == 'n':
		lit = "null"
	default:
		return 0, errAt(i, "%s", describe(d, i))
	}
	if len(d)-i < len(lit) || string(d[i:i+len(lit)]) != lit {
		return 0, errAt(i, "bad literal")
	}
	return i + len(lit), nil
}

// key validates `"name" :` at d[i]. It returns the name's span [ks, ke)
// (quotes included), whether it has escapes, and the offset of the value
// after it (past white space), which is inside the text.
func (s *Scanner) key(i int) (ks, ke int, escaped bool, v int, err error) {
	d := s.d
	if i >= len(d) || d[i] != '"' {
		return 0, 0, false, 0, errAt(i, "%s, want object key", describe(d, i))
	}
	// The key's byte before is '{', ',' or white space: not a backslash.
	if ke, escaped = s.shortString(i); ke == 0 {
		ke, escaped, err = s.String(i)
	}
	if err != nil {
		return 0, 0, false, 0, err
	}
	j := s.ws(ke)
	if j >= len(d) || d[j] != ':' {
		return 0, 0, false, 0, errAt(j, "%s, want ':'", describe(d, j))
	}
	if v = s.ws(j + 1); v >= len(d) {
		return 0, 0, false, 0, errAt(v, "unexpected end of line")
	}
	return i, ke, escaped, v, nil
}

// memberValue is key for Value, which wants only the offset of the
// member's value: the usual `"name":` with no white space around the
// colon, whose name ends in the word of its first byte, is read inline
// with no more than shortString; any other goes to key.
func (s *Scanner) memberValue(i int) (int, error) {
	d := s.d
	if i < len(d) && d[i] == '"' {
		if ke, _ := s.shortString(i); ke != 0 && ke+1 < len(d) && d[ke] == ':' && d[ke+1] > ' ' {
			return ke + 1, nil
		}
	}
	_, _, _, v, err := s.key(i)
	return v, err
}

// Value validates the value at d[i] (no leading white space) inside depth
// open containers and returns the offset just past it. Its containers are
// tracked on an explicit stack, so hostile nesting cannot exhaust the
// goroutine stack.
func (s *Scanner) Value(i, depth int) (int, error) {
	d := s.d
	base := len(s.stack)
	for {
		if i >= len(d) {
			return 0, errAt(i, "unexpected end of line")
		}
		switch open := d[i]; open {
		case '{', '[':
			s.stack = append(s.stack, open)
			if depth+len(s.stack)-base > MaxDepth {
				return 0, errAt(i, "nested too deeply")
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
				v, err := s.memberValue(i)
				if err != nil {
					return 0, err
				}
				i = v
			}
			continue
		case '"':
			// The usual string, as scalar's first test, inlined.
			if end, _ := s.shortString(i); end != 0 && (i == 0 || d[i-1] != '\\') {
				i = end
				break
			}
			fallthrough
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
				return 0, errAt(i, "unexpected end of line")
			}
			top := s.stack[len(s.stack)-1]
			if d[i] == ',' {
				i = s.ws(i + 1)
				if top == '{' {
					v, err := s.memberValue(i)
					if err != nil {
						return 0, err
					}
					i = v
				}
				break
			}
			if top == '{' && d[i] == '}' || top == '[' && d[i] == ']' {
				s.stack = s.stack[:len(s.stack)-1]
				i++
				continue
			}
			return 0, errAt(i, "%s, want ',' or closing bracket", describe(d, i))
		}
	}
}

// Object validates the object at d[i] == '{' inside depth open
// containers, calling member with each member in order, and returns the
// offset just past it. A repeated name is passed each time; readers keep
// the last, as encoding/json does.
func (s *Scanner) Object(i, depth int, member MemberFunc) (int, error) {
	d := s.d
	if depth >= MaxDepth {
		return 0, errAt(i, "nested too deeply")
	}
	i = s.ws(i + 1)
	if i < len(d) && d[i] == '}' {
		return i + 1, nil
	}
	for {
		// The usual `"name":` as memberValue reads it, else key.
		var ke, v int
		var esc bool
		if i < len(d) && d[i] == '"' {
			if ke, esc = s.shortString(i); ke == 0 || ke+1 >= len(d) || d[ke] != ':' || d[ke+1] <= ' ' {
				ke = 0
			}
			v = ke + 1
		}
		ks := i
		if ke == 0 {
			var err error
			if ks, ke, esc, v, err = s.key(i); err != nil {
				return 0, err
			}
		}
		key := d[ks+1 : ke-1]
		if esc {
			key = unquoteBytes(d[ks:ke])
		}
		end, err := member(key, v, depth+1)
		if err != nil {
			return 0, err
		}
		if depth == 0 && s.keepTop != nil {
			s.keepTop.add(key, v, end)
		}
		if end < len(d) && d[end] == ',' {
			// next's usual answer, inline.
			i = s.ws(end + 1)
			continue
		}
		var done bool
		if i, done, err = s.next(end, '}'); done || err != nil {
			return i, err
		}
	}
}

// Array validates the array at d[i] == '[' inside depth open containers,
// calling elem with each element in order, and returns the offset just
// past it.
func (s *Scanner) Array(i, depth int, elem ElemFunc) (int, error) {
	d := s.d
	if depth >= MaxDepth {
		return 0, errAt(i, "nested too deeply")
	}
	i = s.ws(i + 1)
	if i < len(d) && d[i] == ']' {
		return i + 1, nil
	}
	for {
		if i >= len(d) {
			return 0, errAt(i, "unexpected end of line")
		}
		end, err := elem(i, depth+1)
		if err != nil {
			return 0, err
		}
		var done bool
		if i, done, err = s.next(end, ']'); done || err != nil {
			return i, err
		}
	}
}

// next reads what follows a member or an element ending at i: a ',' (more
// to come, the offset returned is that of the next one) or the
// container's closer (done, the offset is past it).
func (s *Scanner) next(i int, closer byte) (int, bool, error) {
	d := s.d
	i = s.ws(i)
	switch {
	case i >= len(d):
		return 0, false, errAt(i, "unexpected end of line")
	case d[i] == ',':
		return s.ws(i + 1), false, nil
	case d[i] == closer:
		return i + 1, true, nil
	}
	return 0, false, errAt(i, "%s, want ',' or '%c'", describe(d, i), closer)
}

// Members is Line for a reader that wants each member's raw value: fn is
// called with the name and the bytes of each member's value, in order,
// once the value is validated; fn must not keep key.
func (s *Scanner) Members(d []byte, fn func(key, val []byte)) error {
	if s.checked == nil {
		s.checked = s.checkedMember
	}
	s.fn = fn
	err := s.Line(d, s.checked)
	s.fn = nil
	return err
}

func (s *Scanner) checkedMember(key []byte, v, depth int) (int, error) {
	end, err := s.Value(v, depth)
	if err == nil {
		s.fn(key, s.d[v:end])
	}
	return end, err
}

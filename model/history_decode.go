package model

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/memscope/memscope/internal/jsonscan"
)

// History files grow to hundreds of thousands of lines and encoding/json
// reads them at about 40 MB/s. historyDecoder reads the usual line shape
// with jsonscan; anything unusual (a syntax error, an unexpected type, a
// null, a key differing only in case, a repeated paste id) makes it give
// up, and ParseHistoryLine falls back to encoding/json, which then
// produces the same entry or the error. FuzzHistoryLine checks that both
// paths agree.

// errFallback stops a walk: the line is one for encoding/json.
var errFallback = errors.New("history line left to encoding/json")

// historyDecoder reads history lines, keeping its scanner and callbacks
// from one line to the next.
type historyDecoder struct {
	js jsonscan.Scanner
	// pool, when not nil, shares repeated project and session strings.
	pool map[string]string
	// counts checks the strings a count does not read (display, prompt,
	// project, session, a paste's content) without making them
	// (HistoryTail.Counts).
	counts bool
	// sums makes the display (or prompt) only for the first entry of
	// each session, and no paste's content (HistoryTail.Sums): into are
	// the sums the entries go to (a session they hold has had its first
	// entry), and at is where the last line's session is in them
	// (HistorySums.addAt: sessionNew, or sessionUnknown when the line was
	// not read by the decoder for them).
	sums bool
	into *HistorySums
	at   int
	// scratch holds the current line's pastes when the decoder sums.
	scratch map[PasteID]PastedContent

	topFn, pasteMapFn, pasteFn jsonscan.MemberFunc
	pasteElemFn                jsonscan.ElemFunc
	cur                        historyState
}

// historyState is what a historyDecoder learns from the current line.
type historyState struct {
	display, prompt       string
	hasDisplay, hasPrompt bool
	// texts are the display's and the prompt's tokens when the decoder
	// sums: as token gives them (raw when not plain), made into the
	// entry's Display only for a session's first entry.
	texts                         [2]summedText
	project, projectName, session string
	// projects are the project's and projectName's tokens when the
	// decoder sums (lazy): made into strings only for an entry whose
	// project the sums keep (a session's first, one with pastes).
	projects [2]summedText
	lazy     [2]bool
	// sessionTok is the session's token when the decoder sums into a
	// HistorySums (lazySession): made by sessionAt.
	sessionTok  summedText
	lazySession bool
	ts          []byte
	pastes      map[PasteID]PastedContent
	// encoding/json merges a repeated object but replaces a repeated
	// array; rather than mimic that, repeats fall back.
	seenMap, seenArray bool
	// n numbers the elements of pastedContent.
	n     int
	paste PastedContent
	id    []byte
}

func newHistoryDecoder(pool map[string]string) *historyDecoder {
	h := &historyDecoder{pool: pool}
	h.topFn, h.pasteMapFn, h.pasteFn, h.pasteElemFn = h.top, h.pasteMember, h.pasteField, h.pasteElem
	return h
}

// fastHistoryLine decodes a well-formed history line. ok false means "use
// encoding/json", not "bad line".
func fastHistoryLine(line []byte, lineNo int, pool map[string]string) (HistoryEntry, bool) {
	return newHistoryDecoder(pool).line(line, lineNo)
}

func (h *historyDecoder) line(line []byte, lineNo int) (HistoryEntry, bool) {
	h.cur = historyState{}
	if h.js.Line(line, h.topFn) != nil {
		return HistoryEntry{}, false
	}
	c := &h.cur
	// first: the sums make this session's display (its first entry).
	first, at := false, sessionUnknown
	if h.into != nil {
		at = h.sessionAt()
		first = c.session != "" && at == sessionNew
	}
	if (c.lazy[0] || c.lazy[1]) && (len(c.pastes) > 0 || first) {
		// The sums keep this entry's project: made as interned makes it.
		c.project, c.projectName = h.made(0), h.made(1)
	}
	e := HistoryEntry{Line: lineNo, SessionID: SessionID(c.session), PastedContents: c.pastes}
	switch {
	case c.hasDisplay:
		e.Format, e.Display, e.Project = HistoryFormatCurrent, c.display, c.project
		if e.Project == "" {
			e.Project = c.projectName
		}
	case c.hasPrompt:
		e.Format, e.Display, e.Project = HistoryFormatSeed, c.prompt, c.projectName
		if e.Project == "" {
			e.Project = c.project
		}
	default:
		return HistoryEntry{}, false
	}
	t, err := parseMillisOrISO(c.ts)
	if err != nil {
		return HistoryEntry{}, false
	}
	e.Timestamp = t
	h.at = at
	if first {
		t := c.texts[0]
		if e.Format == HistoryFormatSeed {
			t = c.texts[1]
		}
		e.Display = string(t.text)
		if !t.plain {
			e.Display, _ = jsonscan.Unquote(t.text)
		}
	}
	return e, true
}

// summedText is a display or prompt's token (historyDecoder.sums).
type summedText struct {
	text  []byte
	plain bool
}

// prompt reads a display (k 0) or prompt (k 1): checked, made only when
// the decoder neither counts nor sums (then kept as its token).
func (h *historyDecoder) prompt(v, k int) (string, int, error) {
	if !h.sums {
		return h.checked(v)
	}
	text, plain, end, err := h.token(v)
	if err == nil {
		h.cur.texts[k] = summedText{text, plain}
	}
	return "", end, err
}

// str reads the string at v (an offset Object or Array gave), as encoding/json decodes it.
func (h *historyDecoder) str(v int) (string, int, error) {
	text, plain, end, err := h.token(v)
	if err != nil {
		return "", 0, err
	}
	if plain {
		return string(text), end, nil
	}
	s, _ := jsonscan.Unquote(text)
	return s, end, nil
}

// token checks the string at v. plain says it has no escape and is valid
// UTF-8, so text is its content as is; otherwise text is the raw string.
func (h *historyDecoder) token(v int) (text []byte, plain bool, end int, err error) {
	d := h.js.Bytes()
	if d[v] != '"' {
		return nil, false, 0, errFallback
	}
	end, escaped, err := h.js.String(v)
	if err != nil {
		return nil, false, 0, err
	}
	body := d[v+1 : end-1]
	if escaped || !h.js.ASCII() && !utf8.Valid(body) {
		return d[v:end], false, end, nil
	}
	return body, true, end, nil
}

// checked is str for a string a count does not read: checked as str
// checks it, made only when the decoder does not just count (nor sum).
func (h *historyDecoder) checked(v int) (string, int, error) {
	if !h.counts && !h.sums {
		return h.str(v)
	}
	_, _, end, err := h.token(v)
	return "", end, err
}

// interned reads a string value that repeats across lines (project,
// session id), sharing one copy per distinct value.
func (h *historyDecoder) interned(v int) (string, int, error) {
	if h.counts {
		return h.checked(v)
	}
	if h.pool == nil {
		return h.str(v)
	}
	text, plain, end, err := h.token(v)
	if err != nil || !plain {
		return h.str(v)
	}
	if s, hit := h.pool[string(text)]; hit {
		return s, end, nil
	}
	s := string(text)
	h.pool[s] = s
	return s, end, nil
}

// Where a line's session is in the sums (historyDecoder.at).
const (
	sessionNew     = -1 // not in them yet: its first entry
	sessionUnknown = -2 // not looked up
)

// sessionAt makes the session of the line (its token kept by top) and
// says where it is in the sums: one lookup in their index, which also
// gives the string of a session they hold (no pool lookup), and which
// addAt then need not do again.
func (h *historyDecoder) sessionAt() int {
	c := &h.cur
	if !c.lazySession {
		return sessionNew
	}
	t := c.sessionTok
	if t.plain {
		if h.into.at == nil {
			h.into.index()
		}
		if k, ok := h.into.at[SessionID(t.text)]; ok {
			c.session = string(h.into.Sessions[k].ID)
			return k
		}
		if s, hit := h.pool[string(t.text)]; hit {
			c.session = s
		} else {
			c.session = string(t.text)
			h.pool[c.session] = c.session
		}
	} else {
		c.session, _ = jsonscan.Unquote(t.text)
	}
	if c.session == "" {
		return sessionNew
	}
	if h.into.at == nil {
		h.into.index()
	}
	if k, ok := h.into.at[SessionID(c.session)]; ok {
		return k
	}
	return sessionNew
}

// lazyProject checks the project (k 0) or projectName (k 1) at v and
// keeps its token for made: when the decoder sums, most entries' project
// is never kept (only a session's first entry's, and those with pastes),
// and its lookup in the pool was a sixth of the read.
func (h *historyDecoder) lazyProject(v, k int) (int, error) {
	text, plain, end, err := h.token(v)
	if err != nil {
		return 0, err
	}
	h.cur.projects[k], h.cur.lazy[k] = summedText{text, plain}, true
	return end, nil
}

// made is the string of the project (k 0) or projectName (k 1) token
// lazyProject kept, as interned makes it ("" when there was none).
func (h *historyDecoder) made(k int) string {
	c := &h.cur
	if !c.lazy[k] {
		if k == 0 {
			return c.project
		}
		return c.projectName
	}
	t := c.projects[k]
	if !t.plain {
		s, _ := jsonscan.Unquote(t.text)
		return s
	}
	if s, hit := h.pool[string(t.text)]; hit {
		return s
	}
	s := string(t.text)
	h.pool[s] = s
	return s
}

var historyKeys = []string{"display", "pastedContents", "timestamp", "project", "sessionId", "prompt", "pastedContent", "projectName"}

var pasteKeys = []string{"id", "type", "content", "contentHash", "mediaType", "filename"}

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

// top reads a member of the line's object.
func (h *historyDecoder) top(key []byte, v, depth int) (end int, err error) {
	c, d := &h.cur, h.js.Bytes()
	switch string(key) {
	case "display":
		c.display, end, err = h.prompt(v, 0)
		c.hasDisplay = err == nil
		return end, err
	case "prompt":
		c.prompt, end, err = h.prompt(v, 1)
		c.hasPrompt = err == nil
		return end, err
	case "project":
		if h.sums && h.pool != nil {
			return h.lazyProject(v, 0)
		}
		c.project, end, err = h.interned(v)
		return end, err
	case "projectName":
		if h.sums && h.pool != nil {
			return h.lazyProject(v, 1)
		}
		c.projectName, end, err = h.interned(v)
		return end, err
	case "sessionId":
		if h.into != nil && h.pool != nil {
			text, plain, end, err := h.token(v)
			if err == nil {
				c.sessionTok, c.lazySession = summedText{text, plain}, true
			}
			return end, err
		}
		c.session, end, err = h.interned(v)
		return end, err
	case "timestamp":
		end, err = h.js.Value(v, depth)
		if err == nil {
			c.ts = d[v:end]
		}
		return end, err
	case "pastedContents":
		if c.seenMap || d[v] != '{' {
			return 0, errFallback
		}
		c.seenMap = true
		return h.js.Object(v, depth, h.pasteMapFn)
	case "pastedContent":
		if c.seenArray || d[v] != '[' {
			return 0, errFallback
		}
		c.seenArray = true
		return h.js.Array(v, depth, h.pasteElemFn)
	}
	if foldsToKnown(key, historyKeys...) {
		return 0, errFallback
	}
	return h.js.Value(v, depth)
}

// pasteMember reads one paste of pastedContents, keyed by its id.
func (h *historyDecoder) pasteMember(key []byte, v, depth int) (int, error) {
	return h.paste(v, depth, key)
}

// pasteElem reads one paste of pastedContent, numbered from 1.
func (h *historyDecoder) pasteElem(v, depth int) (int, error) {
	h.cur.n++
	return h.paste(v, depth, strconv.AppendInt(nil, int64(h.cur.n), 10))
}

// paste reads the paste object at v; key stands for its id when it has
// none of its own.
func (h *historyDecoder) paste(v, depth int, key []byte) (int, error) {
	c := &h.cur
	if h.js.Bytes()[v] != '{' {
		return 0, errFallback
	}
	c.paste, c.id = PastedContent{}, nil
	end, err := h.js.Object(v, depth, h.pasteFn)
	if err != nil {
		return 0, err
	}
	p := c.paste
	pid, ok := parsePasteID(c.id)
	if !ok {
		pid, ok = parsePasteID(json.RawMessage(key))
	}
	if !ok {
		return 0, errFallback
	}
	p.ID = pid
	if p.Kind == "" {
		p.Kind = PasteText
	}
	if _, dup := c.pastes[p.ID]; dup {
		return 0, errFallback
	}
	if c.pastes == nil {
		if !h.sums {
			c.pastes = make(map[PasteID]PastedContent, 1)
		} else {
			// Summed at once, never kept: one map for every line.
			if h.scratch == nil {
				h.scratch = make(map[PasteID]PastedContent, 1)
			}
			clear(h.scratch)
			c.pastes = h.scratch
		}
	}
	c.pastes[p.ID] = p
	return end, nil
}

// kind reads a paste's type: the kinds the client writes without making
// a string for each paste.
func (h *historyDecoder) kind(v int) (PasteKind, int, error) {
	text, plain, end, err := h.token(v)
	switch {
	case err != nil:
		return "", 0, err
	case plain && string(text) == string(PasteText):
		return PasteText, end, nil
	case plain && string(text) == string(PasteImage):
		return PasteImage, end, nil
	}
	s, end, err := h.str(v)
	return PasteKind(s), end, err
}

// pasteField reads a member of a paste object.
func (h *historyDecoder) pasteField(key []byte, v, depth int) (end int, err error) {
	p, d := &h.cur.paste, h.js.Bytes()
	var s string
	switch string(key) {
	case "id":
		end, err = h.js.Value(v, depth)
		if err == nil {
			h.cur.id = d[v:end]
		}
		return end, err
	case "type":
		p.Kind, end, err = h.kind(v)
		return end, err
	case "content":
		p.Content, end, err = h.checked(v)
		p.Inline = true
	case "contentHash":
		if string(d[v:min(v+4, len(d))]) == "null" {
			p.Hash = ""
			return v + 4, nil
		}
		s, end, err = h.str(v)
		p.Hash = PasteHash(s)
	case "mediaType":
		p.MediaType, end, err = h.str(v)
	case "filename":
		p.Filename, end, err = h.str(v)
	default:
		if foldsToKnown(key, pasteKeys...) {
			return 0, errFallback
		}
		return h.js.Value(v, depth)
	}
	return end, err
}

package model

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"time"
	"unicode/utf8"
)

// ProblemBadField is a record that was kept but one of whose fields could
// not be read (a timestamp that does not parse, a compactMetadata of the
// wrong shape). Unlike malformed lines, these do not remove the record.
const ProblemBadField ProblemKind = "bad-field"

// ErrStopScan may be returned by a ScanTranscript callback to stop reading
// early without an error.
var ErrStopScan = errors.New("stop scan")

// ScanOptions says how much of each record ScanTranscript decodes. The
// zero value decodes the top-level fields, message role/id/model/usage and
// compaction metadata, which is all a summary needs.
type ScanOptions struct {
	// Content decodes message content into blocks (types, sizes, tool ids).
	Content bool
	// KeepText also keeps the text of text, thinking and tool_result blocks.
	KeepText bool
	// KeepRaw keeps a copy of every line in Record.Raw.
	KeepRaw bool
}

// TranscriptSummary is what one pass over a transcript learns about it.
type TranscriptSummary struct {
	Path      string `json:"path"`
	SessionID string `json:"sessionId"`
	// CWD is the first cwd in the file: the startup folder of the session.
	CWD string `json:"cwd"`
	// Bytes is how much was read (the file size, unless a callback stopped
	// the scan early).
	Bytes int64 `json:"bytes"`
	// Lines counts non-blank lines; Records the ones that parsed.
	Lines      int `json:"lines"`
	BlankLines int `json:"blankLines"`
	Records    int `json:"records"`
	// Types counts records by type; Subtypes by "type/subtype" for records
	// that have a subtype ("system/compact_boundary").
	Types                  map[string]int `json:"types"`
	Subtypes               map[string]int `json:"subtypes"`
	CompactBoundaries      int            `json:"compactBoundaries"`
	MicrocompactBoundaries int            `json:"microcompactBoundaries"`
	// Usage sums assistant usage once per message.id+requestId;
	// Responses counts those distinct responses.
	Usage     Usage `json:"usage"`
	Responses int   `json:"responses"`
	// First and Last are the earliest and latest timestamps.
	First    time.Time `json:"first"`
	Last     time.Time `json:"last"`
	Problems []Problem `json:"problems"`
}

// ScanTranscript reads a JSONL transcript from r, calling fn (which may be
// nil) with each record in file order. name labels problems. A line that
// does not parse is skipped and reported; an unterminated last line that
// does not parse is an incomplete tail (a writer mid-append), not
// corruption. Unknown record types are kept and counted. The returned
// error is a read error or the error fn returned (other than ErrStopScan);
// the summary covers what was read either way.
func ScanTranscript(r io.Reader, name string, opts ScanOptions, fn func(*Record) error) (TranscriptSummary, error) {
	s := TranscriptSummary{Path: name, Types: map[string]int{}, Subtypes: map[string]int{}}
	dec := newRecordDecoder(name, opts)
	seen := map[string]struct{}{}
	cr := &countingReader{r: r}
	lr := NewLineReader(cr)
	var scratch Record
	for {
		line, ok := lr.Next()
		if !ok {
			break
		}
		if len(bytes.TrimSpace(line.Bytes)) == 0 {
			s.BlankLines++
			continue
		}
		s.Lines++
		rec := &scratch
		if fn != nil {
			rec = new(Record)
		} else {
			scratch = Record{}
		}
		if p, ok := dec.decode(line, rec); !ok {
			s.Problems = append(s.Problems, p)
			continue
		}
		s.Problems = append(s.Problems, dec.problems...)
		s.add(rec, seen)
		if fn != nil {
			if err := fn(rec); err != nil {
				s.Bytes = cr.n
				if errors.Is(err, ErrStopScan) {
					return s, nil
				}
				return s, err
			}
		}
	}
	s.Bytes = cr.n
	if err := lr.Err(); err != nil {
		return s, fmt.Errorf("read %s: %w", name, err)
	}
	return s, nil
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

func (s *TranscriptSummary) add(rec *Record, seen map[string]struct{}) {
	s.Records++
	s.Types[string(rec.Type)]++
	if rec.Subtype != "" {
		s.Subtypes[string(rec.Type)+"/"+rec.Subtype]++
	}
	switch {
	case rec.IsCompactBoundary():
		s.CompactBoundaries++
	case rec.IsMicrocompactBoundary():
		s.MicrocompactBoundaries++
	}
	if s.SessionID == "" {
		s.SessionID = rec.SessionID
	}
	if s.CWD == "" {
		s.CWD = rec.CWD
	}
	if t := rec.Timestamp; !t.IsZero() {
		if s.First.IsZero() || t.Before(s.First) {
			s.First = t
		}
		if t.After(s.Last) {
			s.Last = t
		}
	}
	if m := rec.Message; m != nil && m.Usage != nil && rec.Type == RecordAssistant {
		key := m.ID + "\x00" + rec.RequestID
		if m.ID != "" || rec.RequestID != "" {
			if _, dup := seen[key]; dup {
				return
			}
			seen[key] = struct{}{}
		}
		s.Responses++
		s.Usage = s.Usage.Add(*m.Usage)
	}
}

// SummarizeTranscript reads the transcript at path in fsys once and
// returns its summary.
func SummarizeTranscript(fsys fs.FS, path string) (TranscriptSummary, error) {
	f, err := fsys.Open(path)
	if err != nil {
		return TranscriptSummary{Path: path}, fmt.Errorf("open transcript %s: %w", path, err)
	}
	defer f.Close()
	return ScanTranscript(f, path, ScanOptions{}, nil)
}

// recordDecoder turns one line into a Record. It keeps the spans seen while
// walking the top-level members, so fields can be decoded once the type is
// known whatever the key order. The member functions are built once so the
// per-line walk allocates no closures.
type recordDecoder struct {
	name     string
	opts     ScanOptions
	in       interner
	problems []Problem // field problems of the current line

	memberFn, msgFn, blockFn func(key, val []byte)
	cur                      lineState
}

// lineState is what recordDecoder learns from the current line.
type lineState struct {
	line                  int
	rec                   *Record
	ts, msg, cm, mcm, att []byte
	hasType               bool
	msgOut                *Message
	block                 *ContentBlock
}

func newRecordDecoder(name string, opts ScanOptions) *recordDecoder {
	d := &recordDecoder{name: name, opts: opts}
	d.memberFn = d.member
	d.msgFn = d.messageMember
	d.blockFn = d.blockMember
	return d
}

func (d *recordDecoder) fieldProblem(format string, args ...any) {
	d.problems = append(d.problems, Problem{File: d.name, Line: d.cur.line, Kind: ProblemBadField, Reason: fmt.Sprintf(format, args...)})
}

// decode fills rec from line. It returns a problem and false when the line
// is not a record; field problems of a kept record are left in d.problems.
func (d *recordDecoder) decode(line Line, rec *Record) (Problem, bool) {
	d.problems = d.problems[:0]
	d.cur = lineState{line: line.Number, rec: rec}
	rec.Line, rec.Offset, rec.Size = line.Number, line.Offset, len(line.Bytes)
	err := eachMember(line.Bytes, d.memberFn)
	bad := func(reason string) (Problem, bool) {
		kind := ProblemMalformed
		if !line.Terminated {
			kind = ProblemIncompleteTail
			reason = "incomplete last line (no newline), most likely a write in progress: " + reason
		}
		return Problem{File: d.name, Line: line.Number, Kind: kind, Reason: reason}, false
	}
	switch {
	case err != nil:
		return bad(err.Error())
	case !d.cur.hasType:
		return bad(`record has no "type"`)
	case rec.Type == "":
		return bad(`"type" is not a non-empty string`)
	}
	if !utf8.Valid(line.Bytes) {
		d.problems = append(d.problems, Problem{File: d.name, Line: line.Number, Kind: ProblemEncoding,
			Reason: "invalid UTF-8 (record kept; bad bytes read as U+FFFD)"})
	}
	d.finish()
	if d.opts.KeepRaw {
		rec.Raw = bytes.Clone(line.Bytes)
	}
	return Problem{}, true
}

func (d *recordDecoder) str(v []byte) string {
	s, _ := rawString(v, nil)
	return s
}

// link reads a uuid field. A value that is neither a string nor null
// cuts the record out of the message tree, so it is reported.
func (d *recordDecoder) link(key string, v []byte) string {
	s, ok := rawString(v, nil)
	if !ok && string(v) != "null" {
		d.fieldProblem("%s is not a string: %.40s", key, v)
	}
	return s
}

func (d *recordDecoder) interned(v []byte) string {
	s, _ := rawString(v, &d.in)
	return s
}

// member records one top-level member. The switch converts key without
// allocating.
func (d *recordDecoder) member(key, val []byte) {
	r := d.cur.rec
	switch string(key) {
	case "type":
		d.cur.hasType = true
		s, _ := rawString(val, &d.in)
		r.Type = RecordType(s)
	case "subtype":
		r.Subtype = d.interned(val)
	case "uuid":
		r.UUID = d.link("uuid", val)
	case "parentUuid":
		r.ParentUUID = d.link("parentUuid", val)
	case "logicalParentUuid":
		r.LogicalParentUUID = d.link("logicalParentUuid", val)
	case "sessionId":
		r.SessionID = d.interned(val)
	case "cwd":
		r.CWD = d.interned(val)
	case "version":
		r.Version = d.interned(val)
	case "gitBranch":
		r.GitBranch = d.interned(val)
	case "agentId":
		r.AgentID = d.interned(val)
	case "requestId":
		r.RequestID = d.str(val)
	case "isSidechain":
		r.IsSidechain = rawBool(val)
	case "isMeta":
		r.IsMeta = rawBool(val)
	case "isCompactSummary":
		r.IsCompactSummary = rawBool(val)
	case "isVisibleInTranscriptOnly":
		r.IsVisibleInTranscriptOnly = rawBool(val)
	case "timestamp":
		d.cur.ts = val
	case "message":
		d.cur.msg = val
	case "content":
		if s, ok := rawString(val, nil); ok {
			r.Content = s
		}
	case "attachment":
		d.cur.att = val
	case "compactMetadata":
		d.cur.cm = val
	case "microcompactMetadata":
		d.cur.mcm = val
	case "leafUuid":
		r.LeafUUID = d.link("leafUuid", val)
	case "lastPrompt":
		r.LastPrompt = d.str(val)
	case "summary":
		r.Summary = d.str(val)
	}
}

// finish decodes the fields whose meaning depends on the record type.
func (d *recordDecoder) finish() {
	r := d.cur.rec
	if d.cur.ts != nil && string(d.cur.ts) != "null" {
		s, ok := rawString(d.cur.ts, nil)
		t, err := time.Parse(time.RFC3339Nano, s)
		if !ok || err != nil {
			d.fieldProblem("timestamp %.40s does not parse", d.cur.ts)
		} else {
			r.Timestamp = t
		}
	}
	if d.cur.msg != nil && (r.Type == RecordUser || r.Type == RecordAssistant) {
		d.decodeMessage(d.cur.msg)
	}
	if d.cur.att != nil && r.Type == RecordAttachment {
		d.decodeAttachment(r, d.cur.att)
	}
	if d.cur.cm != nil && r.IsCompactBoundary() {
		r.Compact = new(CompactMetadata)
		if err := json.Unmarshal(d.cur.cm, r.Compact); err != nil {
			d.fieldProblem("compactMetadata: %v", err)
		}
	}
	if d.cur.mcm != nil && r.IsMicrocompactBoundary() {
		r.Microcompact = new(MicrocompactMetadata)
		if err := json.Unmarshal(d.cur.mcm, r.Microcompact); err != nil {
			d.fieldProblem("microcompactMetadata: %v", err)
		}
	}
}

// decodeAttachment reads attachment.type and the files an attachment
// carries: a "files" array of {path, type, content}, or a top-level path
// and content.
func (d *recordDecoder) decodeAttachment(r *Record, v []byte) {
	r.AttachmentBytes, r.AttachmentChars = len(v), utf16Units(v)
	if v[0] != '{' {
		return
	}
	var single AttachmentFile
	var hasContent bool
	eachMemberTrusted(v, func(key, val []byte) {
		switch string(key) {
		case "type":
			r.AttachmentType = d.interned(val)
		case "path":
			single.Path = d.str(val)
		case "content":
			single.Bytes, single.Chars, hasContent = rawStringLen(val), rawStringUnits(val), val[0] == '"'
		case "files":
			if val[0] != '[' {
				return
			}
			eachElement(val, func(el []byte) {
				if el[0] != '{' {
					return
				}
				var f AttachmentFile
				eachMemberTrusted(el, func(key, val []byte) {
					switch string(key) {
					case "path":
						f.Path = d.str(val)
					case "type":
						f.Type = d.interned(val)
					case "content":
						f.Bytes, f.Chars = rawStringLen(val), rawStringUnits(val)
					}
				})
				r.AttachmentFiles = append(r.AttachmentFiles, f)
			})
		}
	})
	if single.Path != "" && hasContent {
		r.AttachmentFiles = append(r.AttachmentFiles, single)
	}
}

func (d *recordDecoder) decodeMessage(v []byte) {
	if v[0] != '{' {
		if string(v) != "null" {
			d.fieldProblem("message is not an object")
		}
		return
	}
	m := new(Message)
	d.cur.msgOut = m
	d.cur.rec.Message = m
	eachMemberTrusted(v, d.msgFn) // v was validated with the line
}

func (d *recordDecoder) messageMember(key, val []byte) {
	m := d.cur.msgOut
	switch string(key) {
	case "role":
		m.Role = d.interned(val)
	case "id":
		m.ID = d.str(val)
	case "model":
		m.Model = d.interned(val)
	case "usage":
		if val[0] == '{' {
			m.Usage = new(Usage)
			if err := json.Unmarshal(val, m.Usage); err != nil {
				d.fieldProblem("message.usage: %v", err)
			}
		}
	case "content":
		d.decodeContent(m, val)
	}
}

func (d *recordDecoder) decodeContent(m *Message, v []byte) {
	switch v[0] {
	case '"':
		n, u := rawStringLen(v), rawStringUnits(v)
		m.ContentBytes, m.ContentChars = n, u
		if d.opts.Content {
			b := ContentBlock{Type: BlockText, Bytes: n, Chars: u}
			if d.opts.KeepText {
				b.Text = d.str(v)
			}
			m.Content = []ContentBlock{b}
		}
	case '[':
		eachElement(v, func(el []byte) {
			var b ContentBlock
			if el[0] == '{' {
				d.cur.block = &b
				eachMemberTrusted(el, d.blockFn)
			}
			if b.Type == BlockImage {
				b.Images = 1
			}
			m.ContentBytes += b.Bytes
			m.ContentChars += b.Chars
			if d.opts.Content {
				m.Content = append(m.Content, b)
			}
		})
	}
}

func (d *recordDecoder) blockMember(key, val []byte) {
	b := d.cur.block
	switch string(key) {
	case "type":
		s, _ := rawString(val, &d.in)
		b.Type = BlockType(s)
	case "text", "thinking":
		b.Bytes += rawStringLen(val)
		b.Chars += rawStringUnits(val)
		if d.opts.KeepText {
			b.Text += d.str(val)
		}
	case "input":
		b.Bytes += len(val)
		b.Chars += utf16Units(val)
	case "id":
		b.ID = d.str(val)
	case "name":
		b.Name = d.interned(val)
	case "tool_use_id":
		b.ToolUseID = d.str(val)
	case "is_error":
		b.IsError = rawBool(val)
	case "content":
		d.decodeResultContent(b, val)
	}
}

// decodeResultContent sizes a tool_result's content: a string, or an array
// of text and image blocks.
func (d *recordDecoder) decodeResultContent(b *ContentBlock, v []byte) {
	switch v[0] {
	case '"':
		b.Bytes += rawStringLen(v)
		b.Chars += rawStringUnits(v)
		if d.opts.KeepText {
			b.Text += d.str(v)
		}
	case '[':
		eachElement(v, func(el []byte) {
			if el[0] != '{' {
				return
			}
			var typ, text []byte
			eachMemberTrusted(el, func(key, val []byte) {
				switch string(key) {
				case "type":
					typ = val
				case "text":
					text = val
				}
			})
			if string(typ) == `"image"` {
				b.Images++
				return
			}
			if text != nil {
				b.Bytes += rawStringLen(text)
				b.Chars += rawStringUnits(text)
				if d.opts.KeepText {
					b.Text += d.str(text)
				}
			}
		})
	}
}

// eachElement calls fn with each element of the JSON array v, which must
// already be valid.
func eachElement(v []byte, fn func(el []byte)) {
	i := skipWS(v, 1)
	if i < len(v) && v[i] == ']' {
		return
	}
	for i < len(v) {
		end := skipTrusted(v, i)
		fn(v[i:end])
		i = skipWS(v, end)
		if i >= len(v) || v[i] != ',' {
			return
		}
		i = skipWS(v, i+1)
	}
}

// rawStringUnits is the length in UTF-16 code units of the text of a raw
// JSON string value: rawStringLen already counts each escape as one unit
// (a surrogate pair written as two \u escapes as two), so only raw
// non-ASCII bytes need recounting.
func rawStringUnits(v []byte) int {
	if len(v) < 2 || v[0] != '"' {
		return 0
	}
	body := v[1 : len(v)-1]
	return rawStringLen(v) - len(body) + utf16Units(body)
}

// utf16Units is the length of UTF-8 text b in UTF-16 code units: one per
// rune, two above U+FFFF, one per invalid byte (read as U+FFFD, as
// encoding/json reads it). ASCII is skipped eight bytes at a time, since
// almost all transcript text is ASCII.
func utf16Units(b []byte) int {
	n, i := 0, 0
	for i < len(b) {
		for i+8 <= len(b) && binary.LittleEndian.Uint64(b[i:])&0x8080808080808080 == 0 {
			i += 8
			n += 8
		}
		if i >= len(b) {
			break
		}
		if b[i] < utf8.RuneSelf {
			i++
			n++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		i += size
		n++
		if r > 0xFFFF {
			n++
		}
	}
	return n
}

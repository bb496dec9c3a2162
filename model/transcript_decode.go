package model

import (
	"bytes"
	"encoding/json"
	"fmt"
	"unicode/utf8"

	"github.com/memscope/memscope/internal/jsonscan"
)

// recordDecoder turns one line into a Record. It keeps the spans seen while
// walking the top-level members, so fields can be decoded once the type is
// known whatever the key order. The member functions are built once so the
// per-line walk allocates no closures.
type recordDecoder struct {
	name     string
	opts     ScanOptions
	js       jsonscan.Scanner
	in       interner
	problems []Problem // field problems of the current line

	memberFn, msgFn, blockFn func(key, val []byte)
	cur                      lineState
	// held are the current block's members waiting for ScanOptions.Keep
	// (kept across lines for their room); keep says they are read now.
	held []heldMember
	keep bool
	// walk are the one-walk callbacks (transcript_walk.go); msgProbs the
	// field problems of a message read in the walk and ops its content
	// steps, both kept for finish.
	walk     walkFns
	msgProbs []Problem
	ops      []contentOp
	// usage is the message.usage being read in the walk.
	usage  usageReader
	noWalk bool // tests: read every message after the line, as before
	// slowSizes (tests) counts UTF-16 units by reading the text even on
	// an ASCII line, as before transcript_sizes.go.
	slowSizes bool
	// usageRewalks counts the message.usage objects read by walking them
	// again after the line's check (plainUsage), not in the line's walk.
	usageRewalks int
}

// lineState is what recordDecoder learns from the current line.
type lineState struct {
	line                      int
	rec                       *Record
	ts, msg, cm, mcm, att, sm []byte
	earlier                   []byte
	hasType                   bool
	msgOut                    *Message
	block                     *ContentBlock
	// walkedMsg says msg was read into msgOut in the line's walk (else
	// finish reads it); walked, that a message was walked into.
	walkedMsg, walked bool
}

func newRecordDecoder(name string, opts ScanOptions) *recordDecoder {
	d := &recordDecoder{name: name, opts: opts}
	d.memberFn = d.member
	d.msgFn = d.messageMember
	d.blockFn = d.blockMember
	d.bindWalk()
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
	err := d.decodeLine(line, rec)
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
	if !d.js.ASCII() && !utf8.Valid(line.Bytes) {
		d.problems = append(d.problems, Problem{File: d.name, Line: line.Number, Kind: ProblemEncoding,
			Reason: "invalid UTF-8 (record kept; bad bytes read as U+FFFD)"})
	}
	d.finish()
	if d.opts.KeepRaw {
		rec.Raw = bytes.Clone(line.Bytes)
	}
	return Problem{}, true
}

// str is the text of the raw string value v of the current line ("" for
// another value). Escaped text of an ASCII line is decoded in one copy
// (jsonscan.UnquoteASCII: the line was checked, nothing to check again),
// after one search for a backslash.
func (d *recordDecoder) str(v []byte) string {
	if d.js.ASCII() && len(v) >= 2 && v[0] == '"' {
		if bytes.IndexByte(v[1:len(v)-1], '\\') < 0 {
			return string(v[1 : len(v)-1])
		}
		return jsonscan.UnquoteASCII(v)
	}
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
	case "rowSource":
		r.RowSource = RowSource(d.interned(val))
	case "earlierMessages":
		d.cur.earlier = val
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
	case "summarizeMetadata":
		d.cur.sm = val
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
		t, ok := ParseTimestamp(d.cur.ts)
		if !ok {
			d.fieldProblem("timestamp %.40s does not parse", d.cur.ts)
		} else {
			r.Timestamp = t
		}
	}
	switch {
	case r.Type != RecordUser && r.Type != RecordAssistant:
	case d.cur.walkedMsg:
		r.Message = d.cur.msgOut
		d.problems = append(d.problems, d.msgProbs...)
		d.finishContent(r.Message)
	case d.cur.msg != nil:
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
	if d.cur.earlier != nil && string(d.cur.earlier) != "null" && r.Type == RecordUser {
		if err := json.Unmarshal(d.cur.earlier, &r.EarlierMessages); err != nil {
			r.EarlierMessages = nil
			d.fieldProblem("earlierMessages: %v", err)
		}
	}
	if d.cur.sm != nil && r.Type == RecordUser && string(d.cur.sm) != "null" {
		r.Summarize = new(SummarizeMetadata)
		if err := json.Unmarshal(d.cur.sm, r.Summarize); err != nil {
			d.fieldProblem("summarizeMetadata: %v", err)
			r.Summarize = nil
		}
	}
	if d.cur.mcm != nil && r.IsMicrocompactBoundary() {
		r.Microcompact = new(MicrocompactMetadata)
		if err := json.Unmarshal(d.cur.mcm, r.Microcompact); err != nil {
			d.fieldProblem("microcompactMetadata: %v", err)
		}
	}
}

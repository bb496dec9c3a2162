package sessions

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"github.com/memscope/memscope/model"
)

// summarizer builds, line by line, the model.TranscriptSummary that
// model.ScanTranscript would return for the same input, field for field
// and problem for problem (a differential fuzz test holds it to that),
// from the spans jsonScanner noted. A line it cannot vouch for cheaply (not
// a plain record, a timestamp that does not parse, a compaction record
// whose metadata the model decodes, odd usage) goes through
// model.ScanTranscript on its own, so the rare cases cost more and the
// answers stay the model's.
type summarizer struct {
	sum  model.TranscriptSummary
	name string
	// seen holds message.id+"\x00"+requestId of the responses counted.
	seen map[string]struct{}
	// names interns type and subtype names so counting allocates nothing
	// in the steady state.
	names map[string]string
	key   []byte
}

// internMax bounds names, so a file of unique types cannot grow it
// without limit.
const internMax = 4096

func newSummarizer() *summarizer {
	return &summarizer{seen: map[string]struct{}{}, names: map[string]string{}}
}

// modelUsage reads message.usage the way json.Unmarshal into model.Usage
// does, for the plain case only: each of the four counts absent or an
// integer that fits. Anything else (null, fractions, overflow) is left to
// the model, which reports it.
func modelUsage(d []byte, f *lineFields) (model.Usage, bool) {
	var u model.Usage
	for _, c := range [...]struct {
		v   span
		dst *int64
	}{
		{f.input, &u.InputTokens},
		{f.output, &u.OutputTokens},
		{f.cacheCreation, &u.CacheCreationInputTokens},
		{f.cacheRead, &u.CacheReadInputTokens},
	} {
		if !c.v.present() {
			continue
		}
		n, ok := parseInt(d[c.v.start:c.v.end])
		if !ok {
			return model.Usage{}, false
		}
		*c.dst = n
	}
	return u, true
}

// parseInt reads a JSON integer literal (-?digits) that fits an int64,
// as strconv.ParseInt does, without making a string of it.
func parseInt(b []byte) (int64, bool) {
	neg := len(b) > 0 && b[0] == '-'
	if neg {
		b = b[1:]
	}
	if len(b) == 0 || len(b) > 19 {
		return 0, false
	}
	var n uint64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + uint64(c-'0')
	}
	switch {
	case neg && n <= 1<<63:
		return int64(-n), true
	case !neg && n < 1<<63:
		return int64(n), true
	}
	return 0, false
}

// usageKeys are the members json.Unmarshal fills in model.Usage; it
// matches keys without regard to case, so a member like "Input_Tokens"
// makes the line one for the model.
var usageKeys = [...]string{"input_tokens", "output_tokens", "cache_creation_input_tokens", "cache_read_input_tokens"}

// oddUsageKey reports whether key is not one of usageKeys as written but
// json.Unmarshal would still match it to one.
func oddUsageKey(key []byte) bool {
	for _, k := range usageKeys {
		if len(key) == len(k) && string(key) != k && strings.EqualFold(string(key), k) {
			return true
		}
	}
	return false
}

// bom makes model.LineReader's first-line BOM strip remove only itself
// when a single line is read again.
var bom = []byte{0xEF, 0xBB, 0xBF}

// reset starts a new file.
func (z *summarizer) reset(name string) {
	z.sum = model.TranscriptSummary{Path: name, Types: map[string]int{}, Subtypes: map[string]int{}}
	z.name = name
	clear(z.seen)
}

func (z *summarizer) intern(b []byte) string {
	if s, ok := z.names[string(b)]; ok {
		return s
	}
	s := string(b)
	if len(z.names) < internMax {
		z.names[s] = s
	}
	return s
}

// fast adds the record just scanned by js and reports true, or reports
// false having changed nothing when the line needs the model's reader.
// The line must have scanned without error and be valid UTF-8.
func (z *summarizer) fast(js *jsonScanner) bool {
	f, d := &js.f, js.d
	if !f.isObject || !isKind(d, f.typ, '"') || f.typ.end-f.typ.start <= 2 || f.badLink {
		return false
	}
	typ := d[f.typ.start+1 : f.typ.end-1]
	if bytes.IndexByte(typ, '\\') >= 0 {
		return false
	}
	var sub []byte
	if isKind(d, f.subtype, '"') {
		sub = js.textBytes(f.subtype)
	}
	system := string(typ) == string(model.RecordSystem)
	compact := system && string(sub) == model.SubtypeCompactBoundary
	micro := system && string(sub) == model.SubtypeMicrocompactBoundary
	// The model decodes compaction metadata and reports what does not
	// decode; such lines are left to it.
	if compact && f.compactMeta.present() && json.Unmarshal(d[f.compactMeta.start:f.compactMeta.end], new(model.CompactMetadata)) != nil ||
		micro && f.microcompactMeta.present() && json.Unmarshal(d[f.microcompactMeta.start:f.microcompactMeta.end], new(model.MicrocompactMetadata)) != nil {
		return false
	}
	var ts time.Time
	if f.timestamp.present() && string(d[f.timestamp.start:f.timestamp.end]) != "null" {
		t, ok := js.time(f.timestamp)
		if !ok {
			return false
		}
		ts = t
	}
	chat := string(typ) == string(model.RecordUser) || string(typ) == string(model.RecordAssistant)
	if chat && f.message.present() && d[f.message.start] != '{' && string(d[f.message.start:f.message.end]) != "null" {
		return false
	}
	var u model.Usage
	hasUsage := false
	if string(typ) == string(model.RecordAssistant) && isKind(d, f.message, '{') && isKind(d, f.msgUsage, '{') {
		if f.usageMembers != 1 || f.usageOdd {
			return false
		}
		var ok bool
		if u, ok = modelUsage(d, f); !ok {
			return false
		}
		hasUsage = true
	}

	s := &z.sum
	s.Records++
	t := z.intern(typ)
	s.Types[t]++
	if len(sub) > 0 {
		z.key = append(append(append(z.key[:0], typ...), '/'), sub...)
		s.Subtypes[z.intern(z.key)]++
	}
	if s.SessionID == "" && isKind(d, f.sessionID, '"') {
		s.SessionID, _ = js.text(f.sessionID)
	}
	if s.CWD == "" && isKind(d, f.cwd, '"') {
		s.CWD, _ = js.text(f.cwd)
	}
	switch {
	case compact:
		s.CompactBoundaries++
	case micro:
		s.MicrocompactBoundaries++
	}
	z.addTime(ts)
	if hasUsage {
		var id, req string
		if isKind(d, f.msgID, '"') {
			id, _ = js.text(f.msgID)
		}
		if isKind(d, f.requestID, '"') {
			req, _ = js.text(f.requestID)
		}
		z.addUsage(id, req, u)
	}
	return true
}

func (z *summarizer) addTime(t time.Time) {
	s := &z.sum
	if t.IsZero() {
		return
	}
	if s.First.IsZero() || t.Before(s.First) {
		s.First = t
	}
	if t.After(s.Last) {
		s.Last = t
	}
}

// addUsage counts one response's usage once per message.id+requestId, as
// the model does (lines with neither always count).
func (z *summarizer) addUsage(id, req string, u model.Usage) {
	if id != "" || req != "" {
		k := id + "\x00" + req
		if _, dup := z.seen[k]; dup {
			return
		}
		z.seen[k] = struct{}{}
	}
	z.sum.Responses++
	z.sum.Usage = z.sum.Usage.Add(u)
}

// slow reads one line with model.ScanTranscript and merges what it finds.
// The line is fed back as it was: a leading BOM the reader strips, and an
// "\r\n" ending when it had a newline, so exactly one "\r" is stripped
// (the one added) and the line is judged complete or not as before.
func (z *summarizer) slow(line model.Line) {
	in := make([]byte, 0, len(bom)+len(line.Bytes)+2)
	in = append(append(in, bom...), line.Bytes...)
	if line.Terminated {
		in = append(in, '\r', '\n')
	}
	var rec *model.Record
	one, err := model.ScanTranscript(bytes.NewReader(in), z.name, model.ScanOptions{}, func(r *model.Record) error {
		rec = r
		return nil
	})
	if err != nil && !errors.Is(err, model.ErrStopScan) {
		z.sum.Problems = append(z.sum.Problems, model.Problem{File: z.name, Line: line.Number, Kind: model.ProblemMalformed, Reason: err.Error()})
	}
	for _, p := range one.Problems {
		p.Line = line.Number
		z.sum.Problems = append(z.sum.Problems, p)
	}
	if one.Records == 0 {
		return
	}
	s := &z.sum
	s.Records += one.Records
	for t, n := range one.Types {
		s.Types[t] += n
	}
	for t, n := range one.Subtypes {
		s.Subtypes[t] += n
	}
	s.CompactBoundaries += one.CompactBoundaries
	s.MicrocompactBoundaries += one.MicrocompactBoundaries
	s.SessionID = cmp.Or(s.SessionID, one.SessionID)
	s.CWD = cmp.Or(s.CWD, one.CWD)
	z.addTime(one.First)
	if one.Responses > 0 {
		z.addUsage(rec.Message.ID, rec.RequestID, one.Usage)
	}
}

package sessions

import (
	"bytes"
	"encoding/json"
	"time"
	"unsafe"

	"github.com/memscope/memscope/internal/jsonscan"
	"github.com/memscope/memscope/model"
)

// The report's scanner walks each line once for both answers: the
// transcript summary, which model.Summarizer defines, and the usage
// ccusage counts (usage.go). record hands the summarizer what it needs
// from a line read here; a line it cannot vouch for cheaply goes to the
// model's own reader instead (model.Summarizer.Line), so the rare cases
// cost more and the answers stay the model's. A differential fuzz test
// (FuzzSessionsSummary) holds the two ways to the same summary.

// record fills r from the line just walked and reports true, or reports
// false when the line is for the model's reader: it is not a plain
// record (a JSON object with a non-empty "type" string written without
// escapes), or the reader would report a problem in it (a link that is not
// a string, compaction metadata that does not decode, a timestamp that
// does not parse, a message or usage of the wrong shape). The line must
// be valid UTF-8.
func (s *lineScanner) record(z *model.Summarizer, r *model.SummaryRecord) bool {
	f, d := &s.f, s.js.Bytes()
	if !f.isObject || !isKind(d, f.typ, '"') || f.typ.end-f.typ.start <= 2 || f.badLink {
		return false
	}
	typ := d[f.typ.start+1 : f.typ.end-1]
	if bytes.IndexByte(typ, '\\') >= 0 {
		return false
	}
	var sub []byte
	if isKind(d, f.subtype, '"') {
		sub = s.textBytes(f.subtype)
	}
	system := string(typ) == string(model.RecordSystem)
	compact := system && string(sub) == model.SubtypeCompactBoundary
	micro := system && string(sub) == model.SubtypeMicrocompactBoundary
	if compact && f.compactMeta.present() && !compactMetaDecodes(d[f.compactMeta.start:f.compactMeta.end]) ||
		micro && f.microcompactMeta.present() && !microcompactMetaDecodes(d[f.microcompactMeta.start:f.microcompactMeta.end]) {
		return false
	}
	// earlierMessages of a user row that do not decode are the model's
	// reader's problem to report.
	if string(typ) == string(model.RecordUser) && f.earlier.present() && string(d[f.earlier.start:f.earlier.end]) != "null" &&
		json.Unmarshal(d[f.earlier.start:f.earlier.end], new([]model.EarlierMessage)) != nil {
		return false
	}
	var ts time.Time
	if f.timestamp.present() && string(d[f.timestamp.start:f.timestamp.end]) != "null" {
		t, ok := model.ParseTimestamp(d[f.timestamp.start:f.timestamp.end])
		if !ok {
			return false
		}
		ts = t
	}
	// The model reads the message of user and assistant records, and its
	// usage when that is an object.
	chat := string(typ) == string(model.RecordUser) || string(typ) == string(model.RecordAssistant)
	if chat && f.message.present() && d[f.message.start] != '{' && string(d[f.message.start:f.message.end]) != "null" {
		return false
	}
	*r = model.SummaryRecord{Type: model.RecordType(z.Intern(typ)), Timestamp: ts}
	if chat && isKind(d, f.message, '{') && isKind(d, f.msgUsage, '{') {
		if f.usageMembers != 1 || f.usageOdd || !modelUsage(d, f, &s.usage) {
			return false
		}
		r.Usage = &s.usage
		// The ids are views of the line, not copies: the summarizer's
		// Add reads them into its dedupe key and keeps neither.
		if isKind(d, f.msgID, '"') {
			r.MessageID = view(s.textBytes(f.msgID))
		}
		if isKind(d, f.requestID, '"') {
			r.RequestID = view(s.textBytes(f.requestID))
		}
	}
	if len(sub) > 0 {
		r.Subtype = z.Intern(sub)
	}
	wantSession, wantCWD := z.Wants()
	if wantSession && isKind(d, f.sessionID, '"') {
		r.SessionID, _ = s.text(f.sessionID)
	}
	if wantCWD && isKind(d, f.cwd, '"') {
		r.CWD, _ = s.text(f.cwd)
	}
	return true
}

// modelUsage reads message.usage into u the way json.Unmarshal into
// model.Usage does, for the plain case only: each of the four counts
// absent or an integer that fits. Anything else (null, fractions,
// overflow) is left to the model, which reports it.
func modelUsage(d []byte, f *lineFields, u *model.Usage) bool {
	*u = model.Usage{}
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
		n, ok := jsonscan.Int(d[c.v.start:c.v.end])
		if !ok {
			return false
		}
		*c.dst = n
	}
	return true
}

// view is b as a string without a copy: valid while b is, and b must not
// change meanwhile (a scanned line's bytes until the next line).
func view(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

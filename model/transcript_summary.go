package model

import (
	"bytes"
	"encoding/binary"
	"hash/maphash"
	"time"
)

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

// SummaryRecord is the part of a record a TranscriptSummary reads.
type SummaryRecord struct {
	Type      RecordType
	Subtype   string
	SessionID string
	CWD       string
	// Timestamp is zero when absent.
	Timestamp time.Time
	// Usage is message.usage of a user or assistant record, nil when the
	// message has none; MessageID and RequestID name the response (Add
	// hashes them and keeps neither: a caller may hand views of its line,
	// as the sessions scanner does).
	Usage     *Usage
	MessageID string
	RequestID string
}

// Summarizer builds a TranscriptSummary line by line. It is the one
// definition of what a summary counts: which lines are blank, which are
// records, how usage is deduplicated, which times and names are kept.
// ScanTranscript hands it every line through the record decoder; the
// sessions report's scanner, which reads most lines faster on its own,
// hands it the SummaryRecord of each line it read (Add) and the other
// lines whole (Line), so both give the same summary.
type Summarizer struct {
	sum TranscriptSummary
	dec *recordDecoder
	rec Record
	// seen holds the KeyHash of message.id+"\x00"+requestId of the
	// responses counted: 16 bytes a response, whatever the ids' length.
	seen map[[16]byte]struct{}
	key  []byte
	// types counts records by type before Summary moves the counts into
	// the summary's Types: a transcript's records are of a few types, so
	// a record costs a compare in this short list, not a map write
	// (types past its length go to the map at once).
	types  [8]typeCount
	ntypes int
}

// typeCount is the number of records of one type not yet in Types.
type typeCount struct {
	typ string
	n   int
}

// NewSummarizer returns a Summarizer; call Reset before each file.
func NewSummarizer() *Summarizer { return newSummarizer("", ScanOptions{}) }

func newSummarizer(name string, opts ScanOptions) *Summarizer {
	z := &Summarizer{dec: newRecordDecoder(name, opts), seen: map[[16]byte]struct{}{}}
	z.Reset(name)
	return z
}

// Reset starts the summary of the transcript name.
func (z *Summarizer) Reset(name string) {
	z.sum = TranscriptSummary{Path: name, Types: map[string]int{}, Subtypes: map[string]int{}}
	z.dec.name = name
	clear(z.seen)
	z.ntypes = 0
}

// Summary is the summary so far, of a file of which n bytes were read.
func (z *Summarizer) Summary(n int64) TranscriptSummary {
	for _, c := range z.types[:z.ntypes] {
		z.sum.Types[c.typ] += c.n
	}
	z.ntypes = 0
	z.sum.Bytes = n
	return z.sum
}

// countType counts a record of type t (see Summarizer.types).
func (z *Summarizer) countType(t string) {
	for i := range z.types[:z.ntypes] {
		if z.types[i].typ == t {
			z.types[i].n++
			return
		}
	}
	if z.ntypes < len(z.types) {
		z.types[z.ntypes] = typeCount{t, 1}
		z.ntypes++
		return
	}
	z.sum.Types[t]++
}

// Blank counts line and reports true when it needs no more reading: it
// is blank (white space only), or too long to be kept (LineReader's
// MaxLine: counted as a line, with a too-large problem). Other lines
// must then go to Line or Add.
func (z *Summarizer) Blank(line Line) bool {
	if line.TooLong {
		z.sum.Lines++
		z.sum.Problems = append(z.sum.Problems, line.TooLongProblem(z.sum.Path))
		return true
	}
	if len(bytes.TrimSpace(line.Bytes)) != 0 {
		return false
	}
	z.sum.BlankLines++
	return true
}

// Line reads a non-blank line with the transcript reader and counts it,
// as a record or as a problem.
func (z *Summarizer) Line(line Line) {
	z.rec = Record{}
	z.line(line, &z.rec)
}

// line decodes a non-blank line into rec and counts it; false when the
// line is not a record (its problem is noted).
func (z *Summarizer) line(line Line, rec *Record) bool {
	z.sum.Lines++
	p, ok := z.dec.decode(line, rec)
	if !ok {
		z.sum.Problems = append(z.sum.Problems, p)
		return false
	}
	z.sum.Problems = append(z.sum.Problems, z.dec.problems...)
	r := SummaryRecord{Type: rec.Type, Subtype: rec.Subtype, SessionID: rec.SessionID, CWD: rec.CWD,
		Timestamp: rec.Timestamp, RequestID: rec.RequestID}
	if m := rec.Message; m != nil {
		r.Usage, r.MessageID = m.Usage, m.ID
	}
	z.add(&r)
	return true
}

// Add counts a non-blank line the caller read itself: a record (a JSON
// object with a non-empty string "type") in which the transcript reader
// would find no problem.
func (z *Summarizer) Add(r *SummaryRecord) {
	z.sum.Lines++
	z.add(r)
}

// Wants reports whether the summary still takes a session id and a cwd
// (it keeps the first), so a caller may skip reading them.
func (z *Summarizer) Wants() (sessionID, cwd bool) {
	return z.sum.SessionID == "", z.sum.CWD == ""
}

// Problems is how many problems the summary has so far.
func (z *Summarizer) Problems() int { return len(z.sum.Problems) }

// Intern returns b as a string, one copy per distinct value.
func (z *Summarizer) Intern(b []byte) string { return z.dec.in.get(b) }

// add counts one record.
func (z *Summarizer) add(r *SummaryRecord) {
	s := &z.sum
	s.Records++
	z.countType(string(r.Type))
	if r.Subtype != "" {
		z.key = append(append(append(z.key[:0], r.Type...), '/'), r.Subtype...)
		s.Subtypes[z.Intern(z.key)]++
	}
	switch {
	case isBoundary(r.Type, r.Subtype, SubtypeCompactBoundary):
		s.CompactBoundaries++
	case isBoundary(r.Type, r.Subtype, SubtypeMicrocompactBoundary):
		s.MicrocompactBoundaries++
	}
	if s.SessionID == "" {
		s.SessionID = r.SessionID
	}
	if s.CWD == "" {
		s.CWD = r.CWD
	}
	if t := r.Timestamp; !t.IsZero() {
		if s.First.IsZero() || t.Before(s.First) {
			s.First = t
		}
		if t.After(s.Last) {
			s.Last = t
		}
	}
	if r.Usage == nil || r.Type != RecordAssistant {
		return
	}
	if r.MessageID != "" || r.RequestID != "" {
		z.key = append(append(append(z.key[:0], r.MessageID...), 0), r.RequestID...)
		// One map write, not a look-up and then a write: the set
		// grows only by a response not counted yet.
		n := len(z.seen)
		if z.seen[KeyHash(z.key)] = struct{}{}; len(z.seen) == n {
			return
		}
	}
	s.Responses++
	s.Usage = s.Usage.Add(*r.Usage)
}

// Whole says the summary covers a file of size bytes whole: every byte
// counted and no read failure. A cache keeps only such a summary (a file
// that could not be read is read again next time).
func (s TranscriptSummary) Whole(size int64) bool {
	if s.Bytes != size {
		return false
	}
	for _, p := range s.Problems {
		if p.Kind == ProblemUnreadable {
			return false
		}
	}
	return true
}

// keySeeds seed KeyHash; they are drawn once per process.
var keySeeds = [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}

// KeyHash is a 128-bit hash of b, for sets that would otherwise hold
// every key (a response's message.id and requestId): two keys share it
// with a chance of 2^-128, and since the seeds are drawn at random per
// process, no file can be written to make two keys share it.
func KeyHash(b []byte) [16]byte {
	var h [16]byte
	binary.LittleEndian.PutUint64(h[:8], maphash.Bytes(keySeeds[0], b))
	binary.LittleEndian.PutUint64(h[8:], maphash.Bytes(keySeeds[1], b))
	return h
}

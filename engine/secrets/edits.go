package secrets

import (
	"bytes"
	"encoding/json"
	"iter"
	"math"

	"github.com/memscope/memscope/engine/scan"
)

// Edits are the secrets a plan replaces in one file, in the order the
// scan found them. A transcript may hold a million: a plan keeps each as
// a fixed-size record (offset, length, line, id, and indices into one
// table of the rules, JSON paths and parts the file's edits share), its
// excerpt in one shared buffer, about 60 bytes an edit where an Edit
// value with its strings took about 170; At and All make the Edit
// values when they are shown.
type Edits struct {
	// list holds edits made whole (EditsOf); recs the compact ones a
	// plan makes (add). One of the two is used.
	list []Edit
	recs []editRec
	// strs are the paths and parts the records name, rules their rules
	// (with its marker); index finds them while edits are added.
	strs  []string
	rules []ruleMarker
	index map[string]uint32
	// text holds the excerpts back to back; a record keeps where its
	// excerpt ends (it starts where the previous one's ends).
	text []byte
}

// ruleMarker is a rule and the marker that replaces its secrets.
type ruleMarker struct {
	rule   scan.RuleID
	marker string
}

// editRec is one compact edit: 40 bytes.
type editRec struct {
	offset     int64
	length     int32
	line       int32
	excerptEnd uint32
	path, part uint32
	rule       uint16
	id         idKey
}

// EditsOf holds edits as they are (a test's, or a placeholder).
func EditsOf(list ...Edit) Edits {
	if list == nil {
		list = []Edit{}
	}
	return Edits{list: list}
}

// newEdits is an empty set of compact edits, room made for n.
func newEdits(n int) Edits {
	return Edits{recs: make([]editRec, 0, n), index: map[string]uint32{}}
}

// intern returns s's index in the table.
func (es *Edits) intern(s string) uint32 {
	if i, ok := es.index[s]; ok {
		return i
	}
	i := uint32(len(es.strs))
	es.strs = append(es.strs, s)
	es.index[s] = i
	return i
}

// ruleIndex returns rule's index in the rules.
func (es *Edits) ruleIndex(rule scan.RuleID) int {
	for i, r := range es.rules {
		if r.rule == rule {
			return i
		}
	}
	es.rules = append(es.rules, ruleMarker{rule, scan.Marker(rule)})
	return len(es.rules) - 1
}

// add adds the edit of finding f: its span becomes its rule's marker.
// An edit the compact record cannot hold (a span or line past 2 GiB,
// which a file memscope reads whole never has) turns the set into whole
// edits.
func (es *Edits) add(f *Finding) {
	e := Edit{Finding: f.ID, Rule: f.Rule, Line: f.Line, JSONPath: f.JSONPath, Part: f.Part,
		Offset: f.Offset, Length: f.Length, Marker: scan.Marker(f.Rule), Excerpt: f.Excerpt}
	if es.list != nil || len(f.ID) > len(idKey{}) || f.Length > math.MaxInt32 || f.Line > math.MaxInt32 ||
		uint64(len(es.text))+uint64(len(f.Excerpt)) > math.MaxUint32 || uint64(len(es.strs)) > math.MaxUint32-2 || len(es.rules) >= math.MaxUint16 {
		if es.list == nil {
			es.list = es.All().collect()
			es.recs, es.strs, es.rules, es.index, es.text = nil, nil, nil, nil, nil
		}
		es.list = append(es.list, e)
		return
	}
	es.text = append(es.text, f.Excerpt...)
	es.recs = append(es.recs, editRec{offset: f.Offset, length: int32(f.Length), line: int32(f.Line),
		excerptEnd: uint32(len(es.text)), path: es.intern(f.JSONPath), part: es.intern(f.Part),
		rule: uint16(es.ruleIndex(f.Rule)), id: keyOf(f.ID)})
}

// Len is the number of edits.
func (es *Edits) Len() int {
	if es.list != nil {
		return len(es.list)
	}
	return len(es.recs)
}

// span is edit i's offset, length and marker: what writing it needs.
func (es *Edits) span(i int) (int64, int, string) {
	if es.list != nil {
		e := &es.list[i]
		return e.Offset, e.Length, e.Marker
	}
	r := &es.recs[i]
	return r.offset, int(r.length), es.rules[r.rule].marker
}

// line is edit i's line.
func (es *Edits) line(i int) int {
	if es.list != nil {
		return es.list[i].Line
	}
	return int(es.recs[i].line)
}

// At makes edit i.
func (es *Edits) At(i int) Edit {
	if es.list != nil {
		return es.list[i]
	}
	r := &es.recs[i]
	start := uint32(0)
	if i > 0 {
		start = es.recs[i-1].excerptEnd
	}
	rm := es.rules[r.rule]
	return Edit{Finding: r.id.String(), Rule: rm.rule, Line: int(r.line), JSONPath: es.strs[r.path], Part: es.strs[r.part],
		Offset: r.offset, Length: int(r.length), Marker: rm.marker, Excerpt: string(es.text[start:r.excerptEnd])}
}

// EditSeq is every edit in order, each made when it is reached.
type EditSeq iter.Seq[Edit]

// All hands out every edit in order.
func (es *Edits) All() EditSeq {
	return func(yield func(Edit) bool) {
		for i := range es.Len() {
			if !yield(es.At(i)) {
				return
			}
		}
	}
}

func (s EditSeq) collect() []Edit {
	out := []Edit{}
	for e := range s {
		out = append(out, e)
	}
	return out
}

// MarshalJSON prints the edits as a list of Edit, as a []Edit prints.
func (es Edits) MarshalJSON() ([]byte, error) {
	if es.list == nil && es.recs == nil {
		return []byte("null"), nil
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	// The caller's encoder escapes HTML, or not, as it does its own.
	enc.SetEscapeHTML(false)
	b.WriteByte('[')
	for i := range es.Len() {
		if i > 0 {
			b.WriteByte(',')
		}
		e := es.At(i)
		if err := enc.Encode(&e); err != nil {
			return nil, err
		}
		b.Truncate(b.Len() - 1) // Encode's newline
	}
	b.WriteByte(']')
	return b.Bytes(), nil
}

// UnmarshalJSON reads a list of Edit.
func (es *Edits) UnmarshalJSON(data []byte) error {
	var list []Edit
	if err := json.Unmarshal(data, &list); err != nil {
		return err
	}
	*es = Edits{list: list}
	return nil
}

// rule is edit i's rule.
func (es *Edits) rule(i int) scan.RuleID {
	if es.list != nil {
		return es.list[i].Rule
	}
	return es.rules[es.recs[i].rule].rule
}

package model

import (
	"testing"
	"testing/fstest"
)

// A link field of the wrong type takes the record out of the message tree
// (or a leaf out of resume); that must be reported, not dropped silently.
func TestScanReportsLinkFieldsOfTheWrongType(t *testing.T) {
	cases := []struct {
		name, in, problems string
	}{
		{"uuid number", `{"type":"user","uuid":5}`, "bad-field@1"},
		{"parentUuid object", `{"type":"user","uuid":"u","parentUuid":{"x":1}}`, "bad-field@1"},
		{"logicalParentUuid array", `{"type":"system","subtype":"compact_boundary","uuid":"b","parentUuid":null,"logicalParentUuid":[]}`, "bad-field@1"},
		{"leafUuid bool", `{"type":"last-prompt","leafUuid":true}`, "bad-field@1"},
		{"null parent is the root, not a problem", `{"type":"user","uuid":"u","parentUuid":null}`, ""},
		{"strings are fine", `{"type":"user","uuid":"u","parentUuid":"p"}`, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, recs := scanAll(t, c.in+"\n", ScanOptions{})
			if got := problemKinds(s.Problems); got != c.problems || len(recs) != 1 {
				t.Errorf("problems %q, want %q; %d records (%v)", got, c.problems, len(recs), s.Problems)
			}
		})
	}
}

// A boundary without a uuid cannot take part in the message tree; it is
// still a compaction the file records and the summary counts, so the tree
// keeps it for the timeline to list.
func TestBoundaryWithoutUUID(t *testing.T) {
	in := `{"type":"system","subtype":"compact_boundary","compactMetadata":{"trigger":"auto","preTokens":5}}` + "\n" +
		`{"type":"system","subtype":"microcompact_boundary"}` + "\n"
	tr, err := ReadTranscript(fstest.MapFS{"t.jsonl": {Data: []byte(in)}}, "t.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if b := tr.Boundaries(); len(b) != 2 || b[0].Compact == nil || *b[0].Compact.PreTokens != 5 {
		t.Errorf("boundaries kept: %d", len(b))
	}
}

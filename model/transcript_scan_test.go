package model

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"time"
)

// scanAll scans s and returns the summary and the records.
func scanAll(t *testing.T, s string, opts ScanOptions) (TranscriptSummary, []*Record) {
	t.Helper()
	var recs []*Record
	sum, err := ScanTranscript(strings.NewReader(s), "t.jsonl", opts, func(r *Record) error {
		recs = append(recs, r)
		return nil
	})
	if err != nil {
		t.Fatalf("ScanTranscript: %v", err)
	}
	return sum, recs
}

func problemKinds(ps []Problem) string {
	var b strings.Builder
	for _, p := range ps {
		b.WriteString(string(p.Kind))
		b.WriteByte('@')
		b.WriteString(strconv.Itoa(p.Line))
		b.WriteByte(' ')
	}
	return strings.TrimSpace(b.String())
}

// The figures below were computed independently with Python's json module
// over the same files (type counts, usage deduplicated by
// message.id+requestId, first/last timestamp).
func TestScanRealTranscripts(t *testing.T) {
	cases := []struct {
		file                 string
		lines                int
		types                map[string]int
		subtypes             map[string]int
		boundaries           int
		responses            int
		input, output        int64
		sessionID, first, to string
	}{
		{
			file:  "transcript-partial-compactions.jsonl",
			lines: 101,
			types: map[string]int{"queue-operation": 12, "user": 12, "attachment": 33, "atis-latch": 6,
				"api-request-shape": 3, "api-request-blob": 9, "api-request": 4, "assistant": 4,
				"last-prompt": 6, "cost-state": 6, "mode": 4, "system": 2},
			subtypes:   map[string]int{"system/compact_boundary": 2},
			boundaries: 2, responses: 4, input: 77573, output: 44,
			sessionID: "fedcb1e2-dbe4-5555-90b5-52df88de5bed",
			first:     "2026-11-22T11:37:13.690Z", to: "2026-11-22T11:37:19.249Z",
		},
		{
			file:  "transcript-interactive-pastes.jsonl",
			lines: 41,
			types: map[string]int{"mode": 2, "permission-mode": 2, "atis-latch": 2, "file-history-snapshot": 4,
				"user": 3, "attachment": 12, "api-request-shape": 1, "api-request-blob": 2, "api-request": 3,
				"assistant": 3, "system": 3, "last-prompt": 2, "cost-state": 2},
			subtypes:   map[string]int{"system/turn_duration": 3},
			boundaries: 0, responses: 3, input: 64458, output: 33,
			sessionID: "668e1d4c-98ed-55ff-b990-a2cdf6449cee",
			first:     "2026-11-22T11:37:23.519Z", to: "2026-11-22T11:37:49.906Z",
		},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			s, err := SummarizeTranscript(os.DirFS("testdata/transcripts"), c.file)
			if err != nil {
				t.Fatal(err)
			}
			if s.Records != c.lines || s.Lines != c.lines || len(s.Problems) != 0 {
				t.Errorf("records %d lines %d problems %v, want %d clean", s.Records, s.Lines, s.Problems, c.lines)
			}
			if !equalCounts(s.Types, c.types) || !equalCounts(s.Subtypes, c.subtypes) {
				t.Errorf("types %v subtypes %v", s.Types, s.Subtypes)
			}
			if s.CompactBoundaries != c.boundaries || s.Responses != c.responses {
				t.Errorf("boundaries %d responses %d", s.CompactBoundaries, s.Responses)
			}
			if s.Usage != (Usage{InputTokens: c.input, OutputTokens: c.output}) {
				t.Errorf("usage %+v", s.Usage)
			}
			// The cwd the client recorded, read with a pattern rather than
			// the JSON reader under test.
			raw, err := os.ReadFile(filepath.Join("testdata/transcripts", c.file))
			if err != nil {
				t.Fatal(err)
			}
			cwd := regexp.MustCompile(`"cwd": ?"([^"]+)"`).FindSubmatch(raw)
			if cwd == nil || s.SessionID != c.sessionID || s.CWD != string(cwd[1]) {
				t.Errorf("session %q cwd %q", s.SessionID, s.CWD)
			}
			first, _ := time.Parse(time.RFC3339Nano, c.first)
			last, _ := time.Parse(time.RFC3339Nano, c.to)
			if !s.First.Equal(first) || !s.Last.Equal(last) {
				t.Errorf("first %s last %s, want %s %s", s.First, s.Last, c.first, c.to)
			}
			st, _ := os.Stat("testdata/transcripts/" + c.file)
			if s.Bytes != st.Size() {
				t.Errorf("bytes %d, file has %d", s.Bytes, st.Size())
			}
		})
	}
}

func equalCounts(a, b map[string]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func TestScanRealCompactMetadata(t *testing.T) {
	data, err := os.ReadFile("testdata/transcripts/transcript-partial-compactions.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	_, recs := scanAll(t, string(data), ScanOptions{Content: true})
	var bs []*Record
	for _, r := range recs {
		if r.IsCompactBoundary() {
			bs = append(bs, r)
		}
	}
	if len(bs) != 2 {
		t.Fatalf("%d boundaries", len(bs))
	}
	first, second := bs[0], bs[1]
	if first.Line != 28 || second.Line != 69 {
		t.Errorf("boundary lines %d %d, want 28 69", first.Line, second.Line)
	}
	if first.ParentUUID != "" || first.LogicalParentUUID != "241746c5-3e4c-4c28-aac9-4ee9ab50dead" {
		t.Errorf("first boundary links %q %q", first.ParentUUID, first.LogicalParentUUID)
	}
	c := first.Compact
	if c == nil || c.Trigger != TriggerManual || *c.PreTokens != 19110 || *c.PostTokens != 2550 ||
		*c.DurationMs != 98 || *c.CumulativeDroppedTokens != 16560 || c.PreservedSegment != nil {
		t.Errorf("first compactMetadata %+v", c)
	}
	c = second.Compact
	ps := c.PreservedSegment
	if ps == nil || ps.HeadUUID != "4935c698-c7a9-4e5e-9586-384266894a46" || ps.TailUUID != ps.HeadUUID ||
		ps.AnchorUUID != "492e157f-48d0-4a71-a4a3-53b4f419378f" {
		t.Errorf("preservedSegment %+v", ps)
	}
	pm := c.PreservedMessages
	if pm == nil || len(pm.UUIDs) != 1 || len(pm.AllUUIDs) != 1 || pm.AnchorUUID != ps.AnchorUUID {
		t.Errorf("preservedMessages %+v", pm)
	}
	if second.Content != "Conversation compacted" {
		t.Errorf("boundary content %q", second.Content)
	}
	// The summary after each boundary: isCompactSummary, visible only in the transcript.
	var summaries int
	for _, r := range recs {
		if r.IsCompactSummary {
			summaries++
			if !r.IsVisibleInTranscriptOnly || r.Type != RecordUser || r.Message == nil {
				t.Errorf("summary record %+v", r)
			}
		}
	}
	if summaries != 2 {
		t.Errorf("%d compact summaries, want 2", summaries)
	}
	// Content sizes computed with Python: the summaries are 857 and 1080 bytes.
	if got := recs[28].Message.ContentBytes; recs[28].Line != 29 || got != 857 {
		t.Errorf("line %d content %d bytes, want line 29 with 857", recs[28].Line, got)
	}
}

func TestScanBadInput(t *testing.T) {
	const (
		u1 = `{"type":"user","uuid":"u1","parentUuid":null,"message":{"role":"user","content":"hi"}}`
		a1 = `{"type":"assistant","uuid":"a1","parentUuid":"u1","requestId":"r1","message":{"id":"m1","role":"assistant","content":[{"type":"text","text":"ok"}],"usage":{"input_tokens":10,"output_tokens":2,"cache_read_input_tokens":5,"cache_creation_input_tokens":1}}}`
		a2 = `{"type":"assistant","uuid":"a2","parentUuid":"a1","requestId":"r1","message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Read","input":{}}],"usage":{"input_tokens":10,"output_tokens":2,"cache_read_input_tokens":5,"cache_creation_input_tokens":1}}}`
	)
	cases := []struct {
		name     string
		in       string
		records  int
		blank    int
		problems string // kind@line, space separated
		types    map[string]int
		usage    Usage
	}{
		{name: "empty file", in: ""},
		{name: "only newlines", in: "\n\n\r\n", blank: 3},
		{name: "CRLF", in: u1 + "\r\n" + a1 + "\r\n", records: 2,
			types: map[string]int{"user": 1, "assistant": 1}, usage: Usage{10, 2, 1, 5}},
		{name: "BOM", in: "\xEF\xBB\xBF" + u1 + "\n", records: 1, types: map[string]int{"user": 1}},
		{name: "partial last line", in: u1 + "\n" + `{"type":"assis`, records: 1,
			problems: "incomplete-tail@2", types: map[string]int{"user": 1}},
		{name: "complete last line without newline", in: u1 + "\n" + a1, records: 2,
			types: map[string]int{"user": 1, "assistant": 1}, usage: Usage{10, 2, 1, 5}},
		{name: "corrupt middle line", in: u1 + "\n{not json}\n" + a1 + "\n", records: 2,
			problems: "malformed@2", types: map[string]int{"user": 1, "assistant": 1}, usage: Usage{10, 2, 1, 5}},
		{name: "truncated middle line", in: u1[:30] + "\n" + a1 + "\n", records: 1,
			problems: "malformed@1", types: map[string]int{"assistant": 1}, usage: Usage{10, 2, 1, 5}},
		{name: "not an object", in: "[1,2]\n\"x\"\n", problems: "malformed@1 malformed@2"},
		{name: "no type", in: `{"uuid":"x"}` + "\n" + `{"type":7}` + "\n" + `{"type":""}` + "\n",
			problems: "malformed@1 malformed@2 malformed@3"},
		{name: "invalid UTF-8 kept", in: "{\"type\":\"user\",\"message\":{\"content\":\"bad \xff\xfe byte\"}}\n", records: 1,
			problems: "encoding@1", types: map[string]int{"user": 1}},
		{name: "unknown types kept", in: `{"type":"brand-new","x":{"y":[1]}}` + "\n" + `{"type":"brand-new"}` + "\n", records: 2,
			types: map[string]int{"brand-new": 2}},
		{name: "duplicate usage counted once", in: a1 + "\n" + a2 + "\n", records: 2,
			types: map[string]int{"assistant": 2}, usage: Usage{10, 2, 1, 5}},
		{name: "bad timestamp kept", in: `{"type":"user","timestamp":"yesterday"}` + "\n", records: 1,
			problems: "bad-field@1", types: map[string]int{"user": 1}},
		{name: "blank lines between", in: u1 + "\n   \n\n" + u1 + "\n", records: 2, blank: 2,
			types: map[string]int{"user": 2}},
		{name: "type key last and escaped", in: `{"uuid":"z","\u0074ype":"system","subtype":"compact_boundary"}` + "\n", records: 1,
			types: map[string]int{"system": 1}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, recs := scanAll(t, c.in, ScanOptions{Content: true})
			if s.Records != c.records || len(recs) != c.records {
				t.Errorf("records %d (%d via callback), want %d", s.Records, len(recs), c.records)
			}
			if s.BlankLines != c.blank {
				t.Errorf("blank %d, want %d", s.BlankLines, c.blank)
			}
			if got := problemKinds(s.Problems); got != c.problems {
				t.Errorf("problems %q, want %q (%v)", got, c.problems, s.Problems)
			}
			if c.types == nil {
				c.types = map[string]int{}
			}
			if !equalCounts(s.Types, c.types) {
				t.Errorf("types %v, want %v", s.Types, c.types)
			}
			if s.Usage != c.usage {
				t.Errorf("usage %+v, want %+v", s.Usage, c.usage)
			}
			for _, p := range s.Problems {
				if p.File != "t.jsonl" || p.Line < 1 || p.Reason == "" {
					t.Errorf("problem without place or reason: %+v", p)
				}
			}
		})
	}
}

func TestScanContentBlocks(t *testing.T) {
	in := `{"type":"assistant","uuid":"a","message":{"role":"assistant","content":[` +
		`{"type":"thinking","thinking":"hmm"},{"type":"text","text":"abc\ndef"},` +
		`{"type":"tool_use","id":"toolu_1","name":"Bash","input":{"command":"ls"}}]}}` + "\n" +
		`{"type":"user","uuid":"u","message":{"role":"user","content":[` +
		`{"type":"tool_result","tool_use_id":"toolu_1","is_error":true,"content":[{"type":"text","text":"12345"},{"type":"image","source":{}}]},` +
		`{"type":"tool_result","tool_use_id":"toolu_2","content":"xyz"},{"type":"image","source":{"data":"AAAA"}}]}}` + "\n"
	_, recs := scanAll(t, in, ScanOptions{Content: true, KeepText: true})
	if len(recs) != 2 {
		t.Fatalf("%d records", len(recs))
	}
	a := recs[0].Message.Content
	if len(a) != 3 || a[0].Type != BlockThinking || a[0].Bytes != 3 || a[1].Text != "abc\ndef" || a[1].Bytes != 7 ||
		a[2].ID != "toolu_1" || a[2].Name != "Bash" || a[2].Bytes != len(`{"command":"ls"}`) {
		t.Errorf("assistant blocks %+v", a)
	}
	u := recs[1].Message.Content
	if len(u) != 3 || u[0].ToolUseID != "toolu_1" || !u[0].IsError || u[0].Bytes != 5 || u[0].Images != 1 ||
		u[0].Text != "12345" || u[1].Bytes != 3 || u[1].Text != "xyz" || u[2].Type != BlockImage || u[2].Images != 1 {
		t.Errorf("user blocks %+v", u)
	}
	if recs[1].Message.ContentBytes != 8 {
		t.Errorf("content bytes %d, want 8", recs[1].Message.ContentBytes)
	}
	// Without Content, the size is still known but no blocks are kept.
	_, recs = scanAll(t, in, ScanOptions{})
	if recs[1].Message.Content != nil || recs[1].Message.ContentBytes != 8 {
		t.Errorf("summary mode message %+v", recs[1].Message)
	}
}

func TestScanMissingOptionalCompactFields(t *testing.T) {
	in := `{"type":"system","subtype":"compact_boundary","uuid":"b","parentUuid":null,"compactMetadata":{"trigger":"auto","preTokens":150000}}` + "\n" +
		`{"type":"system","subtype":"microcompact_boundary","uuid":"m","parentUuid":"b","microcompactMetadata":{"trigger":"auto","preTokens":90000,"tokensSaved":21000,"compactedToolIds":["t1","t2"]}}` + "\n" +
		`{"type":"system","subtype":"compact_boundary","uuid":"c","compactMetadata":{"trigger":"manual","preTokens":"many"}}` + "\n"
	s, recs := scanAll(t, in, ScanOptions{})
	c := recs[0].Compact
	if c.Trigger != TriggerAuto || c.PreTokens == nil || *c.PreTokens != 150000 || c.PostTokens != nil ||
		c.DurationMs != nil || c.CumulativeDroppedTokens != nil || c.PreservedSegment != nil {
		t.Errorf("compact %+v", c)
	}
	m := recs[1].Microcompact
	if m == nil || *m.TokensSaved != 21000 || len(m.CompactedToolIDs) != 2 {
		t.Errorf("microcompact %+v", m)
	}
	if s.CompactBoundaries != 2 || s.MicrocompactBoundaries != 1 {
		t.Errorf("boundaries %d micro %d", s.CompactBoundaries, s.MicrocompactBoundaries)
	}
	if got := problemKinds(s.Problems); got != "bad-field@3" || recs[2].Compact.Trigger != TriggerManual {
		t.Errorf("problems %q, third %+v", got, recs[2].Compact)
	}
}

func TestScanHugeLine(t *testing.T) {
	big := strings.Repeat("x", 10<<20)
	in := `{"type":"api-request-blob","message":{"content":"` + big + `"}}` + "\n" +
		`{"type":"user","uuid":"u","message":{"content":"` + big + `"}}` + "\n" +
		`{"type":"mode"}` + "\n"
	s, recs := scanAll(t, in, ScanOptions{})
	if s.Records != 3 || len(s.Problems) != 0 {
		t.Fatalf("records %d problems %v", s.Records, s.Problems)
	}
	wantSize := len(`{"type":"user","uuid":"u","message":{"content":""}}`) + 10<<20
	if recs[1].Message.ContentBytes != 10<<20 || recs[1].Size != wantSize {
		t.Errorf("content %d size %d, want %d and %d", recs[1].Message.ContentBytes, recs[1].Size, 10<<20, wantSize)
	}
	if recs[2].Line != 3 || recs[2].Offset != int64(recs[0].Size+1+recs[1].Size+1) {
		t.Errorf("third record line %d offset %d", recs[2].Line, recs[2].Offset)
	}
}

func TestScanCallbackStops(t *testing.T) {
	in := strings.Repeat(`{"type":"mode"}`+"\n", 10)
	n := 0
	s, err := ScanTranscript(strings.NewReader(in), "t", ScanOptions{}, func(*Record) error {
		n++
		if n == 3 {
			return ErrStopScan
		}
		return nil
	})
	if err != nil || n != 3 || s.Records != 3 {
		t.Errorf("err %v n %d records %d", err, n, s.Records)
	}
	boom := errors.New("boom")
	_, err = ScanTranscript(strings.NewReader(in), "t", ScanOptions{}, func(*Record) error { return boom })
	if !errors.Is(err, boom) {
		t.Errorf("callback error lost: %v", err)
	}
}

func TestScanKeepRaw(t *testing.T) {
	line := `{"type": "mode", "mode": "normal"}`
	_, recs := scanAll(t, line+"\r\n", ScanOptions{KeepRaw: true})
	if !bytes.Equal(recs[0].Raw, []byte(line)) {
		t.Errorf("raw %q", recs[0].Raw)
	}
}

func TestSummarizeTranscriptMissing(t *testing.T) {
	_, err := SummarizeTranscript(fstest.MapFS{}, "nope.jsonl")
	if err == nil || !strings.Contains(err.Error(), "nope.jsonl") {
		t.Errorf("err %v", err)
	}
}

// File sizes computed with jq (utf8bytelength) over the same file.
func TestScanInstructionsAttachment(t *testing.T) {
	data, err := os.ReadFile("testdata/transcripts/transcript-interactive-pastes.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	_, recs := scanAll(t, string(data), ScanOptions{})
	var got []string
	for _, r := range recs {
		if r.AttachmentType == "instructions" {
			if r.Line != 16 {
				t.Errorf("instructions on line %d, want 16", r.Line)
			}
			for _, f := range r.AttachmentFiles {
				got = append(got, f.Type+":"+strconv.Itoa(f.Bytes)+":"+strconv.FormatBool(f.IsMemory()))
			}
		}
	}
	if strings.Join(got, " ") != "User:112:false User:67:false Project:52:false AutoMem:25100:true" {
		t.Errorf("files %q", got)
	}
	single := `{"type":"attachment","uuid":"x","attachment":{"type":"nested_memory","path":"/p/CLAUDE.md","content":"ab\ncd"}}` + "\n"
	_, recs = scanAll(t, single, ScanOptions{})
	if fs := recs[0].AttachmentFiles; len(fs) != 1 || fs[0].Path != "/p/CLAUDE.md" || fs[0].Bytes != 5 {
		t.Errorf("single-file attachment %+v", fs)
	}
}

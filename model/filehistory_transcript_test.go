package model

import (
	"bytes"
	"strings"
	"testing"
)

const (
	fhPrompt = `{"type":"user","uuid":"u1","sessionId":"s1","cwd":"/home/me/app","timestamp":"2026-11-22T10:00:00Z","message":{"role":"user","content":"  \n\nFix it\nplease"}}`
	fhSnap   = `{"type":"file-history-snapshot","messageId":"u1","snapshot":{"messageId":"u1","trackedFileBackups":{},"timestamp":"2026-11-22T10:00:01Z"},"isSnapshotUpdate":false}`
	fhDelta  = `{"type":"file-history-delta","messageId":"a1","snapshotMessageId":"u1","trackingPath":"a.txt","backup":{"backupFileName":null,"version":1},"timestamp":"2026-11-22T10:00:02Z"}`
	fhTool   = `{"type":"user","uuid":"t1","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"x","content":"ok"}]}}`
	fhSide   = `{"type":"user","uuid":"s9","isSidechain":true,"message":{"role":"user","content":"sub"}}`
)

func TestReadFileHistoryTranscript(t *testing.T) {
	long := `{"type":"user","uuid":"u2","message":{"role":"user","content":"` + strings.Repeat("x", 10<<20) + `"}}`
	tests := []struct {
		name     string
		data     string
		records  int
		prompts  string // sorted "uuid=first line" pairs
		problems []ProblemKind
		cwd      string
	}{
		{"empty", "", 0, "", nil, ""},
		{"prompt, snapshot, delta", fhPrompt + "\n" + fhSnap + "\n" + fhDelta + "\n", 2, "u1=Fix it", nil, "/home/me/app"},
		{"tool results and sidechains are not prompts", fhTool + "\n" + fhSide + "\n", 0, "", nil, ""},
		{"CRLF and BOM", "\ufeff" + fhPrompt + "\r\n" + fhSnap + "\r\n", 1, "u1=Fix it", nil, "/home/me/app"},
		{"malformed file-history record", fhSnap + "\n" + `{"type":"file-history-delta","messageId":"a"}` + "\n", 1, "", []ProblemKind{ProblemMalformed}, ""},
		{"broken line", "{oops\n" + fhSnap + "\n", 1, "", []ProblemKind{ProblemMalformed}, ""},
		{"incomplete tail", fhSnap + "\n" + `{"type":"file-history-delta","messageId":"a1","snapsh`, 1, "", []ProblemKind{ProblemIncompleteTail}, ""},
		{"10 MiB prompt", long + "\n" + fhSnap + "\n", 1, "u2=" + strings.Repeat("x", promptLineMax) + "…", nil, ""},
		{"invalid UTF-8", `{"type":"user","uuid":"u3","message":{"role":"user","content":"caf` + "\xe9" + `"}}` + "\n", 0, "u3=caf\ufffd", []ProblemKind{ProblemEncoding}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, err := ReadFileHistoryTranscript(strings.NewReader(tt.data), "t.jsonl")
			if err != nil {
				t.Fatal(err)
			}
			if len(tr.Records) != tt.records {
				t.Errorf("records = %d, want %d", len(tr.Records), tt.records)
			}
			var pairs []string
			for _, id := range []string{"u1", "u2", "u3", "t1", "s9"} {
				if p, ok := tr.Prompts[id]; ok {
					pairs = append(pairs, id+"="+p.FirstLine)
				}
			}
			if got := strings.Join(pairs, " "); got != tt.prompts {
				t.Errorf("prompts = %.80q, want %.80q", got, tt.prompts)
			}
			var kinds []ProblemKind
			for _, p := range tr.Problems {
				kinds = append(kinds, p.Kind)
				if p.File != "t.jsonl" || p.Line < 1 {
					t.Errorf("problem without file or line: %+v", p)
				}
			}
			if len(kinds) != len(tt.problems) || len(kinds) > 0 && kinds[0] != tt.problems[0] {
				t.Errorf("problems = %v, want %v", tr.Problems, tt.problems)
			}
			if tr.CWD != tt.cwd {
				t.Errorf("cwd = %q, want %q", tr.CWD, tt.cwd)
			}
		})
	}
}

func TestReadFileHistoryTranscriptLines(t *testing.T) {
	data := fhPrompt + "\n\n" + fhSnap + "\n" + fhDelta + "\n"
	tr, err := ReadFileHistoryTranscript(strings.NewReader(data), "t.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if tr.Prompts["u1"].Line != 1 || tr.Records[0].Line != 3 || tr.Records[1].Line != 4 || tr.SessionID != "s1" {
		t.Errorf("lines: prompt %d, records %d %d; session %q", tr.Prompts["u1"].Line, tr.Records[0].Line, tr.Records[1].Line, tr.SessionID)
	}
}

func BenchmarkReadFileHistoryTranscript(b *testing.B) {
	var buf bytes.Buffer
	for i := 0; i < 1000; i++ {
		buf.WriteString(fhPrompt + "\n" + fhSnap + "\n" + fhDelta + "\n" + fhTool + "\n")
	}
	data := buf.Bytes()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ReadFileHistoryTranscript(bytes.NewReader(data), "t.jsonl"); err != nil {
			b.Fatal(err)
		}
	}
}

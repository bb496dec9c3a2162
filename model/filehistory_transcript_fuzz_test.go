package model

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzFileHistoryTranscript reads arbitrary transcripts for their file
// history: no panic; every record and prompt sits on a line that exists;
// problems carry the file name and a line; prompt labels are one line
// within the cap; CRLF line endings read the same as LF.
func FuzzFileHistoryTranscript(f *testing.F) {
	f.Add([]byte("{\"type\":\"user\",\"uuid\":\"u1\",\"message\":{\"role\":\"user\",\"content\":\"hi\\nthere\"}}\n{\"type\":\"file-history-snapshot\",\"messageId\":\"u1\",\"snapshot\":{\"messageId\":\"u1\",\"trackedFileBackups\":{}}}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, err := ReadFileHistoryTranscript(bytes.NewReader(data), "t.jsonl")
		if err != nil {
			t.Fatalf("read from memory failed: %v", err)
		}
		lines := bytes.Count(data, []byte("\n")) + 1
		for _, r := range tr.Records {
			if r.Line < 1 || r.Line > lines {
				t.Fatalf("record on line %d of %d", r.Line, lines)
			}
			if r.MessageID == "" {
				t.Fatalf("record without id: %+v", r)
			}
		}
		for id, p := range tr.Prompts {
			if p.UUID != id || p.Line < 1 || p.Line > lines {
				t.Fatalf("prompt %q = %+v", id, p)
			}
			if strings.ContainsAny(p.FirstLine, "\n") || utf8.RuneCountInString(p.FirstLine) > promptLineMax+1 {
				t.Fatalf("prompt label %q", p.FirstLine)
			}
		}
		for _, p := range tr.Problems {
			if p.File != "t.jsonl" || p.Line < 1 && p.Kind != ProblemUnreadable {
				t.Fatalf("problem %+v", p)
			}
		}
		if bytes.Contains(data, []byte("\r")) {
			return
		}
		crlf, err := ReadFileHistoryTranscript(bytes.NewReader(bytes.ReplaceAll(data, []byte("\n"), []byte("\r\n"))), "t.jsonl")
		if err != nil || len(crlf.Records) != len(tr.Records) || len(crlf.Prompts) != len(tr.Prompts) {
			t.Fatalf("CRLF: %d records, %d prompts; LF: %d, %d (%v)", len(crlf.Records), len(crlf.Prompts), len(tr.Records), len(tr.Prompts), err)
		}
	})
}

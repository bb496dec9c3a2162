package model

import (
	"bytes"
	"os"
	"reflect"
	"testing"
)

// FuzzScanLoads checks the load scanner against the full reader: whatever
// the input, it finds exactly the instructions and nested_memory records
// ScanTranscript finds (same lines, files and sizes), and its problems
// have a place and a reason.
func FuzzScanLoads(f *testing.F) {
	f.Add([]byte(`{"type":"attachment","uuid":"a","sessionId":"s","attachment":{"type":"instructions","files":[{"path":"/h/CLAUDE.md","type":"User","content":"x"},{"path":"/h/projects/p/memory/MEMORY.md","type":"AutoMem","content":"- [A](a.md)"}]}}` + "\n"))
	f.Add([]byte(`{"type":"attachment","attachment":{"type":"nested_memory","path":"/p/.claude/rules/r.md","content":{"type":"Project","globs":["*.go",3],"rawContent":"r"}}}` + "\n" + `{"type":"attachment","attachment":{"type":"nested_memory"`))
	if data, err := os.ReadFile("testdata/transcripts/transcript-interactive-pastes.jsonl"); err == nil {
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := ScanLoads(bytes.NewReader(data), "f.jsonl")
		if err != nil {
			t.Fatalf("read from memory failed: %v", err)
		}
		for _, p := range got.Problems {
			if p.File != "f.jsonl" || p.Line < 1 || p.Reason == "" {
				t.Fatalf("problem without place or reason: %+v", p)
			}
		}
		var want []*Record
		ScanTranscript(bytes.NewReader(data), "f.jsonl", ScanOptions{MemoryText: true}, func(r *Record) error {
			if r.Type == RecordAttachment && (r.AttachmentType == AttachmentInstructions || r.AttachmentType == AttachmentNestedMemory) {
				want = append(want, r)
			}
			return nil
		})
		if len(got.Records) != len(want) {
			t.Fatalf("%d load records, the full reader finds %d", len(got.Records), len(want))
		}
		for i := range want {
			g, w := got.Records[i], want[i]
			if g.Line != w.Line || g.UUID != w.UUID || g.SessionID != w.SessionID || !g.Timestamp.Equal(w.Timestamp) || !reflect.DeepEqual(g.AttachmentFiles, w.AttachmentFiles) {
				t.Fatalf("record %d: %+v\nfull reader: %+v", i, g, w)
			}
		}
	})
}

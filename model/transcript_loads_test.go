package model

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// The real transcript records three process starts (one per -p run), each
// with the same four files; ScanLoads finds them with the full reader's
// fields and keeps MEMORY.md's text, nothing else's.
func TestScanLoadsReal(t *testing.T) {
	loads, err := ReadLoads(os.DirFS("testdata/transcripts"), "transcript-partial-compactions.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(loads.Problems) != 0 || len(loads.Records) != 3 {
		t.Fatalf("%d records, problems %v", len(loads.Records), loads.Problems)
	}
	var full []*Record
	f, _ := os.Open("testdata/transcripts/transcript-partial-compactions.jsonl")
	defer f.Close()
	ScanTranscript(f, "t", ScanOptions{}, func(r *Record) error {
		if r.AttachmentType == AttachmentInstructions {
			full = append(full, r)
		}
		return nil
	})
	wantLines := []int{10, 43, 84}
	for i, r := range loads.Records {
		if r.Line != wantLines[i] || r.SessionID != "fedcb1e2-dbe4-5555-90b5-52df88de5bed" || r.Timestamp.IsZero() || len(r.AttachmentFiles) != 4 {
			t.Fatalf("record %d: line %d session %s files %d", i, r.Line, r.SessionID, len(r.AttachmentFiles))
		}
		for j, af := range r.AttachmentFiles {
			ff := full[i].AttachmentFiles[j]
			if af.Path != ff.Path || af.Type != ff.Type || af.Bytes != ff.Bytes || ff.Text != "" {
				t.Errorf("record %d file %d: %+v, full reader %+v", i, j, af, ff)
			}
			if (af.Text != "") != af.IsMemory() {
				t.Errorf("file %s (%s): text kept %v", af.Path, af.Type, af.Text != "")
			}
		}
		mem := r.AttachmentFiles[3]
		if mem.Type != AttachmentAutoMem || !strings.HasSuffix(mem.Path, "/projects/-tmp-rc-work-beta/memory/MEMORY.md") || len(mem.Text) != mem.Bytes || mem.Bytes != 25100 {
			t.Errorf("MEMORY.md %s %s %d bytes, text %d", mem.Path, mem.Type, mem.Bytes, len(mem.Text))
		}
	}
}

// A nested_memory attachment (FORMATS.md: path, displayPath and a content
// object) is one file with its type, globs and size; a line that only
// mentions the words is read and left out.
func TestScanLoadsNestedMemory(t *testing.T) {
	src := `{"type":"attachment","uuid":"a1","parentUuid":"u1","sessionId":"s","timestamp":"2026-11-22T10:00:00.000Z",` +
		`"attachment":{"type":"nested_memory","path":"/w/app/.claude/rules/web.md","displayPath":".claude/rules/web.md",` +
		`"content":{"path":"/w/app/.claude/rules/web.md","type":"Project","globs":["web/**/*.tsx","*.css"],"rawContent":"Use tabs.","contentDiffersFromDisk":false}}}` + "\n" +
		`{"type":"user","uuid":"u2","message":{"role":"user","content":"the attachment said \"nested_memory\""}}` + "\n" +
		`{"type":"attachment","attachment":{"type":"nested_memory" "broken` + "\n"
	loads, err := ScanLoads(strings.NewReader(src), "t.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(loads.Records) != 1 || len(loads.Problems) != 1 || loads.Problems[0].Line != 3 {
		t.Fatalf("records %d problems %v", len(loads.Records), loads.Problems)
	}
	r := loads.Records[0]
	if r.AttachmentType != AttachmentNestedMemory || r.UUID != "a1" || r.ParentUUID != "u1" || len(r.AttachmentFiles) != 1 {
		t.Fatalf("record %+v", r)
	}
	f := r.AttachmentFiles[0]
	if f.Path != "/w/app/.claude/rules/web.md" || f.Type != "Project" || strings.Join(f.Globs, ",") != "web/**/*.tsx,*.css" || f.Bytes != len("Use tabs.") || f.Text != "" {
		t.Errorf("file %+v", f)
	}
}

// BenchmarkScanLoads reads the real transcripts for their loads;
// BenchmarkScanLoadsFullReader does the same with the full reader, for
// comparison (go test -bench ScanLoads ./model).
func BenchmarkScanLoads(b *testing.B) {
	for _, name := range []string{"transcript-partial-compactions.jsonl", "transcript-interactive-pastes.jsonl"} {
		data, err := os.ReadFile("testdata/transcripts/" + name)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if l, _ := ScanLoads(bytes.NewReader(data), "t"); len(l.Records) == 0 {
					b.Fatal("no loads")
				}
			}
		})
		b.Run(name+"/full-reader", func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				ScanTranscript(bytes.NewReader(data), "t", ScanOptions{MemoryText: true}, func(*Record) error { return nil })
			}
		})
	}
}

package sessions

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/memscope/memscope/internal/jsonscan"
)

func TestLineScannerNotesFields(t *testing.T) {
	in := `{"type":"assistant","typ\u0065":"system","message":{"id":"m1","usage":{"input_tokens":5,"Output_Tokens":3},"content":[{"type":"text","text":"hi"}]},"requestId":"r1","message":{"id":"m2"}}`
	s := newLineScanner()
	if err := s.line([]byte(in)); err != nil {
		t.Fatal(err)
	}
	f := s.f
	if got, _ := s.text(f.typ); got != "system" {
		t.Errorf("type = %q, want the later escaped key's value", got)
	}
	if got, _ := s.text(f.msgID); got != "m2" {
		t.Errorf("message.id = %q, want the last message's", got)
	}
	if f.msgUsage.present() || f.input.present() || f.usageMembers != 0 || f.usageOdd {
		t.Errorf("the last message has no usage, but usage notes survived: %+v", f)
	}
	if got, _ := s.text(f.requestID); got != "r1" {
		t.Errorf("requestId = %q", got)
	}

	if err := s.line([]byte(`{"message":{"usage":{"input_tokens":5,"Output_Tokens":3},"content":[1]}}`)); err != nil {
		t.Fatal(err)
	}
	if !s.f.usageOdd || s.f.usageMembers != 1 || !s.f.badContent {
		t.Errorf("want an odd usage key, one usage member and bad content: %+v", s.f)
	}
	if err := s.line([]byte(`[1]`)); err != jsonscan.ErrNotObject {
		t.Errorf("an array line: %v, want ErrNotObject", err)
	}
	tooDeep := `{"message":{"content":[{"x":` + strings.Repeat("[", jsonscan.MaxDepth-3) + strings.Repeat("]", jsonscan.MaxDepth-3) + `}]}}`
	if err := s.line([]byte(tooDeep)); err == nil || json.Valid([]byte(tooDeep)) {
		t.Errorf("nesting past encoding/json's limit inside message.content accepted")
	}
}

// stat's summary (a worker without ccusage's lines) checks
// message.content and usage.cache_creation as values, walking into
// neither: what it reads of the line is the same.
func TestSummaryWalksNoContentBlock(t *testing.T) {
	line := []byte(`{"type":"assistant","requestId":"r","message":{"id":"m","content":[{"type":"text","text":"hi"},{"type":"tool_use","input":{"a":1}}],` +
		`"usage":{"input_tokens":4,"cache_creation":{"ephemeral_1h_input_tokens":2},"output_tokens":1}}}`)
	for _, ccusage := range []bool{false, true} {
		w := newScanWorker(ccusage)
		if err := w.ls.line(line); err != nil {
			t.Fatal(err)
		}
		want := 0
		if ccusage {
			want = 4
		}
		if w.ls.blocks != want {
			t.Errorf("ccusage %v: %d members of content blocks walked, want %d", ccusage, w.ls.blocks, want)
		}
		if f := &w.ls.f; !f.msgUsage.present() || !f.input.present() || !f.output.present() || !f.msgID.present() || f.cache1h.present() != ccusage {
			t.Errorf("ccusage %v: fields %+v", ccusage, *f)
		}
	}
}

// FuzzSessionsJSON holds the report's walk, which goes into message,
// usage and content, to json.Valid.
func FuzzSessionsJSON(f *testing.F) {
	f.Add([]byte(`{"type":"user","message":{"content":"x\n"}}`))
	f.Add([]byte(`{"message":{"usage":{"input_tokens":1},"content":[{"text":"x"},"y",1]}}`))
	f.Fuzz(func(t *testing.T, in []byte) {
		trimmed := bytes.TrimLeft(in, " \t\r\n")
		want := json.Valid(in) && len(trimmed) > 0 && trimmed[0] == '{'
		for _, ccusage := range []bool{false, true} {
			s := newLineScanner()
			s.summaryOnly = !ccusage
			if err := s.line(in); (err == nil) != want {
				t.Fatalf("ccusage %v: line(%q) error = %v, json.Valid = %v", ccusage, in, err, json.Valid(in))
			}
		}
	})
}

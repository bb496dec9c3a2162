package model

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// walkPair is a one-walk decoder and a decoder that reads every message
// after the line (as before the walk), each with its own Keep that logs
// what it is asked and answers as the ledger's does: by the record's
// type and the block, and by what it was asked before (a tool_result is
// taken when an earlier Bash tool_use had its id).
type walkPair struct {
	walk, old       *recordDecoder
	walkLog, oldLog *[]string
}

func newWalkPair(opts ScanOptions, keep bool) walkPair {
	p := walkPair{walkLog: new([]string), oldLog: new([]string)}
	mk := func(log *[]string) *recordDecoder {
		o := opts
		if keep {
			ids := map[string]bool{}
			o.Keep = func(r *Record, b *ContentBlock) bool {
				*log = append(*log, fmt.Sprintf("%d %q %q %q %v %q %q %q %q %v", r.Line, r.Type, r.UUID, r.SessionID, r.IsSidechain,
					b.Type, b.Name, b.ID, b.ToolUseID, b.IsError))
				switch b.Type {
				case BlockText:
					return r.Type == RecordUser
				case BlockToolUse:
					if b.Name == "Bash" {
						ids[b.ID] = true
					}
					return b.Name == "Bash" || b.Name == "Edit"
				case BlockToolResult:
					return ids[b.ToolUseID]
				}
				return false
			}
		}
		return newRecordDecoder("f.jsonl", o)
	}
	p.walk, p.old = mk(p.walkLog), mk(p.oldLog)
	p.old.noWalk = true
	p.old.slowSizes = true // and count sizes by reading the text, as before
	return p
}

// walkOptions are the option sets the differential tests read with.
var walkOptions = []struct {
	opts ScanOptions
	keep bool
}{
	{ScanOptions{}, false},
	{ScanOptions{Content: true}, false},
	{ScanOptions{Content: true, KeepText: true}, false},
	{ScanOptions{Content: true, KeepText: true, ResultNeeds: "Exit code"}, true},
	{ScanOptions{Content: true}, true},
}

// sameDecode decodes data's lines with both decoders of each option set
// and fails where the two differ: the problem, the record (partial, for a
// malformed line), the field problems, or Keep's calls.
func sameDecode(t *testing.T, data []byte) {
	t.Helper()
	for i, w := range walkOptions {
		p := newWalkPair(w.opts, w.keep)
		lr := NewLineReader(bytes.NewReader(data))
		for {
			line, ok := lr.Next()
			if !ok {
				break
			}
			if line.TooLong || len(bytes.TrimSpace(line.Bytes)) == 0 {
				continue
			}
			var got, want Record
			gp, gok := p.walk.decode(line, &got)
			wp, wok := p.old.decode(line, &want)
			switch {
			case gp != wp || gok != wok:
				t.Fatalf("options %d, line %d %q: walk %v %+v, before %v %+v", i, line.Number, line.Bytes, gok, gp, wok, wp)
			case !reflect.DeepEqual(got, want):
				t.Fatalf("options %d, line %d %q: walk read\n%+v\nbefore\n%+v", i, line.Number, line.Bytes, got, want)
			case gok && !reflect.DeepEqual(p.walk.problems, p.old.problems):
				t.Fatalf("options %d, line %d %q: walk problems %+v, before %+v", i, line.Number, line.Bytes, p.walk.problems, p.old.problems)
			case !reflect.DeepEqual(*p.walkLog, *p.oldLog):
				t.Fatalf("options %d, line %d %q: Keep asked\n%q\nbefore\n%q", i, line.Number, line.Bytes, *p.walkLog, *p.oldLog)
			}
		}
	}
}

// walkSeeds are lines that take each path of the walk: a message walked
// (content string, array, blocks held for Keep, non-object elements,
// usage good and bad), a message before its type (walked on the chance;
// the type then another, or the user's), a message not walked (an
// api-request-blob's), a type changed after the message, a repeated
// message, escaped keys, and lines malformed inside the walked message.
var walkSeeds = []string{
	`{"type":"user","uuid":"u1","message":{"role":"user","content":"hello"},"sessionId":"s","timestamp":"2026-01-02T03:04:05Z"}`,
	`{"type":"assistant","message":{"id":"m","model":"x","content":[{"type":"text","text":"hi"},{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"ls"}},3,null,{"type":"thinking","thinking":"hm"}],"usage":{"input_tokens":3,"output_tokens":4}},"uuid":"a1"}`,
	`{"type":"user","message":{"role":"user","content":[{"content":"Exit code 1","type":"tool_result","tool_use_id":"t1","is_error":true},{"type":"image","source":{}}]},"uuid":"u2"}`,
	`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t2","content":[{"type":"text","text":"a"},{"type":"image"}]}]},"uuid":"after","isSidechain":true}`,
	`{"message":{"role":"user","content":[{"type":"text","text":"x"}]},"type":"user"}`,
	`{"parentUuid":null,"message":{"role":"assistant","content":[{"type":"tool_use","name":"Bash","id":"b1","input":{}}],"usage":{"input_tokens":"x"}},"type":"system","uuid":"s1"}`,
	`{"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"b1","content":"Exit code 2"}]},"type":"user","uuid":"later"}`,
	`{"type":"api-request-blob","message":{"role":"user","content":[{"type":"text","text":"x"}]}}`,
	`{"type":"user","message":{"content":[{"type":"text","text":"x"}]},"type":"assistant"}`,
	`{"type":"user","message":{"content":[{"type":"text","text":"x"}]},"type":"system"}`,
	`{"type":"user","message":{"content":[{"type":"text","text":"x"}]},"message":"no"}`,
	`{"type":"user","message":{"content":"one"},"message":{"content":[{"type":"text","text":"two"}]}}`,
	`{"type":"user","message":{"content":[{"type":"text","text":"a"}],"content":"b","content":[{"type":"text","text":"c"}]}}`,
	`{"type":"user","message":{"c\u006fntent":[{"t\u0079pe":"text","te\u0078t":"e"}]}}`,
	`{"type":"assistant","message":{"usage":{"input_tokens":"x"},"content":[{"type":"text","text":"u"}]}}`,
	`{"type":"assistant","message":{"usage":{"Input_Tokens":1}}}`,
	`{"type":"user","message":{"content":[{"type":"text","text":"a"},]}}`,
	`{"type":"user","message":{"content":[{"type":"tool_use","name":"Bash","id":"t9"}]},"uuid":1,}`,
	`{"type":"user","message":{"content":[{"type":"text","text":"a"}]}} x`,
	`{"type":"user","uuid":5,"message":{"content":[{"type":"text","text":"a\u00e9"}]},"timestamp":"bad"}`,
	`{"type":"user","message":{"content":[{"type":"text","text":"a"}]`,
	`{"type":"user","message":[1,2]}`,
	`{"type":"user","message":null}`,
	`{"type":"assistant","message":{}}`,
	`{"type":"user","message":{"role":"user","content":"caf\u00e9 \ud83d\ude00 \"q\" tab\t"},"uuid":"esc"}`,
	`{"type":"user","message":{"role":"user","content":[{"type":"text","text":"café 😀 ſ"},{"type":"tool_result","tool_use_id":"t1","content":[{"type":"text","text":"Exit code 1 ✓"}]}]},"uuid":"utf"}`,
	`{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t9","name":"Edit","input":{"old":"é","new":"😀"}},{"type":"thinking","thinking":"ü\n"}]},"uuid":"utf2"}`,
	`{"type":"attachment","attachment":{"type":"nested_memory","path":"/p/CLAUDE.md","content":{"type":"Project","content":"règle 😀"}},"uuid":"att"}`,
	`{"type":"attachment","attachment":{"type":"instructions","files":[{"path":"/a/CLAUDE.md","type":"Project","content":"ascii only\u00e9"},{"path":"/b.md","type":"User","content":"non ascii ü"}]},"uuid":"att2"}`,
}

// FuzzOneWalkSameRecord: whatever a file holds, the one-walk decoder
// reads each line into the record, problems and Keep's calls that
// reading the message after the line gives.
func FuzzOneWalkSameRecord(f *testing.F) {
	for _, s := range walkSeeds {
		f.Add([]byte(s + "\n"))
	}
	f.Add([]byte(walkSeeds[1] + "\n" + walkSeeds[2] + "\n" + walkSeeds[3]))
	f.Fuzz(sameDecode)
}

// TestOneWalkSameRecordOnTestdata: the transcripts of testdata/home read
// the same with the walk and without it.
func TestOneWalkSameRecordOnTestdata(t *testing.T) {
	var n int
	err := filepath.WalkDir("../testdata/home", func(p string, e os.DirEntry, err error) error {
		if err != nil || e.IsDir() || filepath.Ext(p) != ".jsonl" {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		n += bytes.Count(data, []byte(`"message":{`))
		sameDecode(t, data)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatal("testdata/home has no message to walk")
	}
}

// BenchmarkDecodeWalk decodes a transcript's lines with the walk and as
// before it (sub-benchmarks walk and old), with a ledger-like Keep: the
// file $MEMSCOPE_BENCH_TRANSCRIPT, else walkSeeds' well-formed lines
// repeated.
func BenchmarkDecodeWalk(b *testing.B) {
	var data []byte
	if p := os.Getenv("MEMSCOPE_BENCH_TRANSCRIPT"); p != "" {
		var err error
		if data, err = os.ReadFile(p); err != nil {
			b.Fatal(err)
		}
	} else {
		for range 2000 {
			for _, s := range walkSeeds[:12] {
				data = append(append(data, s...), '\n')
			}
		}
	}
	for _, noWalk := range []bool{false, true} {
		name := "walk"
		if noWalk {
			name = "old"
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				p := newWalkPair(ScanOptions{Content: true, KeepText: true, ResultNeeds: "Exit code"}, true)
				d := p.walk
				if noWalk {
					d = p.old
				}
				lr := NewLineReader(bytes.NewReader(data))
				for {
					line, ok := lr.Next()
					if !ok {
						break
					}
					var rec Record
					d.decode(line, &rec)
				}
			}
		})
	}
}

// TestUsageReadInTheWalk: a walked message's usage is read while the
// line is checked, not walked again after it (usageRewalks); what is
// read is the usage decodeMessage reads (sameDecode), cache_creation's
// 1-hour count and speed included, and an odd usage still goes to
// json.Unmarshal with its problem.
func TestUsageReadInTheWalk(t *testing.T) {
	lines := []string{
		`{"type":"assistant","message":{"id":"m","usage":{"input_tokens":3,"cache_creation_input_tokens":5,"cache_read_input_tokens":7,"output_tokens":4,"cache_creation":{"ephemeral_5m_input_tokens":1,"ephemeral_1h_input_tokens":2},"speed":"fast","service_tier":"standard"},"content":[{"type":"text","text":"hi"}]},"uuid":"a"}`,
		`{"message":{"role":"assistant","usage":{"output_tokens":null,"cache_creation":null}},"type":"assistant"}`,
		`{"type":"assistant","message":{"usage":{"input_tokens":1},"usage":{"output_tokens":9}}}`,
	}
	odd := []string{
		`{"type":"assistant","message":{"usage":{"input_tokens":1.5}}}`,
		`{"type":"assistant","message":{"usage":{"cache_creation":{"Ephemeral_1h_Input_Tokens":2}}}}`,
		`{"type":"assistant","message":{"usage":{"cache_creation":[1]}}}`,
		`{"type":"assistant","message":{"usage":{"Speed":"fast"}}}`,
	}
	all := append(append([]string{}, lines...), odd...)
	sameDecode(t, []byte(strings.Join(all, "\n")+"\n"))
	for _, l := range lines {
		d := newRecordDecoder("f.jsonl", ScanOptions{Content: true})
		var r Record
		if _, ok := d.decode(Line{Bytes: []byte(l), Number: 1, Terminated: true}, &r); !ok {
			t.Fatalf("%s: not decoded", l)
		}
		if r.Message == nil || r.Message.Usage == nil {
			t.Fatalf("%s: no usage read", l)
		}
		if d.usageRewalks != 0 {
			t.Errorf("%s: usage walked again %d times after the line's check", l, d.usageRewalks)
		}
	}
	d := newRecordDecoder("f.jsonl", ScanOptions{})
	var r Record
	d.decode(Line{Bytes: []byte(lines[0]), Number: 1, Terminated: true}, &r)
	if u := r.Message.Usage; u.InputTokens != 3 || u.OutputTokens != 4 || u.CacheCreationInputTokens != 5 || u.CacheReadInputTokens != 7 ||
		r.Message.CacheWrite1h != 2 || !r.Message.Fast {
		t.Errorf("usage read %+v, 1h %d, fast %v", *u, r.Message.CacheWrite1h, r.Message.Fast)
	}
}

// TestStrEscapedOneAllocation: the escaped text of an ASCII line (a
// user's prompt with its newlines) is decoded into its string in one
// allocation (main: four, the text copied four times), and reads as
// json.Unmarshal reads it.
func TestStrEscapedOneAllocation(t *testing.T) {
	text := `"line one\nline \"two\"\t\u00e9\uD83D\uDE00\\ end"`
	line := []byte(`{"type":"user","message":{"role":"user","content":` + text + `}}`)
	d := newRecordDecoder("f.jsonl", ScanOptions{Content: true, KeepText: true})
	var r Record
	if _, ok := d.decode(Line{Bytes: line, Number: 1, Terminated: true}, &r); !ok {
		t.Fatal("not decoded")
	}
	var want string
	if err := json.Unmarshal([]byte(text), &want); err != nil {
		t.Fatal(err)
	}
	if got := r.Message.Content[0].Text; got != want {
		t.Fatalf("read %q, want %q", got, want)
	}
	raw := []byte(text)
	if n := testing.AllocsPerRun(100, func() { _ = d.str(raw) }); n != 1 {
		t.Errorf("%v allocations for one escaped string, want 1", n)
	}
}

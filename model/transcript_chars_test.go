package model

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf16"
)

// jsUnits is what JavaScript's String.length gives for s decoded by
// encoding/json (each invalid UTF-8 byte read as U+FFFD).
func jsUnits(s string) int { return len(utf16.Encode([]rune(s))) }

// scanOne reads line as a one-record transcript with content decoded.
func scanOne(t testing.TB, line string) *Record {
	t.Helper()
	var got *Record
	_, err := ScanTranscript(strings.NewReader(line+"\n"), "t.jsonl", ScanOptions{Content: true}, func(r *Record) error {
		got = r
		return nil
	})
	if err != nil || got == nil {
		t.Fatalf("scan %q: err %v, record %v", line, err, got)
	}
	return got
}

// The client counts characters with String.length: UTF-16 code units. A
// CJK character is 3 bytes and 1 unit, an emoji 4 bytes and 2 units; an
// escape is 1 unit however it is written.
func TestContentCharsAreUTF16Units(t *testing.T) {
	cases := []struct {
		name, content string
		bytes, chars  int
	}{
		{"ascii", `"hello"`, 5, 5},
		{"cjk", `"日本語のテキスト"`, 24, 8},
		{"emoji", `"ok 😀😀"`, 11, 7},
		{"accents", `"café é"`, 8, 6},
		{"escapes", `"a\n\"\u00e9\ud83d\ude00"`, 6, 6},
		{"blocks", `[{"type":"text","text":"日本"},{"type":"tool_result","tool_use_id":"x","content":"😀"},{"type":"tool_result","tool_use_id":"y","content":[{"type":"text","text":"é"},{"type":"image","source":{}}]}]`, 6 + 4 + 2, 2 + 2 + 1},
	}
	for _, c := range cases {
		r := scanOne(t, `{"type":"user","uuid":"u","message":{"role":"user","content":`+c.content+`}}`)
		m := r.Message
		if m.ContentBytes != c.bytes || m.ContentChars != c.chars {
			t.Errorf("%s: bytes %d chars %d, want %d and %d", c.name, m.ContentBytes, m.ContentChars, c.bytes, c.chars)
		}
		sum := 0
		for _, b := range m.Content {
			sum += b.Chars
		}
		if sum != c.chars {
			t.Errorf("%s: blocks hold %d chars, message %d", c.name, sum, c.chars)
		}
	}
}

// A tool_use input is counted as written (the client sends it as JSON).
func TestToolUseInputChars(t *testing.T) {
	input := `{"path":"/src/日本.go","n":1}`
	r := scanOne(t, `{"type":"assistant","uuid":"a","message":{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"Read","input":`+input+`}]}}`)
	b := r.Message.Content[0]
	if b.Bytes != len(input) || b.Chars != jsUnits(input) || b.Chars == b.Bytes {
		t.Errorf("input bytes %d chars %d, want %d and %d", b.Bytes, b.Chars, len(input), jsUnits(input))
	}
}

func TestAttachmentChars(t *testing.T) {
	att := `{"type":"nested_memory","path":"/p/CLAUDE.md","content":"规则：不要😀"}`
	r := scanOne(t, `{"type":"attachment","uuid":"a","attachment":`+att+`}`)
	if r.AttachmentChars != jsUnits(att) || r.AttachmentBytes != len(att) {
		t.Errorf("attachment bytes %d chars %d, want %d and %d", r.AttachmentBytes, r.AttachmentChars, len(att), jsUnits(att))
	}
	if len(r.AttachmentFiles) != 1 || r.AttachmentFiles[0].Chars != jsUnits("规则：不要😀") {
		t.Errorf("files %+v", r.AttachmentFiles)
	}
	files := `{"type":"instructions","files":[{"path":"/m/MEMORY.md","type":"AutoMem","content":"é\u00e9😀"}]}`
	r = scanOne(t, `{"type":"attachment","uuid":"b","attachment":`+files+`}`)
	if len(r.AttachmentFiles) != 1 || r.AttachmentFiles[0].Chars != 4 {
		t.Errorf("files %+v", r.AttachmentFiles)
	}
}

// Invalid UTF-8 is read as one U+FFFD per bad byte, so each counts one
// unit, as encoding/json decodes it.
func TestCharsOfInvalidUTF8(t *testing.T) {
	r := scanOne(t, "{\"type\":\"user\",\"uuid\":\"u\",\"message\":{\"content\":\"a\xff\xfe\xe6\x97b\"}}")
	if got := r.Message.ContentChars; got != jsUnits("a\xff\xfe\xe6\x97b") || got != 6 {
		t.Errorf("chars %d, want 6", got)
	}
}

func TestUTF16Units(t *testing.T) {
	long := strings.Repeat("abcdefgh", 100)
	for _, s := range []string{"", "a", long, long + "é" + long, "😀" + long + "日", "\xff" + long + "\xc3", strings.Repeat("日本語", 1000)} {
		if got := utf16Units([]byte(s)); got != jsUnits(s) {
			t.Errorf("utf16Units(%.20q…) = %d, want %d", s, got, jsUnits(s))
		}
	}
}

// FuzzTranscriptChars holds every character count the scanner reports to
// String.length of the text encoding/json decodes, for text given as a
// string content, a text block, a tool_result string and a tool_result
// text block.
func FuzzTranscriptChars(f *testing.F) {
	for _, s := range []string{"", "plain", "日本語", "😀 é", "a\xffb", `\u00e9`, `\ud83d\ude00`, `\ud800x`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		raw, err := json.Marshal(s)
		if err != nil {
			return
		}
		var decoded string
		if json.Unmarshal(raw, &decoded) != nil {
			t.Fatalf("encoding/json cannot read back %s", raw)
		}
		want := jsUnits(decoded)
		q := string(raw)
		for _, content := range []string{
			q,
			`[{"type":"text","text":` + q + `}]`,
			`[{"type":"tool_result","tool_use_id":"t","content":` + q + `}]`,
			`[{"type":"tool_result","tool_use_id":"t","content":[{"type":"text","text":` + q + `}]}]`,
		} {
			r := scanOne(t, `{"type":"user","uuid":"u","message":{"content":`+content+`}}`)
			if r.Message.ContentChars != want || len(r.Message.Content) != 1 || r.Message.Content[0].Chars != want {
				t.Fatalf("%s: chars %d, want %d", content, r.Message.ContentChars, want)
			}
		}
		// s itself as the body of a JSON string, as written: raw non-ASCII,
		// invalid bytes and escapes (a surrogate pair among them) as they come.
		body := `"` + s + `"`
		var direct string
		if json.Unmarshal([]byte(body), &direct) == nil {
			r := scanOne(t, `{"type":"user","uuid":"u","message":{"content":`+body+`}}`)
			if r.Message.ContentChars != jsUnits(direct) {
				t.Fatalf("%s: chars %d, want %d", body, r.Message.ContentChars, jsUnits(direct))
			}
		}
	})
}

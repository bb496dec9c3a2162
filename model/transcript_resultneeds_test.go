package model

import (
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
)

// resultText reads one tool_result whose content is the raw JSON content
// with opts and returns its block.
func resultText(t testing.TB, content string, opts ScanOptions) (ContentBlock, bool) {
	data := `{"type":"user","uuid":"u1","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":` + content + `}]}}` + "\n"
	tr, err := ReadTranscriptWith(fstest.MapFS{"t.jsonl": {Data: []byte(data)}}, "t.jsonl", opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Records) != 1 || tr.Records[0].Message == nil || len(tr.Records[0].Message.Content) != 1 {
		return ContentBlock{}, false // not a record: the fuzzer's content was not valid JSON
	}
	return tr.Records[0].Message.Content[0], true
}

// TestResultNeedsSkipsOnlyWhatCannotHoldIt: a result string without the
// words (nor a \u escape) is left undecoded, with its sizes; one that
// holds them, or spells them with \u, or is an array of blocks (where
// the words may straddle two), is decoded as without the option.
func TestResultNeedsSkipsOnlyWhatCannotHoldIt(t *testing.T) {
	full := ScanOptions{Content: true, KeepText: true}
	needs := full
	needs.ResultNeeds = "Exit code"
	for _, c := range []struct {
		content string
		decoded bool
	}{
		{`"ok\nall tests passed"`, false},
		{`"FAIL\nExit code 1"`, true},
		{`"FAIL\nExit\u0020code 2"`, true},
		{`"exit code 3"`, false},
		{`[{"type":"text","text":"Exit co"},{"type":"text","text":"de 4"}]`, true},
	} {
		want, _ := resultText(t, c.content, full)
		got, _ := resultText(t, c.content, needs)
		if got.Bytes != want.Bytes || got.Chars != want.Chars || got.ToolUseID != want.ToolUseID {
			t.Errorf("%s: sizes %d/%d, want %d/%d", c.content, got.Bytes, got.Chars, want.Bytes, want.Chars)
		}
		switch {
		case c.decoded && got.Text != want.Text:
			t.Errorf("%s: text %q, want %q", c.content, got.Text, want.Text)
		case !c.decoded && (got.Text != "" || want.Text == ""):
			t.Errorf("%s: text %q decoded (full read %q)", c.content, got.Text, want.Text)
		}
	}
}

// FuzzResultNeeds: whatever a result string holds, a result left
// undecoded is one whose decoded text does not hold the words.
func FuzzResultNeeds(f *testing.F) {
	for _, s := range []string{`ok`, `Exit code 1`, `Exit\u0020code 1`, `E\u0078it code`, `Exit\ncode`, `Exit\/code`, `\"Exit code\"`} {
		f.Add(s)
	}
	needs := ScanOptions{Content: true, KeepText: true, ResultNeeds: "Exit code"}
	full := ScanOptions{Content: true, KeepText: true}
	f.Fuzz(func(t *testing.T, body string) {
		if strings.ContainsAny(body, "\n\r") {
			return // one line
		}
		raw := `"` + body + `"`
		got, ok := resultText(t, raw, needs)
		if !ok {
			return
		}
		want, _ := resultText(t, raw, full)
		if got.Text != want.Text && (got.Text != "" || strings.Contains(want.Text, "Exit code")) {
			t.Errorf("%s: text %s, full read %s", raw, strconv.Quote(got.Text), strconv.Quote(want.Text))
		}
	})
}

package sessions

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestJSONScannerAgreesWithJSONValid(t *testing.T) {
	deep := strings.Repeat("[", jsonMaxDepth) + strings.Repeat("]", jsonMaxDepth)
	tooDeep := strings.Repeat("[", jsonMaxDepth+1) + strings.Repeat("]", jsonMaxDepth+1)
	deepInObject := `{"a":` + strings.Repeat("[", jsonMaxDepth-1) + strings.Repeat("]", jsonMaxDepth-1) + `}`
	tooDeepInObject := `{"a":` + strings.Repeat("[", jsonMaxDepth) + strings.Repeat("]", jsonMaxDepth) + `}`
	tooDeepInMessage := `{"message":{"content":[{"x":` + strings.Repeat("[", jsonMaxDepth-3) + strings.Repeat("]", jsonMaxDepth-3) + `}]}}`
	long := `{"type":"user","text":"` + strings.Repeat(`abc\n\"def\u00e9 `, 5000) + `"}`
	for _, tc := range []struct {
		name, in string
		valid    bool
	}{
		{"empty", ``, false},
		{"blank", `   `, false},
		{"object", `{"type":"user","n":-1.5e+3,"t":true,"f":false,"z":null}`, true},
		{"nested", `{"message":{"usage":{"input_tokens":1},"content":[{"text":"x"},"y",1]}}`, true},
		{"array", `[1,2,{"a":[]}]`, true},
		{"scalar", `"just a string"`, true},
		{"spaces", " \t{ \"a\" : [ 1 , 2 ] }\r ", true},
		{"trailing comma", `{"a":1,}`, false},
		{"trailing garbage", `{"a":1} x`, false},
		{"two objects", `{"a":1}{"b":2}`, false},
		{"unterminated string", `{"a":"abc`, false},
		{"raw tab in string", "{\"a\":\"x\ty\"}", false},
		{"raw control in key", "{\"a\x01\":1}", false},
		{"tab outside string", "{\"a\":\t1}", true},
		{"bad escape", `{"a":"\x"}`, false},
		{"short unicode escape", `{"a":"\u12"}`, false},
		{"unicode escape", `{"a":"\u12aF"}`, true},
		{"escaped quote at end", `{"a":"x\\"}`, true},
		{"escaped quote inside", `{"a":"x\"y"}`, true},
		{"backslash before closing", `{"a":"x\\\"}`, false},
		{"leading zero", `{"a":01}`, false},
		{"bare minus", `{"a":-}`, false},
		{"dot without digits", `{"a":1.}`, false},
		{"exponent without digits", `{"a":1e}`, false},
		{"bad literal", `{"a":tru}`, false},
		{"missing colon", `{"a" 1}`, false},
		{"non-string key", `{1:2}`, false},
		{"invalid utf8 kept", "{\"a\":\"\xff\xfe\"}", true},
		{"high bytes outside string", "{\"a\":1\xff}", false},
		{"deep", deep, true},
		{"too deep", tooDeep, false},
		{"deep in object", deepInObject, true},
		{"too deep in object", tooDeepInObject, false},
		{"too deep in message content", tooDeepInMessage, false},
		{"long string with escapes", long, true},
		{"escaped key", `{"typ\u0065":"user"}`, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := json.Valid([]byte(tc.in)); got != tc.valid {
				t.Fatalf("test case is wrong: json.Valid = %v", got)
			}
			var s jsonScanner
			if err := s.valid([]byte(tc.in)); (err == nil) != tc.valid {
				t.Errorf("valid() error = %v, want valid %v", err, tc.valid)
			}
			if err := s.line([]byte(tc.in)); (err == nil) != tc.valid {
				t.Errorf("line() error = %v, want valid %v", err, tc.valid)
			}
		})
	}
}

func TestJSONScannerNotesFields(t *testing.T) {
	in := `{"type":"assistant","typ\u0065":"system","message":{"id":"m1","usage":{"input_tokens":5,"Output_Tokens":3},"content":[{"type":"text","text":"hi"}]},"requestId":"r1","message":{"id":"m2"}}`
	var s jsonScanner
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
}

func TestPlainRunFindsFirstStop(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
		hi   bool
	}{
		{``, 0, false},
		{`abc`, 3, false},
		{`abc"`, 3, false},
		{strings.Repeat("x", 40) + `\`, 40, false},
		{strings.Repeat("x", 17) + "\x1f" + `"`, 17, false},
		{strings.Repeat("é", 20) + `"`, 40, true},
		{strings.Repeat("x", 15) + `""`, 15, false},
		{`"` + strings.Repeat("x", 40), 0, false},
	} {
		got, hi := plainRun([]byte(tc.in), 0)
		if got != tc.want || (hi&swarMSB != 0) != tc.hi {
			t.Errorf("plainRun(%q) = %d, hi %v; want %d, %v", tc.in, got, hi&swarMSB != 0, tc.want, tc.hi)
		}
	}
}

// FuzzSessionsJSON holds the scanner to json.Valid, on both entry points.
func FuzzSessionsJSON(f *testing.F) {
	f.Add([]byte(`{"type":"user","message":{"content":"x\n"}}`))
	f.Add([]byte(`{"a":"\u00e9\"\\"}`))
	f.Fuzz(func(t *testing.T, in []byte) {
		want := json.Valid(in)
		var s jsonScanner
		if err := s.valid(in); (err == nil) != want {
			t.Fatalf("valid(%q) error = %v, json.Valid = %v", in, err, want)
		}
		if err := s.line(in); (err == nil) != want {
			t.Fatalf("line(%q) error = %v, json.Valid = %v", in, err, want)
		}
	})
}

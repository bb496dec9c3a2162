package model

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestEachMemberAgreesWithEncodingJSON(t *testing.T) {
	cases := []string{
		`{}`, ` { } `, `{"a":1}`, `{"a": 1, "b": [1, 2, {"c": null}]}`,
		`{"a":"x\"y\\z\u00e9\n"}`, `{"a":-0.5e+10}`, `{"a":0}`, `{"a":true,"b":false}`,
		`{"a":[]}`, `{"a":[[[]]]}`, `{"\u0074ype":"user"}`,
		// invalid
		``, `{`, `}`, `{"a"}`, `{"a":}`, `{"a":1,}`, `{"a":1 "b":2}`, `{"a":01}`, `{"a":1.}`,
		`{"a":.5}`, `{"a":1e}`, `{"a":-}`, `{"a":tru}`, `{"a":nul}`, `{"a":"x}`, `{"a":"\x"}`,
		`{"a":"\u12"}`, "{\"a\":\"tab\there\"}", `{"a":[1,]}`, `{"a":[1 2]}`, `{"a":1}x`, `{"a":1}{}`,
		`{1:2}`, `{"a":[}`, `{"a":{]}`, `{"a":"\"}`, `[1,2]`, `"str"`, `12`, `null`,
	}
	for _, c := range cases {
		err := eachMember([]byte(c), func(k, v []byte) {})
		wantObj := json.Valid([]byte(c)) && strings.HasPrefix(strings.TrimSpace(c), "{")
		if (err == nil) != wantObj {
			t.Errorf("eachMember(%q) err = %v; json.Valid = %v", c, err, json.Valid([]byte(c)))
		}
	}
}

func TestEachMemberSpans(t *testing.T) {
	line := `{"type": "user", "message": {"content": "a\"b"}, "n": [1, {"type": "x"}], "\u0074s": null}`
	var keys, vals []string
	if err := eachMember([]byte(line), func(k, v []byte) {
		keys = append(keys, string(k))
		vals = append(vals, string(v))
	}); err != nil {
		t.Fatal(err)
	}
	wantKeys := []string{"type", "message", "n", "ts"}
	wantVals := []string{`"user"`, `{"content": "a\"b"}`, `[1, {"type": "x"}]`, `null`}
	if strings.Join(keys, "|") != strings.Join(wantKeys, "|") || strings.Join(vals, "|") != strings.Join(wantVals, "|") {
		t.Errorf("keys %q vals %q", keys, vals)
	}
}

func TestRawStringLen(t *testing.T) {
	cases := []struct {
		raw  string
		want int
	}{
		{`""`, 0},
		{`"abc"`, 3},
		{`"a\nb"`, 3},
		{`"\\\\"`, 2},
		{`"\u00e9x"`, 2},
		{`"tab\there\"q\""`, 11}, // t a b TAB h e r e " q "
		{`null`, 0},
	}
	for _, c := range cases {
		if got := rawStringLen([]byte(c.raw)); got != c.want {
			t.Errorf("rawStringLen(%s) = %d, want %d", c.raw, got, c.want)
		}
	}
}

func TestSkipValueDepthLimit(t *testing.T) {
	deep := `{"a":` + strings.Repeat("[", maxJSONDepth+5) + strings.Repeat("]", maxJSONDepth+5) + `}`
	if err := eachMember([]byte(deep), func(k, v []byte) {}); err == nil {
		t.Error("deeply nested line accepted; encoding/json rejects it")
	}
	ok := `{"a":` + strings.Repeat("[", 100) + strings.Repeat("]", 100) + `}`
	if err := eachMember([]byte(ok), func(k, v []byte) {}); err != nil {
		t.Errorf("100 levels rejected: %v", err)
	}
}

func TestHasControl(t *testing.T) {
	for _, c := range []struct {
		s    string
		want bool
	}{
		{"", false}, {"plain ascii text, long enough for words", false},
		{"é ünïcode ✓", false}, {"abcdefg\x1f", true}, {"\x00", true},
		{"abcdefghijklmnop\nq", true}, {"\x7f\x80\xff", false},
	} {
		if got := hasControl([]byte(c.s)); got != c.want {
			t.Errorf("hasControl(%q) = %v, want %v", c.s, got, c.want)
		}
	}
}

package jsonscan

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestScannerAgreesWithJSONValid(t *testing.T) {
	deep := strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth)
	tooDeep := strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1)
	deepInObject := `{"a":` + strings.Repeat("[", MaxDepth-1) + strings.Repeat("]", MaxDepth-1) + `}`
	tooDeepInObject := `{"a":` + strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth) + `}`
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
		{"long string with escapes", long, true},
		{"escaped key", `{"typ\u0065":"user"}`, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := json.Valid([]byte(tc.in)); got != tc.valid {
				t.Fatalf("test case is wrong: json.Valid = %v", got)
			}
			var s Scanner
			err := s.Members([]byte(tc.in), func(k, v []byte) {})
			if err == ErrNotObject {
				err = nil
			}
			if (err == nil) != tc.valid {
				t.Errorf("Members error = %v, want valid %v", err, tc.valid)
			}
		})
	}
}

// TestLineErrors pins the reasons the transcript reader gives for a bad
// line (they are shown to users as problems): the offset and the words.
func TestLineErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", "invalid JSON at byte 0: empty"},
		{"   ", "invalid JSON at byte 3: empty"},
		{"{", "invalid JSON at byte 1: unexpected end of line, want object key"},
		{"}", "invalid JSON at byte 0: unexpected '}'"},
		{"{\"a\"}", "invalid JSON at byte 4: unexpected '}', want ':'"},
		{"{\"a\":}", "invalid JSON at byte 5: unexpected '}'"},
		{"{\"a\":1,}", "invalid JSON at byte 7: unexpected '}', want object key"},
		{"{\"a\":1 \"b\":2}", "invalid JSON at byte 7: unexpected '\"', want ',' or '}'"},
		{"{\"a\":01}", "invalid JSON at byte 6: unexpected '1', want ',' or '}'"},
		{"{\"a\":1.}", "invalid JSON at byte 5: bad number"},
		{"{\"a\":.5}", "invalid JSON at byte 5: unexpected '.'"},
		{"{\"a\":1e}", "invalid JSON at byte 5: bad number"},
		{"{\"a\":-}", "invalid JSON at byte 5: bad number"},
		{"{\"a\":tru}", "invalid JSON at byte 5: bad literal"},
		{"{\"a\":nul}", "invalid JSON at byte 5: bad literal"},
		{"{\"a\":\"x}", "invalid JSON at byte 5: unterminated string"},
		{"{\"a\":\"\\x\"}", "invalid JSON at byte 6: bad escape \\x"},
		{"{\"a\":\"\\u12\"}", "invalid JSON at byte 6: bad \\u escape"},
		{"{\"a\":\"tab\there\"}", "invalid JSON at byte 6: control character in string"},
		{"{\"a\":[1,]}", "invalid JSON at byte 8: unexpected ']'"},
		{"{\"a\":[1 2]}", "invalid JSON at byte 8: unexpected '2', want ',' or closing bracket"},
		{"{\"a\":1}x", "invalid JSON at byte 7: unexpected 'x' after object"},
		{"{\"a\":1}{}", "invalid JSON at byte 7: unexpected '{' after object"},
		{"{1:2}", "invalid JSON at byte 1: unexpected '1', want object key"},
		{"{\"a\":[}", "invalid JSON at byte 6: unexpected '}'"},
		{"{\"a\":{]}", "invalid JSON at byte 6: unexpected ']', want object key"},
		{"{\"a\":\"\\\"}", "invalid JSON at byte 5: unterminated string"},
		{"[1,2]", "not a JSON object"},
		{"\"str\"", "not a JSON object"},
		{"12", "not a JSON object"},
		{"null", "not a JSON object"},
		{"[1,2] x", "invalid JSON at byte 6: unexpected 'x' after value"},
		{"[1,", "invalid JSON at byte 3: unexpected end of line"},
		{"{\"a\":\"x\ty", "invalid JSON at byte 5: unterminated string"},
		{"{\"a\":\"ab\\x", "invalid JSON at byte 5: unterminated string"},
		{"{\"a\":\"ab\\u12", "invalid JSON at byte 5: unterminated string"},
		{"{\"a\":\"ab\\\"", "invalid JSON at byte 5: unterminated string"},
		{"{\"a\":\"a\\n\x01b\"}", "invalid JSON at byte 9: control character in string"},
		{"{\"a\":\"a\\n\x01b", "invalid JSON at byte 5: unterminated string"},
		{"{\"a\x01\":1}", "invalid JSON at byte 2: control character in string"},
		{"{\"a\":{\"b\":1 x}}", "invalid JSON at byte 12: unexpected 'x', want ',' or closing bracket"},
		{"{\"a\":{\"b\":[1,{\"c\":}]}}", "invalid JSON at byte 18: unexpected '}'"},
		{"{\"type\":\"user\",\"message\":{\"content\":[{\"type\":\"text\",\"text\":\"hi\"}", "invalid JSON at byte 64: unexpected end of line"},
		{"{\"type\":\"us", "invalid JSON at byte 8: unterminated string"},
		{"{\"a\":1}   ,", "invalid JSON at byte 10: unexpected ',' after object"},
		{"{\"a\":\"\\u00e9\x1f\"}", "invalid JSON at byte 12: control character in string"},
		{"{\"a\":-01}", "invalid JSON at byte 7: unexpected '1', want ',' or '}'"},
		{"{\"a\":1.5e+}", "invalid JSON at byte 5: bad number"},
		{"{\"a\":truex}", "invalid JSON at byte 9: unexpected 'x', want ',' or '}'"},
		{"{\"a\" 1}", "invalid JSON at byte 5: unexpected '1', want ':'"},
		{"{\"a\":[1}", "invalid JSON at byte 7: unexpected '}', want ',' or closing bracket"},
		{"{\"a\":{\"b\":1]}", "invalid JSON at byte 11: unexpected ']', want ',' or closing bracket"},
		{"{\"a\":\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\\q\"}", "invalid JSON at byte 106: bad escape \\q"},
		{"{,}", "invalid JSON at byte 1: unexpected ',', want object key"},
		{"{\"a\":1,,}", "invalid JSON at byte 7: unexpected ',', want object key"},
		{"{\"a\":\"b\"c}", "invalid JSON at byte 8: unexpected 'c', want ',' or '}'"},
		{"{\"\":1} {", "invalid JSON at byte 7: unexpected '{' after object"},
		{"\ufeff{}", "invalid JSON at byte 0: unexpected 'ï'"},
		{"{\"a\":\"\\/\\b\\f\\n\\r\\t\\\\\\\"\"} x", "invalid JSON at byte 25: unexpected 'x' after object"},
		{"{\"a\":[[[[]]]]]}", "invalid JSON at byte 13: unexpected ']', want ',' or '}'"},
		{"{\"a\":{\"b\":{}}}}", "invalid JSON at byte 14: unexpected '}' after object"},
		{`{"a":1}`, "<nil>"},
	} {
		var s Scanner
		err := s.Members([]byte(tc.in), func(k, v []byte) {})
		if got := fmt.Sprint(err); got != tc.want {
			t.Errorf("%q: %s, want %s", tc.in, got, tc.want)
		}
	}
}

func TestMembersSpans(t *testing.T) {
	line := `{"type": "user", "message": {"content": "a\"b"}, "n": [1, {"type": "x"}], "\u0074s": null}`
	var keys, vals, trusted []string
	var s Scanner
	if err := s.Members([]byte(line), func(k, v []byte) {
		keys = append(keys, string(k))
		vals = append(vals, string(v))
	}); err != nil {
		t.Fatal(err)
	}
	EachMember([]byte(line), func(k, v []byte) { trusted = append(trusted, string(k)+"="+string(v)) })
	wantKeys := []string{"type", "message", "n", "ts"}
	wantVals := []string{`"user"`, `{"content": "a\"b"}`, `[1, {"type": "x"}]`, `null`}
	if strings.Join(keys, "|") != strings.Join(wantKeys, "|") || strings.Join(vals, "|") != strings.Join(wantVals, "|") {
		t.Errorf("keys %q vals %q", keys, vals)
	}
	if len(trusted) != 4 || trusted[2] != `n=[1, {"type": "x"}]` || trusted[3] != "ts=null" {
		t.Errorf("EachMember saw %q", trusted)
	}
	var els []string
	EachElement([]byte(`[ 1, "a,]", {"b": [2]} , []]`), func(el []byte) { els = append(els, string(el)) })
	if strings.Join(els, "|") != `1|"a,]"|{"b": [2]}|[]` {
		t.Errorf("EachElement saw %q", els)
	}
}

func TestObjectAndArrayWalk(t *testing.T) {
	line := []byte(`{"a":{"b":[1,{"c":"d"}]},"e":2}`)
	var s Scanner
	s.Reset(line)
	var seen []string
	var member MemberFunc
	elem := func(i, depth int) (int, error) {
		seen = append(seen, fmt.Sprintf("elem@%d", depth))
		if line[i] == '{' {
			return s.Object(i, depth, member)
		}
		return s.Value(i, depth)
	}
	member = func(key []byte, v, depth int) (int, error) {
		seen = append(seen, fmt.Sprintf("%s@%d", key, depth))
		switch line[v] {
		case '{':
			return s.Object(v, depth, member)
		case '[':
			return s.Array(v, depth, elem)
		}
		return s.Value(v, depth)
	}
	end, err := s.Object(0, 0, member)
	if err != nil || end != len(line) {
		t.Fatalf("end %d, err %v", end, err)
	}
	if got := strings.Join(seen, " "); got != "a@1 b@2 elem@3 elem@3 c@4 e@1" {
		t.Errorf("walk %s", got)
	}
	s.Reset([]byte(`[1 2]`))
	if _, err := s.Array(0, 0, elem); err == nil || !strings.Contains(err.Error(), "want ',' or ']'") {
		t.Errorf("array error %v", err)
	}
	s.Reset([]byte(`[1]`))
	if _, err := s.Array(0, MaxDepth, elem); err == nil || !strings.Contains(err.Error(), "nested too deeply") {
		t.Errorf("depth error %v", err)
	}
}

// TestPlainFindsFirstStop holds the stop bitmap (both loops) and the
// search over it to a byte loop: from every offset of texts that put a
// quote, a backslash or a control byte at every place of a word and a
// block, beside bytes that look like them to a careless mask (0x20, 0x21,
// 0x5b, 0x5d, 0x7f, 0x80, 0xa2, 0xdc, 0xff, 0x9f, 0xa0).
func TestPlainFindsFirstStop(t *testing.T) {
	fill := []byte("abcdefghijklmnopqrstuvwx !#[]\x7f\xa2\xdc\xff\x80é\x9f\xa0\x5c\x22")
	for _, stop := range []byte{'"', '\\', 0, 0x1f, '\n'} {
		for n := 0; n < 150; n++ {
			if n > 40 && n%7 != 0 {
				continue // longer texts: every seventh length
			}
			for pos := 0; pos <= n; pos++ {
				d := make([]byte, n)
				for k := range d {
					d[k] = fill[(k*7+n)%len(fill)]
				}
				if pos < n {
					d[pos] = stop
				}
				want := make([]uint64, (n+63)/64)
				for k, c := range d {
					if c == '"' || c == '\\' || c < 0x20 {
						want[k/64] |= 1 << (k % 64)
					}
				}
				for name, blocks := range blockLoops {
					got := make([]uint64, len(want))
					for k := range got {
						got[k] = ^uint64(0) // left from an earlier text
					}
					high := classify(blocks, d, make([]words, len(got)), new(classifyState))
					stopBits(d, got)
					if fmt.Sprint(got) != fmt.Sprint(want) || high == isASCII(string(d)) {
						t.Fatalf("%s(%q) = %x, %v; want %x", name, d, got, high, want)
					}
				}
				var s Scanner
				s.Reset(d)
				for i := 0; i <= n; i++ {
					want := i
					for want < n && d[want] != '"' && d[want] != '\\' && d[want] >= 0x20 {
						want++
					}
					if got := s.plain(i); got != want {
						t.Fatalf("plain(%q, %d) = %d, want %d", d, i, got, want)
					}
				}
				if s.ASCII() != isASCII(string(d)) {
					t.Fatalf("ASCII(%q) = %v", d, s.ASCII())
				}
			}
		}
	}
}

// TestASCIIAfterLine checks what ASCII says once Line has read the text
// against the bytes.
func TestASCIIAfterLine(t *testing.T) {
	for _, in := range []string{
		`{"a":"plain"}`, `{"a":"é"}`, `{"é":1}`, `["x","\u00e9"]`,
		`{"a":"` + strings.Repeat("x", 40) + "\xff" + `"}`,
		`{"a":"` + strings.Repeat("x", 40) + `\n` + strings.Repeat("y", 17) + "\xc3\xa9" + `"}`,
		`"` + strings.Repeat("y", 23) + "\x80" + `"`,
		// White space holding raw control bytes before a non-ASCII string:
		// a check that stops at the first control byte misses the é.
		"{\"a\":\t\"\xc3\xa9\"}",
		"{\n\"" + strings.Repeat("k", 40) + "\":\"\xc3\xa9\"}",
	} {
		var s Scanner
		err := s.Line([]byte(in), func(key []byte, v, depth int) (int, error) { return s.Value(v, depth) })
		if err != nil && err != ErrNotObject {
			t.Fatalf("Line(%q): %v", in, err)
		}
		if s.ASCII() != isASCII(in) {
			t.Errorf("ASCII(%q) = %v", in, s.ASCII())
		}
	}
}

func isASCII(s string) bool {
	for i := range len(s) {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

func TestTextAndInt(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		ok       bool
	}{{`"abc"`, "abc", true}, {`"a\nb"`, "a\nb", true}, {`""`, "", true}, {`null`, "", false}, {`1`, "", false}} {
		got, ok := Text([]byte(tc.in))
		if string(got) != tc.want || ok != tc.ok {
			t.Errorf("Text(%s) = %q, %v", tc.in, got, ok)
		}
	}
	for _, tc := range []struct {
		in string
		ok bool
	}{{"0", true}, {"-0", true}, {"123", true}, {"9223372036854775807", true}, {"-9223372036854775808", true},
		{"9223372036854775808", false}, {"-9223372036854775809", false}, {"12345678901234567890", false}, {"1.0", false}, {"", false}, {"-", false}} {
		n, ok := Int([]byte(tc.in))
		if ok != tc.ok {
			t.Errorf("Int(%q) ok = %v", tc.in, ok)
		}
		if ok {
			var want int64
			if _, err := fmt.Sscan(tc.in, &want); err != nil || n != want {
				t.Errorf("Int(%q) = %d, want %d", tc.in, n, want)
			}
		}
	}
}

// FuzzValid holds the scanner to json.Valid on any value: Line accepts
// exactly the valid objects and tells the other valid values apart.
func FuzzValid(f *testing.F) {
	f.Add([]byte(`{"type":"user","message":{"content":"x\n"}}`))
	f.Add([]byte(`{"a":"\u00e9\"\\"}`))
	for _, in := range trickySeeds() {
		f.Add(in)
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		want := json.Valid(in)
		var s Scanner
		err := s.Members(in, func(k, v []byte) {})
		if (err == nil || err == ErrNotObject) != want {
			t.Fatalf("Members(%q) error = %v, json.Valid = %v", in, err, want)
		}
	})
}

// FuzzMembers holds Members to encoding/json: a line is accepted exactly
// when it is valid JSON whose value is an object, the members it reports
// are those encoding/json decodes, EachMember sees them too, and Text
// decodes their strings.
func FuzzMembers(f *testing.F) {
	f.Add([]byte(`{"type":"user","message":{"content":"a\"b\u00e9"}}`))
	f.Add([]byte(`{"a":[1,-2.5e3,true,null,{"b":[]}]}`))
	for _, in := range trickySeeds() {
		f.Add(in)
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		members := map[string]string{}
		var checked, trusted []string
		var s Scanner
		// encoding/json turns each invalid UTF-8 byte of a key into U+FFFD;
		// string([]rune(...)) does the same, so the keys compare.
		err := s.Members(line, func(k, v []byte) {
			members[string([]rune(string(k)))] = string(v)
			checked = append(checked, string(k), string(v))
		})
		trimmed := bytes.TrimLeft(line, " \t\r\n")
		want := json.Valid(line) && len(trimmed) > 0 && trimmed[0] == '{'
		if (err == nil) != want {
			t.Fatalf("Members err=%v, json.Valid=%v for %q", err, json.Valid(line), line)
		}
		if err != nil {
			return
		}
		EachMember(trimmed, func(k, v []byte) { trusted = append(trusted, string(k), string(v)) })
		if strings.Join(checked, "\x00") != strings.Join(trusted, "\x00") {
			t.Fatalf("EachMember %q, Members %q", trusted, checked)
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal(line, &m); err != nil {
			t.Fatalf("encoding/json cannot decode an accepted line: %v", err)
		}
		if len(m) != len(members) {
			t.Fatalf("members %d, encoding/json %d", len(members), len(m))
		}
		for k, v := range m {
			// encoding/json keeps the last of duplicate keys, as readers do.
			if !bytes.Equal(bytes.TrimSpace(v), []byte(members[k])) {
				t.Fatalf("member %q = %q, encoding/json %q", k, members[k], v)
			}
			var str string
			if v[0] == '"' && json.Unmarshal(v, &str) == nil && !strings.ContainsRune(str, '\uFFFD') {
				if got, ok := Text([]byte(members[k])); !ok || string(got) != str {
					t.Fatalf("Text(%s) = %q, want %q", members[k], got, str)
				}
			}
		}
	})
}

// trickySeeds are the fuzzers' seeds for the string search's edges: each
// kind of stop (quote, escapes good and bad, control bytes, a cut end)
// after runs of every length across two 16-byte blocks, so it falls on
// every place of a word and a block; UTF-8 around it; nesting at the
// limit; and numbers.
func trickySeeds() [][]byte {
	var seeds [][]byte
	stops := []string{`"`, `\"`, `\\`, `\n`, `\u00e9`, `\ud83d\ude00`, `\u12`, `\x`, "\x00", "\x1f", "\t", `\`, ""}
	for n := 0; n <= 40; n += 3 {
		run := strings.Repeat("a", n)
		for _, stop := range stops {
			seeds = append(seeds, []byte(`{"k":"`+run+stop+`z"}`), []byte(`{"k":"`+run+stop))
		}
		seeds = append(seeds, []byte(`{"`+run+"é\xff"+`":"\xc3"}`))
	}
	seeds = append(seeds,
		[]byte(strings.Repeat("[", MaxDepth)+strings.Repeat("]", MaxDepth)),
		[]byte(`{"a":`+strings.Repeat(`{"a":`, MaxDepth-1)+"1"+strings.Repeat("}", MaxDepth)),
		[]byte(`[0,-0,1.5,-1e9,1E+2,2e-3,01,1.,.5,-,1e,+1,0x10,1_0]`),
		[]byte(`{"n":-0.0e-0}`), []byte(`{"n":123456789012345678901234567890}`),
	)
	return seeds
}

// String (the bitmap's word in a register, good escapes cleared in it)
// answers as the walk from stop to stop does, errors and offsets
// included, on strings of every kind of escape, good and bad, control
// bytes and cut ends, at every offset of two words.
func TestStringIsTheWalk(t *testing.T) {
	parts := []string{`a`, `é`, `\"`, `\\`, `\/`, `\n`, `\u00e9`, `\uD83D\uDE00`, `\u12`, `\x`, `\`, "\n", "\x01", `"`, `\\\"`, `\\\\`, "\xff", ` `}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		var b strings.Builder
		b.WriteString(strings.Repeat(" ", rng.IntN(70)))
		start := b.Len()
		b.WriteByte('"')
		for range rng.IntN(40) {
			b.WriteString(parts[rng.IntN(len(parts))])
		}
		if rng.IntN(4) > 0 {
			b.WriteByte('"')
		}
		b.WriteString(strings.Repeat("x", rng.IntN(70)))
		d := []byte(b.String())
		var s Scanner
		s.Reset(d)
		end, esc, err := s.String(start)
		wend, wesc, werr := s.stringWalk(start)
		if end != wend || esc != wesc || fmt.Sprint(err) != fmt.Sprint(werr) {
			t.Fatalf("String(%q, %d) = %d, %v, %v; the walk says %d, %v, %v", d, start, end, esc, err, wend, wesc, werr)
		}
	}
}

// TestShortStringIsValue holds ShortString to Value: at every value of
// every member and element (any depth) of the repository's lines, the
// hostile ones and strings of every length at every offset in a word,
// ShortString is 0 or the end Value finds, with no error; and it
// answers for most of the strings that end in their word.
func TestShortStringIsValue(t *testing.T) {
	lines := append(repoLines(t), hostileLines(rand.New(rand.NewPCG(21, 22)), 3000)...)
	parts := []string{`a`, `é`, `\"`, `\\`, `\n`, `\u00e9`, `\u12`, "\x01", "\t", `\`}
	for pad := range 70 {
		for n := range 80 {
			var b strings.Builder
			b.WriteString(`{"` + strings.Repeat("k", pad) + `":"`)
			for i := range n {
				b.WriteString(parts[(i*7+n)%len(parts)])
			}
			b.WriteString(`","x":["` + strings.Repeat("a", n) + `", "b` + "\n" + `c"]}`)
			lines = append(lines, []byte(b.String()))
		}
	}
	var s Scanner
	var short, answered int
	var elem ElemFunc
	var member MemberFunc
	check := func(v, depth int) (int, error) {
		ss := s.ShortString(v)
		end, err := s.Value(v, depth)
		if ss != 0 {
			answered++
			if err != nil || ss != end {
				t.Fatalf("%q at %d: ShortString %d, Value %d, %v", s.Bytes(), v, ss, end, err)
			}
		}
		if d := s.Bytes(); err == nil && d[v] == '"' && bytes.IndexByte(d[v+1:end-1], '"') < 0 && (v+1)>>6 == (end-1)>>6 {
			short++
		}
		return end, err
	}
	walk := func(v, depth int) (int, error) {
		switch s.Bytes()[v] {
		case '{':
			return s.Object(v, depth, member)
		case '[':
			return s.Array(v, depth, elem)
		}
		return check(v, depth)
	}
	member = func(_ []byte, v, depth int) (int, error) { return walk(v, depth) }
	elem = walk
	for _, l := range lines {
		s.Line(l, member)
	}
	if answered == 0 || answered < short/2 {
		t.Fatalf("ShortString answered for %d values; %d plain strings end in their word", answered, short)
	}
}

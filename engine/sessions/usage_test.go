package sessions

import (
	"bytes"
	"encoding/json"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/memscope/memscope/model"
)

func TestLineUsageFollowsCcusageSchema(t *testing.T) {
	const good = `{"type":"assistant","timestamp":"2026-11-11T05:00:57.454Z","cwd":"/w","sessionId":"s","version":"2.1.330","requestId":"r",` +
		`"message":{"id":"m","model":"claude-opus-5-5","content":[{"type":"text","text":"hi"},{"type":"tool_use","input":{}}],` +
		`"usage":{"input_tokens":3,"output_tokens":4,"cache_creation_input_tokens":5,"cache_read_input_tokens":6,"speed":"standard"}}}`
	full := model.Usage{InputTokens: 3, OutputTokens: 4, CacheCreationInputTokens: 5, CacheReadInputTokens: 6}
	// edit replaces the first occurrence of old in good.
	edit := func(old, new string) string {
		if !strings.Contains(good, old) {
			t.Fatalf("test case is wrong: %q not in the line", old)
		}
		return strings.Replace(good, old, new, 1)
	}
	for _, tc := range []struct {
		name string
		in   string
		want usageVerdict
		u    model.Usage
	}{
		{"complete line", good, usageCounted, full},
		{"any type counts", edit(`"type":"assistant"`, `"type":"user"`), usageCounted, full},
		{"no type counts", edit(`"type":"assistant",`, ``), usageCounted, full},
		{"cache counts optional", edit(`,"cache_creation_input_tokens":5,"cache_read_input_tokens":6`, ``), usageCounted, model.Usage{InputTokens: 3, OutputTokens: 4}},
		{"second-precision timestamp", edit(`05:00:57.454Z`, `05:00:57Z`), usageCounted, full},
		{"version with suffix", edit(`"2.1.330"`, `"2.1.330-beta.1"`), usageCounted, full},
		{"fast speed", edit(`"standard"`, `"fast"`), usageCounted, full},
		{"exponent whole number", edit(`"input_tokens":3`, `"input_tokens":3e0`), usageCounted, full},
		{"escaped timestamp", edit(`"2026-11-11T05:00:57.454Z"`, `"2026-11-11T05:00:57.454\u005a"`), usageCounted, full},

		{"no usage", edit(`"usage":{"input_tokens":3,"output_tokens":4,"cache_creation_input_tokens":5,"cache_read_input_tokens":6,"speed":"standard"}`, `"x":1`), usageNone, model.Usage{}},
		{"usage not an object", edit(`"usage":{`, `"usage":[],"u":{`), usageNone, model.Usage{}},
		{"input missing", edit(`"input_tokens":3,`, ``), usageNone, model.Usage{}},
		{"output missing", edit(`"output_tokens":4,`, ``), usageNone, model.Usage{}},
		{"input a string", edit(`"input_tokens":3`, `"input_tokens":"3"`), usageNone, model.Usage{}},
		{"cache null", edit(`"cache_read_input_tokens":6`, `"cache_read_input_tokens":null`), usageNone, model.Usage{}},
		{"unknown speed", edit(`"standard"`, `"turbo"`), usageNone, model.Usage{}},
		{"no timestamp", edit(`"timestamp":"2026-11-11T05:00:57.454Z",`, ``), usageNone, model.Usage{}},
		{"timestamp with offset", edit(`.454Z`, `.454+01:00`), usageNone, model.Usage{}},
		{"timestamp with microseconds", edit(`.454Z`, `.454123Z`), usageNone, model.Usage{}},
		{"cwd not a string", edit(`"cwd":"/w"`, `"cwd":1`), usageNone, model.Usage{}},
		{"empty sessionId", edit(`"sessionId":"s"`, `"sessionId":""`), usageNone, model.Usage{}},
		{"empty requestId", edit(`"requestId":"r"`, `"requestId":""`), usageNone, model.Usage{}},
		{"empty message id", edit(`"id":"m"`, `"id":""`), usageNone, model.Usage{}},
		{"null model", edit(`"model":"claude-opus-5-5"`, `"model":null`), usageNone, model.Usage{}},
		{"bad version", edit(`"2.1.330"`, `"v2"`), usageNone, model.Usage{}},
		{"content a string", edit(`"content":[{"type":"text","text":"hi"},{"type":"tool_use","input":{}}]`, `"content":"hi"`), usageNone, model.Usage{}},
		{"content with a bare string", edit(`{"type":"text","text":"hi"}`, `"hi"`), usageNone, model.Usage{}},
		{"content text not a string", edit(`"text":"hi"`, `"text":1`), usageNone, model.Usage{}},
		{"costUSD not a number", edit(`"cwd":"/w"`, `"cwd":"/w","costUSD":"1"`), usageNone, model.Usage{}},
		{"isApiErrorMessage not a boolean", edit(`"cwd":"/w"`, `"cwd":"/w","isApiErrorMessage":1`), usageNone, model.Usage{}},
		{"fraction", edit(`"input_tokens":3`, `"input_tokens":3.5`), usageNotWhole, model.Usage{}},
		{"huge", edit(`"input_tokens":3`, `"input_tokens":1e300`), usageNotWhole, model.Usage{}},
		{"later message wins", good[:len(good)-1] + `,"message":{"content":[]}}`, usageNone, model.Usage{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newLineScanner()
			if err := s.line([]byte(tc.in)); err != nil {
				t.Fatalf("test line is not JSON: %v", err)
			}
			u, v, why := s.lineUsage()
			if v != tc.want || u != tc.u {
				t.Errorf("lineUsage = %+v, %v (%s); want %+v, %v", u, v, why, tc.u, tc.want)
			}
			if (v == usageNotWhole) != (why != "") {
				t.Errorf("reason %q for verdict %v", why, v)
			}
			if ru, rv := ccusageReference([]byte(tc.in)); ru != tc.u || rv != tc.want {
				t.Errorf("the reference says %+v, %v", ru, rv)
			}
		})
	}
}

func TestCcusagePatterns(t *testing.T) {
	for _, tc := range []struct {
		ts string
		ok bool
	}{
		{"2026-11-11T05:00:57.454Z", true},
		{"2026-11-11T05:00:57Z", true},
		{"2026-11-11T05:00:57.45Z", false},
		{"2026-11-11 05:00:57Z", false},
		{"2026-11-11T05:00:57.454z", false},
		{"2026-11-11T05:00:57.454Z\n", false},
		{"99999-11-11T05:00:57Z", false},
		{"", false},
	} {
		if got := ccusageTimestamp([]byte(tc.ts)); got != tc.ok {
			t.Errorf("ccusageTimestamp(%q) = %v", tc.ts, got)
		}
	}
	for _, tc := range []struct {
		v  string
		ok bool
	}{
		{"2.1.330", true}, {"10.20.30-rc1", true}, {"1.2.3.4", true}, {"1.2", false}, {"1..3", false}, {"v1.2.3", false}, {"", false},
	} {
		if got := ccusageVersion(tc.v); got != tc.ok {
			t.Errorf("ccusageVersion(%q) = %v", tc.v, got)
		}
	}
	for _, tc := range []struct {
		raw string
		n   int64
		ok  bool
	}{
		{"0", 0, true}, {"-0", 0, true}, {"12", 12, true}, {"1e3", 1000, true}, {"2.0", 2, true}, {"-7", -7, true},
		{"9007199254740992", 1 << 53, true}, {"9007199254740993", 0, false}, {"1.5", 0, false}, {"1e300", 0, false},
	} {
		if n, ok := wholeNumber([]byte(tc.raw)); n != tc.n || ok != tc.ok {
			t.Errorf("wholeNumber(%s) = %d, %v; want %d, %v", tc.raw, n, ok, tc.n, tc.ok)
		}
	}
}

var (
	refTimestamp = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{3})?Z$`)
	refVersion   = regexp.MustCompile(`^\d+\.\d+\.\d+`)
)

// ccusageReference is ccusage 18.0.11's usageDataSchema written again
// the plain way, over encoding/json's generic decoding, to hold
// lineUsage to.
func ccusageReference(line []byte) (model.Usage, usageVerdict) {
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return model.Usage{}, usageNone
	}
	obj, _ := v.(map[string]any)
	msg, _ := obj["message"].(map[string]any)
	usage, _ := msg["usage"].(map[string]any)
	if usage == nil {
		return model.Usage{}, usageNone
	}
	isNum := func(m map[string]any, k string, required bool) bool {
		x, ok := m[k]
		if !ok {
			return !required
		}
		_, num := x.(json.Number)
		return num
	}
	optString := func(m map[string]any, k string, nonEmpty bool) bool {
		x, ok := m[k]
		if !ok {
			return true
		}
		s, isStr := x.(string)
		return isStr && (!nonEmpty || s != "")
	}
	ts, _ := obj["timestamp"].(string)
	if !isNum(usage, "input_tokens", true) || !isNum(usage, "output_tokens", true) ||
		!isNum(usage, "cache_creation_input_tokens", false) || !isNum(usage, "cache_read_input_tokens", false) ||
		!refTimestamp.MatchString(ts) || !optString(obj, "cwd", false) || !optString(obj, "sessionId", true) ||
		!optString(obj, "requestId", true) || !optString(msg, "id", true) || !optString(msg, "model", true) ||
		!isNum(obj, "costUSD", false) {
		return model.Usage{}, usageNone
	}
	if sp, ok := usage["speed"]; ok && sp != "standard" && sp != "fast" {
		return model.Usage{}, usageNone
	}
	if ver, ok := obj["version"]; ok {
		if s, isStr := ver.(string); !isStr || !refVersion.MatchString(s) {
			return model.Usage{}, usageNone
		}
	}
	if e, ok := obj["isApiErrorMessage"]; ok {
		if _, isBool := e.(bool); !isBool {
			return model.Usage{}, usageNone
		}
	}
	if c, ok := msg["content"]; ok {
		blocks, isArr := c.([]any)
		if !isArr {
			return model.Usage{}, usageNone
		}
		for _, b := range blocks {
			bo, isObj := b.(map[string]any)
			if !isObj {
				return model.Usage{}, usageNone
			}
			if t, ok := bo["text"]; ok {
				if _, isStr := t.(string); !isStr {
					return model.Usage{}, usageNone
				}
			}
		}
	}
	var u model.Usage
	for k, dst := range map[string]*int64{"input_tokens": &u.InputTokens, "output_tokens": &u.OutputTokens,
		"cache_creation_input_tokens": &u.CacheCreationInputTokens, "cache_read_input_tokens": &u.CacheReadInputTokens} {
		n, ok := usage[k].(json.Number)
		if !ok {
			continue
		}
		f, err := strconv.ParseFloat(string(n), 64)
		if err != nil || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
			return model.Usage{}, usageNotWhole
		}
		*dst = int64(f)
	}
	return u, usageCounted
}

// FuzzSessionsCcusageLine holds lineUsage to the plain reference above on
// any input that is valid JSON.
func FuzzSessionsCcusageLine(f *testing.F) {
	f.Add([]byte(`{"timestamp":"2026-11-11T05:00:57.454Z","requestId":"r","message":{"id":"m","usage":{"input_tokens":3,"output_tokens":4}}}`))
	f.Add([]byte(`{"timestamp":"2026-11-11T05:00:57Z","version":"2.1.330","message":{"content":[{"text":"x"}],"usage":{"input_tokens":3e2,"output_tokens":4,"speed":"fast"}}}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		s := newLineScanner()
		if s.line(line) != nil {
			return
		}
		u, v, _ := s.lineUsage()
		ru, rv := ccusageReference(line)
		if v != rv || u != ru {
			t.Fatalf("%q: lineUsage %+v %v, reference %+v %v", line, u, v, ru, rv)
		}
	})
}

package model

import (
	"reflect"
	"strings"
	"testing"
)

// sameAsYAML fails unless parsing data with the fast path gives exactly
// what the full yaml.v3 parse gives.
func sameAsYAML(t *testing.T, data []byte) {
	t.Helper()
	fast, fp := parseMemoryFile("m.md", data, true)
	slow, sp := parseMemoryFile("m.md", data, false)
	if !reflect.DeepEqual(fp, sp) {
		t.Fatalf("problem: fast %+v, yaml %+v\n%q", fp, sp, data)
	}
	type view struct {
		Name, Description, RawType, OriginSessionID, Body string
		Type                                              MemoryType
		Form                                              FrontmatterForm
		Modified                                          string
		Metadata                                          map[string]any
		Size                                              int64
		Invalid                                           bool
		HeaderEnd                                         int
	}
	see := func(f *MemoryFile) view {
		v := view{f.Name, f.Description, f.RawType, f.OriginSessionID, f.Body, f.Type, f.Form, "", f.Metadata, f.Size, f.Invalid, f.HeaderEnd()}
		if f.Modified != nil {
			v.Modified = f.Modified.String()
		}
		return v
	}
	if a, b := see(fast), see(slow); !reflect.DeepEqual(a, b) {
		t.Fatalf("fast path differs from yaml.v3:\n fast %+v\n yaml %+v\n%q", a, b, data)
	}
}

func TestSimpleFrontmatter(t *testing.T) {
	tests := []struct {
		name string
		in   string
		fast bool // the fast path takes it (else yaml.v3 does)
	}{
		{"client-written", clientWritten, true},
		{"legacy flat", legacyFlat, true},
		{"CRLF and BOM", "\uFEFF---\r\nname: n\r\ndescription: d\r\nmetadata:\r\n  type: user\r\n---\r\nbody\r\n", true},
		{"four-space nesting, keys after it", "---\nmetadata:\n    type: user\n    modified: 2026-01-02\nname: late\n---\n", true},
		{"values yaml reads as numbers and times", "---\nname: 123\ndescription: 0x1F\nmetadata:\n  a: 1e3\n  b: 2026-11-22 10:00:00\n  c: 12:30\n  d: 1_000\n---\n", true},
		{"punctuation inside values", "---\ndescription: a, b [c] {d} e's \"f\" C# x:y 50% & *g !h\n---\n", true},
		{"non-ASCII values", "---\nname: 用户\ndescription: café — naïve 😀\n---\n", true},
		{"trailing spaces", "---\nname: n   \nmetadata:   \n  type: user  \n---\n", true},
		{"bool value", "---\nname: true\n---\n", false},
		{"null value", "---\nname: Null\n---\n", false},
		{"empty value", "---\nname:\ndescription: d\n---\n", false},
		{"metadata without entries", "---\nmetadata:\nname: n\n---\n", false},
		{"quoted value", "---\nname: \"n\"\n---\n", false},
		{"single-quoted value", "---\nname: 'n'\n---\n", false},
		{"comment", "---\nname: n # note\n---\n", false},
		{"comment line", "---\n# note\nname: n\n---\n", false},
		{"blank line", "---\nname: n\n\ndescription: d\n---\n", false},
		{"flow value", "---\npaths: [a, b]\n---\n", false},
		{"block scalar", "---\ndescription: |\n  two\n  lines\n---\n", false},
		{"continued plain scalar", "---\ndescription: one\n  two\n---\n", false},
		{"mixed nesting", "---\nmetadata:\n  type: user\n    deeper: x\n---\n", false},
		{"nested under another key", "---\nowner:\n  name: ann\n---\n", false},
		{"value indicator inside", "---\ndescription: a: b\n---\n", false},
		{"tab", "---\nname:\tn\n---\n", false},
		{"duplicate key", "---\nname: a\nname: b\n---\n", false},
		{"duplicate nested key", "---\nmetadata:\n  type: user\n  type: project\n---\n", false},
		{"sequence", "---\n- a\n---\n", false},
		{"anchor", "---\nname: &a n\n---\n", false},
		{"leading dash value", "---\nname: -n\n---\n", false},
		{"line separator", "---\nname: a\u2028b\n---\n", false},
		{"empty block", "---\n---\nbody", false},
		{"no frontmatter", "text\n", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fm := SplitFrontmatter([]byte(tt.in))
			_, ok := parseSimpleFrontmatter([]byte(tt.in)[fm.YAMLStart:fm.YAMLEnd])
			if ok != tt.fast {
				t.Errorf("fast path took it: %v, want %v", ok, tt.fast)
			}
			sameAsYAML(t, []byte(tt.in))
		})
	}
}

// FuzzFrontmatterFast compares the fast path with yaml.v3 on any file.
func FuzzFrontmatterFast(f *testing.F) {
	f.Add([]byte(clientWritten))
	f.Add([]byte(legacyFlat))
	f.Add([]byte("---\nname: n\nmetadata:\n    type: user\nx: 1e3\n---\n"))
	f.Fuzz(func(t *testing.T, data []byte) { sameAsYAML(t, data) })
}

// FuzzFrontmatterFastFields compares the two on blocks in the client's
// form with fuzzed keys, values and indentation, which the fast path
// mostly takes.
func FuzzFrontmatterFastFields(f *testing.F) {
	f.Add("prefers-terse", "User prefers terse answers", "feedback", "modified", "2026-11-22T11:14:20.836Z", uint8(2), false)
	f.Add("n", "a, b: c", "user", "originSessionId", "6aa5d53d-1d02-4a1a-b312-243f356a8ea5", uint8(4), true)
	f.Add("123", "0o17", "project", "x_y", "1_0.5e3", uint8(1), false)
	f.Fuzz(func(t *testing.T, name, desc, typ, key, value string, indent uint8, crlf bool) {
		pad := strings.Repeat(" ", int(indent%6))
		block := "---\nname: " + name + "\ndescription: " + desc + "\nmetadata:\n" + pad + "type: " + typ + "\n" + pad + key + ": " + value + "\n---\nbody\n"
		if crlf {
			block = strings.ReplaceAll(block, "\n", "\r\n")
		}
		sameAsYAML(t, []byte(block))
	})
}

package model

import (
	"strings"
	"testing"
	"time"
)

const clientWritten = `---
name: prefers-terse
description: User prefers terse answers
metadata:
  node_type: memory
  type: feedback
  originSessionId: 6aa5d53d-1d02-4a1a-b312-243f356a8ea5
  modified: 2026-11-22T11:14:20.836Z
---

Be terse.
`

const legacyFlat = `---
name: user role
description: user is a data scientist, currently focused on observability/logging
type: user
---
Body text here.
`

func TestParseMemoryFile(t *testing.T) {
	mod := time.Date(2026, 11, 22, 11, 14, 20, 836e6, time.UTC)
	tests := []struct {
		name               string
		in                 string
		wantName, wantDesc string
		wantType           MemoryType
		wantRawType        string
		wantForm           FrontmatterForm
		wantModified       *time.Time
		wantSession        string
		wantBody           string
		wantInvalidLine    int
		wantMeta           map[string]string
	}{
		{name: "client-written nested", in: clientWritten, wantName: "prefers-terse", wantDesc: "User prefers terse answers",
			wantType: TypeFeedback, wantRawType: "feedback", wantForm: FormNested, wantModified: &mod,
			wantSession: "6aa5d53d-1d02-4a1a-b312-243f356a8ea5", wantBody: "\nBe terse.\n", wantMeta: map[string]string{"node_type": "memory"}},
		{name: "legacy flat", in: legacyFlat, wantName: "user role", wantDesc: "user is a data scientist, currently focused on observability/logging",
			wantType: TypeUser, wantRawType: "user", wantForm: FormFlat, wantBody: "Body text here.\n"},
		{name: "both forms: metadata wins", in: "---\nname: n\ntype: user\ncolor: blue\nmetadata:\n  type: project\n  color: red\n---\nb",
			wantName: "n", wantType: TypeProject, wantRawType: "project", wantForm: FormMixed, wantBody: "b", wantMeta: map[string]string{"color": "red"}},
		{name: "unknown top-level keys merge into metadata", in: "---\nname: n\nowner: ann\nmetadata:\n  type: reference\n---\n",
			wantName: "n", wantType: TypeReference, wantRawType: "reference", wantForm: FormNested, wantMeta: map[string]string{"owner": "ann"}},
		{name: "unknown type is untyped", in: "---\nname: n\ntype: Feedback\n---\nx", wantName: "n", wantType: TypeUntyped, wantRawType: "Feedback", wantForm: FormFlat, wantBody: "x"},
		{name: "no frontmatter", in: "just text\n", wantType: TypeUntyped, wantForm: FormNone, wantBody: "just text\n"},
		{name: "BOM and CRLF", in: "\uFEFF---\r\nname: n\r\ndescription: d\r\nmetadata:\r\n  type: user\r\n---\r\nbody\r\n",
			wantName: "n", wantDesc: "d", wantType: TypeUser, wantRawType: "user", wantForm: FormNested, wantBody: "body\r\n"},
		{name: "empty frontmatter", in: "---\n---\nbody", wantType: TypeUntyped, wantForm: FormNone, wantBody: "body"},
		{name: "short modified date", in: "---\nmetadata:\n  modified: 2026-01-02\n---\n", wantType: TypeUntyped, wantForm: FormNested,
			wantModified: ptr(time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC))},
		{name: "quoted modified", in: "---\nmetadata:\n  modified: \"2026-11-22T11:14:20.836Z\"\n---\n", wantType: TypeUntyped, wantForm: FormNested, wantModified: &mod},
		{name: "bad YAML reports the file line", in: "---\nname: n\ndescription: a: b\n---\nbody\n", wantType: TypeUntyped, wantForm: FormNone, wantBody: "body\n", wantInvalidLine: 3},
		{name: "tab indentation", in: "---\nmetadata:\n\ttype: user\n---\n", wantType: TypeUntyped, wantForm: FormNone, wantInvalidLine: 3},
		{name: "unclosed", in: "---\nname: n\nbody\n", wantType: TypeUntyped, wantForm: FormNone, wantBody: "---\nname: n\nbody\n", wantInvalidLine: 1},
		{name: "duplicate key", in: "---\nname: a\nname: b\n---\n", wantName: "", wantType: TypeUntyped, wantForm: FormNone, wantInvalidLine: 3},
		{name: "duplicate metadata key", in: "---\nmetadata:\n  type: user\n  type: project\n---\n", wantType: TypeUntyped, wantForm: FormNone, wantInvalidLine: 4},
		{name: "not a mapping", in: "---\n- a\n- b\n---\n", wantType: TypeUntyped, wantForm: FormNone, wantInvalidLine: 2},
		{name: "fence only, no newline", in: "---", wantType: TypeUntyped, wantForm: FormNone, wantBody: "---"},
		{name: "invalid UTF-8 body kept", in: "---\nname: n\n---\n\xff\xfe", wantName: "n", wantType: TypeUntyped, wantForm: FormNested, wantBody: "\xff\xfe"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, prob := ParseMemoryFile("m.md", []byte(tt.in))
			if f == nil {
				t.Fatal("nil file")
			}
			if tt.wantInvalidLine > 0 {
				if prob == nil || !f.Invalid || prob.Line != tt.wantInvalidLine || prob.Kind != ProblemInvalidFrontmatter || prob.File != "m.md" {
					t.Fatalf("want invalid at line %d, got %+v (invalid %v)", tt.wantInvalidLine, prob, f.Invalid)
				}
			} else if prob != nil || f.Invalid {
				t.Fatalf("unexpected problem %+v", prob)
			}
			if f.Name != tt.wantName || f.Description != tt.wantDesc || f.Type != tt.wantType || f.RawType != tt.wantRawType || f.Form != tt.wantForm {
				t.Errorf("got name %q desc %q type %s raw %q form %s", f.Name, f.Description, f.Type, f.RawType, f.Form)
			}
			if (f.Modified == nil) != (tt.wantModified == nil) || f.Modified != nil && !f.Modified.Equal(*tt.wantModified) {
				t.Errorf("modified = %v, want %v", f.Modified, tt.wantModified)
			}
			if f.OriginSessionID != tt.wantSession {
				t.Errorf("session = %q", f.OriginSessionID)
			}
			if tt.wantBody != "" && f.Body != tt.wantBody {
				t.Errorf("body = %q, want %q", f.Body, tt.wantBody)
			}
			for k, v := range tt.wantMeta {
				if got, _ := f.Metadata[k].(string); got != v {
					t.Errorf("metadata[%s] = %v, want %q", k, f.Metadata[k], v)
				}
			}
			if string(f.Bytes()) != tt.in || f.Size != int64(len(tt.in)) {
				t.Error("Bytes() of an unchanged file differs from the input")
			}
		})
	}
}

func TestMemoryFileEdits(t *testing.T) {
	at := time.Date(2026, 12, 1, 9, 30, 0, 5e6, time.UTC)
	tests := []struct {
		name string
		in   string
		edit func(f *MemoryFile) error
		want string
	}{
		{"modified rewrites only its line", clientWritten, func(f *MemoryFile) error { return f.SetModified(at) },
			strings.Replace(clientWritten, "2026-11-22T11:14:20.836Z", "2026-12-01T09:30:00.005Z", 1)},
		{"type in nested form", clientWritten, func(f *MemoryFile) error { return f.SetType(TypeProject) },
			strings.Replace(clientWritten, "type: feedback", "type: project", 1)},
		{"description with comma stays plain", clientWritten, func(f *MemoryFile) error { return f.SetDescription("Short, plain answers") },
			strings.Replace(clientWritten, "User prefers terse answers", "Short, plain answers", 1)},
		{"description needing quotes", clientWritten, func(f *MemoryFile) error { return f.SetDescription("a: b # c") },
			strings.Replace(clientWritten, "User prefers terse answers", "'a: b # c'", 1)},
		{"multi-line value goes double-quoted on one line", clientWritten, func(f *MemoryFile) error { return f.SetDescription("one\ntwo") },
			strings.Replace(clientWritten, "User prefers terse answers", `"one\ntwo"`, 1)},
		{"name", clientWritten, func(f *MemoryFile) error { return f.SetName("be-terse") },
			strings.Replace(clientWritten, "prefers-terse", "be-terse", 1)},
		{"flat type edited in place", legacyFlat, func(f *MemoryFile) error { return f.SetType(TypeFeedback) },
			strings.Replace(legacyFlat, "type: user", "type: feedback", 1)},
		{"flat file gets a flat modified line", legacyFlat, func(f *MemoryFile) error { return f.SetModified(at) },
			strings.Replace(legacyFlat, "type: user\n", "type: user\nmodified: 2026-12-01T09:30:00.005Z\n", 1)},
		{"type added after node_type", "---\nname: n\nmetadata:\n  node_type: memory\n  modified: 2026-01-01T00:00:00.000Z\n---\nb\n",
			func(f *MemoryFile) error { return f.SetType(TypeUser) },
			"---\nname: n\nmetadata:\n  node_type: memory\n  type: user\n  modified: 2026-01-01T00:00:00.000Z\n---\nb\n"},
		{"modified added last in metadata", "---\nname: n\nmetadata:\n    type: user\n# trailing comment\n---\n",
			func(f *MemoryFile) error { return f.SetModified(at) },
			"---\nname: n\nmetadata:\n    type: user\n    modified: 2026-12-01T09:30:00.005Z\n# trailing comment\n---\n"},
		{"no type anywhere: metadata block added", "---\nname: n\ndescription: d\n---\nbody\n",
			func(f *MemoryFile) error { return f.SetType(TypeReference) },
			"---\nname: n\ndescription: d\nmetadata:\n  type: reference\n---\nbody\n"},
		{"description added after name", "---\nname: n\nmetadata:\n  type: user\n---\n",
			func(f *MemoryFile) error { return f.SetDescription("d") },
			"---\nname: n\ndescription: d\nmetadata:\n  type: user\n---\n"},
		{"name added first", "---\ndescription: d\n---\n",
			func(f *MemoryFile) error { return f.SetName("n") }, "---\nname: n\ndescription: d\n---\n"},
		{"no frontmatter: block added, body kept", "Body only.\n",
			func(f *MemoryFile) error { return f.SetType(TypeUser) }, "---\nmetadata:\n  type: user\n---\nBody only.\n"},
		{"CRLF kept", "---\r\nname: n\r\ndescription: old\r\n---\r\nb\r\n",
			func(f *MemoryFile) error { return f.SetDescription("new") }, "---\r\nname: n\r\ndescription: new\r\n---\r\nb\r\n"},
		{"CRLF insert", "---\r\nname: n\r\n---\r\n",
			func(f *MemoryFile) error { return f.SetDescription("d") }, "---\r\nname: n\r\ndescription: d\r\n---\r\n"},
		{"comment after value kept", "---\nname: n # the slug\n---\n",
			func(f *MemoryFile) error { return f.SetName("m") }, "---\nname: m # the slug\n---\n"},
		{"block scalar replaced by one line", "---\ndescription: |\n  long\n  text\nname: n\n---\n",
			func(f *MemoryFile) error { return f.SetDescription("short") }, "---\ndescription: short\nname: n\n---\n"},
		{"flow metadata re-emitted on its line", "---\nname: n\nmetadata: {type: user}\n---\n",
			func(f *MemoryFile) error { return f.SetType(TypeProject) }, "---\nname: n\nmetadata: {type: project}\n---\n"},
		{"empty metadata filled", "---\nname: n\nmetadata:\n---\n",
			func(f *MemoryFile) error { return f.SetType(TypeUser) }, "---\nname: n\nmetadata:\n  type: user\n---\n"},
		{"unknown keys untouched", "---\nname: n\ntags: [a, b]   # keep\nmetadata:\n  type: user\n  extra: {x: 1}\n---\n",
			func(f *MemoryFile) error { return f.SetType(TypeFeedback) }, "---\nname: n\ntags: [a, b]   # keep\nmetadata:\n  type: feedback\n  extra: {x: 1}\n---\n"},
		{"body replaced", clientWritten, func(f *MemoryFile) error { return f.SetBody("\nNew body.\n") },
			strings.Replace(clientWritten, "Be terse.", "New body.", 1)},
		{"origin session added before modified", "---\nmetadata:\n  type: user\n  modified: 2026-01-01T00:00:00.000Z\n---\n",
			func(f *MemoryFile) error { return f.SetOriginSessionID("s-1") },
			"---\nmetadata:\n  type: user\n  originSessionId: s-1\n  modified: 2026-01-01T00:00:00.000Z\n---\n"},
		{"number-like name is quoted", "---\nname: n\n---\n",
			func(f *MemoryFile) error { return f.SetName("123") }, "---\nname: \"123\"\n---\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, prob := ParseMemoryFile("m.md", []byte(tt.in))
			if prob != nil {
				t.Fatalf("parse: %v", prob)
			}
			if err := tt.edit(f); err != nil {
				t.Fatalf("edit: %v", err)
			}
			if got := string(f.Bytes()); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

func TestMemoryFileEditErrors(t *testing.T) {
	bad, _ := ParseMemoryFile("m.md", []byte("---\nname: [\n---\n"))
	if err := bad.SetName("x"); err == nil || !strings.Contains(err.Error(), "invalid") {
		t.Errorf("edit of invalid file: %v", err)
	}
	f, _ := ParseMemoryFile("m.md", []byte(clientWritten))
	if err := f.SetType("opinion"); err == nil {
		t.Error("unknown type accepted")
	}
	scalarMeta, _ := ParseMemoryFile("m.md", []byte("---\nmetadata: 5\n---\n"))
	before := string(scalarMeta.Bytes())
	if err := scalarMeta.SetType(TypeUser); err == nil || string(scalarMeta.Bytes()) != before {
		t.Errorf("metadata scalar: err %v, bytes changed %v", err, string(scalarMeta.Bytes()) != before)
	}
}

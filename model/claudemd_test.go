package model

import (
	"reflect"
	"testing"
	"testing/fstest"
)

func TestParseClaudeMd(t *testing.T) {
	tests := []struct {
		name        string
		in          string
		wantPaths   []string
		wantContent string
		wantProbLn  int
	}{
		{"plain", "# Rules\nUse tabs.\n", nil, "# Rules\nUse tabs.\n", 0},
		{"paths list", "---\npaths:\n  - \"src/**/*.ts\"\n  - docs/*.md\n---\nTS rules\n", []string{"src/**/*.ts", "docs/*.md"}, "TS rules\n", 0},
		{"paths string, comma separated", "---\npaths: src/**, , lib/*.go\n---\nx", []string{"src/**", "lib/*.go"}, "x", 0},
		{"frontmatter without paths", "---\ndescription: d\n---\nbody", nil, "body", 0},
		{"empty paths", "---\npaths: []\n---\nbody", nil, "body", 0},
		{"bad frontmatter: unconditional, reported", "---\npaths: [a\n---\nbody", nil, "body", 2},
		{"BOM kept (the client sends it in a file joining mid-session)", "\uFEFFtext", nil, "\uFEFFtext", 0},
		{"empty file", "", nil, "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, prob := ParseClaudeMd("/r/CLAUDE.md", []byte(tt.in))
			if !reflect.DeepEqual(f.Paths, tt.wantPaths) || f.Content != tt.wantContent || f.Conditional() != (len(tt.wantPaths) > 0) {
				t.Errorf("got paths %q content %q", f.Paths, f.Content)
			}
			if tt.wantProbLn == 0 && prob != nil || tt.wantProbLn != 0 && (prob == nil || prob.Line != tt.wantProbLn || f.Problem == nil) {
				t.Errorf("problem = %+v, want line %d", prob, tt.wantProbLn)
			}
		})
	}
	fsys := fstest.MapFS{"r/CLAUDE.md": {Data: []byte("hi")}}
	if f, p := ReadClaudeMd(fsys, "r/CLAUDE.md", "/r/CLAUDE.md"); p != nil || f.Content != "hi" || f.Size != 2 {
		t.Errorf("read: %+v %v", f, p)
	}
	if f, p := ReadClaudeMd(fsys, "r/nope.md", "/r/nope.md"); f != nil || p == nil || p.Kind != ProblemUnreadable {
		t.Errorf("missing: %+v %v", f, p)
	}
}

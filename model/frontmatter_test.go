package model

import (
	"strings"
	"testing"
)

// The wanted lines were counted by hand in each input (1-based file lines,
// the opening fence is line 1). yaml.v3 numbers its parser errors from 0
// and its scanner errors from 1; the problem must name the file line
// either way.
func TestParseFrontmatterErrorLines(t *testing.T) {
	tests := []struct {
		name, in string
		line     int
		reason   string
	}{
		{"unclosed flow sequence (parser)", "---\nname: a\ndescription: b\ntype: [oops\n---\nbody", 4, "did not find expected ',' or ']'"},
		{"unclosed flow mapping (parser)", "---\nname: a\nmeta: {a: 1\n---\n", 3, "did not find expected ',' or '}'"},
		{"sequence item inside a mapping (parser)", "---\nname: a\nb: c\n- x\n---\n", 4, "did not find expected key"},
		{"undefined tag handle (parser)", "---\nname: a\nb: !foo!bar x\n---\n", 3, "found undefined tag handle"},
		{"CRLF and BOM (parser)", "\ufeff---\r\nname: a\r\ntype: [oops\r\n---\r\n", 3, "did not find expected ',' or ']'"},
		{"bad indentation (scanner)", "---\nname: a\n\n\ndescription: b\n  bad: indent\n---\n", 6, "mapping values are not allowed"},
		{"tab indentation (scanner)", "---\nname: a\n\tdescription: tab\n---\n", 3, "tab character"},
		{"character that cannot start a token (scanner)", "---\na: 1\nb: @x\n---\n", 3, "cannot start any token"},
		{"unclosed bracket on the only line: marked at the end, named at the last YAML line", "---\npaths: [a\n---\nbody", 2, "did not find expected ',' or ']'"},
		{"error on the first YAML line (scanner)", "---\n@x: 1\n---\n", 2, "cannot start any token"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, p := ParseFrontmatter("x.md", []byte(tt.in))
			if p == nil {
				t.Fatal("no problem reported")
			}
			if p.Line != tt.line || p.Kind != ProblemInvalidFrontmatter || !strings.Contains(p.Reason, tt.reason) {
				t.Errorf("got %s (kind %s), want line %d and a reason with %q", p, p.Kind, tt.line, tt.reason)
			}
			if strings.Contains(p.Reason, "line ") {
				t.Errorf("reason %q carries yaml's own line number, which disagrees with the file line", p.Reason)
			}
		})
	}
}

package preview

import (
	"reflect"
	"strconv"
	"testing"
)

func TestFindImports(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string // path@line
	}{
		{"at line start", "@a.md", []string{"a.md@1"}},
		{"after a space", "see @a.md here", []string{"a.md@1"}},
		{"after a tab", "x\t@tab.md", []string{"tab.md@1"}},
		{"tab-indented first line is a code block", "\t@tab.md", nil},
		{"after a JS-only space (U+3000)", "x\u3000@c.md", []string{"c.md@1"}},
		{"not glued to a word (e-mail)", "mail me@b.md", nil},
		{"./ relative", "@./x.md", []string{"./x.md@1"}},
		{"~/ home", "@~/x.md", []string{"~/x.md@1"}},
		{"absolute", "@/abs/x.md", []string{"/abs/x.md@1"}},
		{"bare slash refused", "@/", nil},
		{"@@ refused", "@@x.md", nil},
		{"only a fragment refused", "@#x", nil},
		{"punctuation start refused", "@(x).md @*y @%z", nil},
		{"dash, dot, underscore starts", "@-x @.hidden @_u", []string{"-x@1", ".hidden@1", "_u@1"}},
		{"escaped space", `@my\ file.md`, []string{"my file.md@1"}},
		{"fragment stripped", "@a.md#section", []string{"a.md@1"}},
		{"trailing comma kept", "@a.md, @b.md", []string{"a.md,@1", "b.md@1"}},
		{"line numbers", "one\n\nthree @x.md\n@y.md", []string{"x.md@3", "y.md@4"}},
		{"code span", "use `@a.md` or ``x `@b.md` y`` but @c.md", []string{"c.md@1"}},
		// The lexer ends a text token at a code span: a backslash before it
		// is not an escaped space (found by FuzzImportsFind).
		{"backslash before a code span", "see @a.md\\`x` and @b\\ c.md", []string{"a.md@1", "b c.md@1"}},
		{"unclosed backtick is text", "a ` @d.md", []string{"d.md@1"}},
		{"fenced block", "```\n@a.md\n```\n@b.md", []string{"b.md@4"}},
		{"tilde fence with info", "~~~md\n@a.md\n~~~~\n@b.md", []string{"b.md@4"}},
		{"fence needs the same marker to close", "```\n~~~\n@a.md\n```\n@b.md", []string{"b.md@5"}},
		{"indented code after blank line", "para\n\n    @a.md\n\n@b.md", []string{"b.md@5"}},
		{"indented line continuing a paragraph", "para\n    @a.md", []string{"a.md@2"}},
		// Only a paragraph can be continued by an indented line; after a
		// heading, a fence or an HTML comment block it starts a code block.
		{"indented code after a heading", "# Title\n    @a.md\n@b.md", []string{"b.md@3"}},
		{"indented code after a fenced block", "```\nx\n```\n    @a.md", nil},
		{"indented code after a one-line HTML comment block", "<!-- note -->\n    @a.md", nil},
		{"indented code after a multi-line HTML comment block", "<!--\nnote\n-->\n    @a.md", nil},
		{"indented line after a comment inside a paragraph continues it", "text <!-- note -->\n    @a.md", []string{"a.md@2"}},
		{"indented line continuing a list item", "- item\n    @a.md", []string{"a.md@2"}},
		{"a heading is not a code block's blank line", "para\n# H\n    @a.md", nil},
		{"HTML comment", "<!-- @a.md --> @b.md", []string{"b.md@1"}},
		{"multi-line HTML comment", "<!--\n@a.md\n-->\n@b.md", []string{"b.md@4"}},
		{"CRLF", "@a.md\r\n@b.md\r\n", []string{"a.md@1", "b.md@2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, r := range FindImports(tt.in) {
				got = append(got, r.Path+"@"+strconv.Itoa(r.Line))
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("FindImports(%q) = %v, want %v", tt.in, got, tt.want)
			}
		})
	}
}

func TestResolveImport(t *testing.T) {
	tests := []struct{ p, from, want string }{
		{"a.md", "/r/CLAUDE.md", "/r/a.md"},
		{"./d/a.md", "/r/.claude/CLAUDE.md", "/r/.claude/d/a.md"},
		{"../x.md", "/r/sub/CLAUDE.md", "/r/x.md"},
		{"~/notes.md", "/r/CLAUDE.md", "/home/me/notes.md"},
		{"/etc/x.md", "/r/CLAUDE.md", "/etc/x.md"},
	}
	for _, tt := range tests {
		if got := ResolveImport(tt.p, tt.from, "/home/me"); got != tt.want {
			t.Errorf("ResolveImport(%q, %q) = %q, want %q", tt.p, tt.from, got, tt.want)
		}
	}
}

func TestIsTextImport(t *testing.T) {
	for p, want := range map[string]bool{"a.md": true, "A.MD": true, "LICENSE": true, ".env": true, "x.go": true,
		"logo.png": false, "a.pdf": false, "b.exe": false, "dir.v2/Makefile": true, "x.tar.gz": false} {
		if got := isTextImport(p); got != want {
			t.Errorf("isTextImport(%q) = %v, want %v", p, got, want)
		}
	}
}

func TestStripHTMLComments(t *testing.T) {
	tests := []struct{ in, want string }{
		// Measured on the real client (e2e TestCommentsAsTheClientSends).
		{"a <!-- x --> b", "a <!-- x --> b"},
		{"a\n<!-- one\ntwo -->\nb", "a\nb"},
		{"a\n\n<!-- c -->\n\n\nd", "a\n\nd"},
		{"g\n   <!-- indented continues the paragraph -->\nh", "g\n   <!-- indented continues the paragraph -->\nh"},
		{"\n   <!-- indented after a blank line -->\nh", "\nh"},
		{"    <!-- indented code -->\ni", "    <!-- indented code -->\ni"},
		{"<!--a--><!--b-->c\nd", "c\nd"},
		{"- item\n<!-- z -->\n- item2", "- item\n- item2"},
		{"x\r\n<!-- crlf -->\r\ny\r\n", "x\ny\n"},
		{"<!---->\n<!-->y", "<!-->y"},
		{"a\n===\n  <!-- after a heading -->\nb", "a\n===\nb"},
		{"keep `<!-- code -->` span", "keep `<!-- code -->` span"},
		{"```\n<!-- in fence -->\n```", "```\n<!-- in fence -->\n```"},
		{"unclosed <!-- stays", "unclosed <!-- stays"},
		{"<!--a--><!--b-->c", "c"},
		{"no comments", "no comments"},
	}
	for _, tt := range tests {
		if got := StripHTMLComments(tt.in); got != tt.want {
			t.Errorf("StripHTMLComments(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestGlobMatch(t *testing.T) {
	tests := []struct {
		pat, name string
		want      bool
	}{
		{"**/vendor/**", "/repo/vendor/CLAUDE.md", true},
		{"**/vendor/**", "/repo/vendors/CLAUDE.md", false},
		{"/repo/*.md", "/repo/CLAUDE.md", true},
		{"/repo/*.md", "/repo/sub/CLAUDE.md", false},
		{"/repo/**/*.md", "/repo/CLAUDE.md", true},
		{"**/CLAUDE.local.md", "/a/b/CLAUDE.local.md", true},
		{"**/.claude/rules/*.md", "/r/.claude/rules/x.md", true},
		{"/r/{a,b}/CLAUDE.md", "/r/b/CLAUDE.md", true},
		{"/r/{a,b}/CLAUDE.md", "/r/c/CLAUDE.md", false},
		{"/r/?.md", "/r/x.md", true},
		{"/r/[!x].md", "/r/x.md", false},
		{"/r/[a-c].md", "/r/b.md", true},
		{"src/**/*.ts", "src/a/b/c.ts", true},
		{"src/**/*.ts", "src/c.ts", true},
		{"/r/a(1).md", "/r/a(1).md", true},
		{"[", "[", true},
	}
	for _, tt := range tests {
		if got := GlobMatch(tt.pat, tt.name); got != tt.want {
			t.Errorf("GlobMatch(%q, %q) = %v, want %v", tt.pat, tt.name, got, tt.want)
		}
	}
}

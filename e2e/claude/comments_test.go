package claude

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memscope/memscope/engine/preview"
	"github.com/memscope/memscope/model"
)

// commentCases are CLAUDE.md texts with HTML comments in every place the
// client's Markdown lexer tells apart: a block comment interrupting a
// paragraph and eating the empty lines after it, a comment inside a
// paragraph (sent as written), an indented comment continuing a
// paragraph (sent), text beside a block comment (kept without the
// comment), an indented-code comment, a list, a fence, an unclosed one,
// CRLF line ends and a tab-indented line, and files with no comment at
// all but white space around them (the client does not trim a nested
// file; it trims a session-start one).
var commentCases = []string{
	"MARK1\na\n<!-- one\ntwo -->\nb\n\nMARK2\n\n<!-- c -->\n\n\nd\n\nMARK3\ne <!-- x --> f\n\nMARK4\ng\n   <!-- y --> tail\nh\n\n<!--a--><!--b-->c\n\n    <!-- indented4 -->\ni\n\n- item\n<!-- z -->\n- item2\nEND\n\n",
	"\n\n  <!-- lead -->\n# Title  \n- rule a\n```\n<!-- in fence -->\n```\n\n   <!-- after blank -->\na\n===\n  <!-- after a heading -->\nb\n\nlast <!-- unclosed\nstill\n",
	"\r\n<!-- crlf -->\r\n- crlf rule\r\n\r\n\tx\n\t<!-- tab -->\n<!---->\n<!-->y\n",
	"\ufeff- bom rule, no comment\n   \n\t\n",
	"- no final newline",
}

// TestCommentsAsTheClientSends: for each case the real client's request
// carries a session-start CLAUDE.md (trimmed) and the same text as a
// nested CLAUDE.md joining when a file beside it is read (not trimmed),
// both exactly as memscope's preview computes them.
func TestCommentsAsTheClientSends(t *testing.T) {
	claude := client(t)
	for i, content := range commentCases {
		w := newWorld(t)
		sub := filepath.Join(w.project, "sub")
		if err := os.MkdirAll(sub, 0o755); err != nil {
			t.Fatal(err)
		}
		top, nested := filepath.Join(w.project, "CLAUDE.md"), filepath.Join(sub, "CLAUDE.md")
		for _, f := range []string{top, nested} {
			if err := os.WriteFile(f, []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(filepath.Join(sub, "x.go"), []byte("package sub\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		reqs := w.run(t, claude, "Read", map[string]any{"file_path": filepath.Join(sub, "x.go")})
		// What memscope's preview assembles for this project: the
		// session-start layer's text and the nested file's.
		res := preview.AssembleClaudeMd(preview.ClaudeMdOptions{Root: model.DirFS("/"), HomeDir: w.config, UserHome: w.home, Project: w.project, Nested: true})
		want := map[string]string{}
		for _, l := range res.Layers {
			if l.Path == top {
				_, text, _ := strings.Cut(l.Text, ":\n\n")
				want["Contents of "+top+" ("] = text + "\n"
			}
		}
		for _, n := range res.Nested {
			if n.Path == nested {
				want["Contents of "+nested+":"] = n.Text + "\n</system-reminder>"
			}
		}
		if len(want) != 2 {
			t.Fatalf("case %d: memscope assembles %d of the two files: %+v %+v", i, len(want), res.Layers, res.Nested)
		}
		for head, body := range want {
			found, seen := false, ""
			for _, r := range reqs {
				walkStrings(r.Body["messages"], func(s string) {
					j := strings.Index(s, head)
					if j < 0 {
						return
					}
					got := s[j:]
					if strings.HasSuffix(head, "(") {
						// The session-start file: its header, a blank line,
						// the text; the next file or the reminder's end follow.
						k := strings.Index(got, ":\n\n")
						got = got[k+3:]
						if strings.HasPrefix(got, body) {
							found = true
						}
					} else if strings.HasPrefix(got, body) {
						found = true
					}
					seen = got
				})
			}
			if !found {
				t.Errorf("case %d, %s…: the client sent\n%q\nmemscope computes\n%q", i, head, seen[:min(len(seen), len(body)+80)], body)
			}
		}
	}
}

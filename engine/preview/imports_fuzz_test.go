package preview

import (
	"strings"
	"testing"
)

// FuzzImportsFind checks that every import found is one the client would
// accept and appears in the text after an "@".
func FuzzImportsFind(f *testing.F) {
	f.Add("see @a.md and `@b.md`\n<!-- @c.md -->\n```\n@d.md\n```\n@my\\ file.md#x")
	f.Fuzz(func(t *testing.T, text string) {
		lines := strings.Count(text, "\n") + 1
		for _, r := range FindImports(text) {
			if r.Path == "" || !validImportPath(r.Path) || strings.Contains(r.Path, "#") {
				t.Fatalf("bad import %+v", r)
			}
			if r.Line < 1 || r.Line > lines || !strings.Contains(text, "@"+r.Raw) {
				t.Fatalf("import %+v not at its place", r)
			}
		}
		StripHTMLComments(text)
	})
}

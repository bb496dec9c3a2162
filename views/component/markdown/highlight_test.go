package markdown

import (
	"strings"
	"testing"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/alecthomas/chroma/v2/styles"
	"github.com/charmbracelet/x/ansi"
)

// memscope builds glamour against a copy of chroma that parses its lexers
// and styles on first use (third_party/chroma/MEMSCOPE.md). These tests
// show highlighting still works through glamour and that the lazy
// registries answer as upstream's eager ones do.

func TestCodeBlocksAreStillHighlighted(t *testing.T) {
	r := NewRenderer()
	out := r.Render("```go\nfunc main() { return }\n```\n", 60, Dark)
	if !strings.Contains(ansi.Strip(out), "func main() { return }") {
		t.Fatalf("code lost:\n%q", out)
	}
	// The keyword and the identifier get different styles, which only
	// happens when the Go lexer was found and ran.
	i := strings.Index(out, "func")
	j := strings.Index(out, "main")
	if i < 0 || j < 0 {
		t.Fatalf("tokens missing: %q", out)
	}
	if !strings.Contains(out[i+len("func"):j], "\x1b[") {
		t.Fatalf("no colour change between keyword and name, lexer not applied: %q", out[i:j+4])
	}
}

func TestLazyLexersAnswerAsUpstream(t *testing.T) {
	for _, name := range []string{"go", "python", "bash", "markdown", "html", "EmacsLisp", "yaml", "json"} {
		if l := lexers.Get(name); l == nil {
			t.Errorf("lexers.Get(%q) = nil", name)
		}
	}
	if l := lexers.Match("main.rs"); l == nil || l.Config().Name != "Rust" {
		t.Errorf("Match(main.rs) = %v", l)
	}
	if n := len(lexers.Names(false)); n < 200 {
		t.Errorf("only %d lexers registered", n)
	}
	// An analyser attached by an init function upstream (dns.go) is
	// attached after the lazy load.
	if l := lexers.Analyse("@ IN SOA ns1.example.com. admin.example.com. 1 2 3 4 5\n"); l == nil || l.Config().Name != "dns" {
		t.Errorf("Analyse(zone file) = %v, want dns", l)
	}
	// The Go-defined Go lexer replaces nothing and is found by alias.
	if l := lexers.Get("golang"); l == nil || l.Config().Name != "Go" {
		t.Errorf("Get(golang) = %v", l)
	}
}

func TestLazyStylesAnswerAsUpstream(t *testing.T) {
	mine := styles.Register(chroma.MustNewStyle("monokai", chroma.StyleEntries{chroma.Text: "#123456"}))
	if got := styles.Get("monokai"); got != mine {
		t.Fatal("a style registered before the lazy load was replaced by the embedded one")
	}
	if got := styles.Get("dracula"); got == nil || got.Name != "dracula" {
		t.Fatalf("Get(dracula) = %v", got)
	}
	if got := styles.Get("no-such-style"); got != styles.Fallback || got.Name != "swapoff" {
		t.Fatalf("unknown style gave %v, want the fallback", got)
	}
	if n := len(styles.Names()); n < 50 {
		t.Fatalf("only %d styles", n)
	}
}

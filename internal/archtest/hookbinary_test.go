package archtest

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// hookForbidden are the packages the hook binary must not link: the
// terminal app and everything it alone needs (Bubble Tea, Lip Gloss,
// Glamour with its Markdown, HTML and highlighting trees, the clipboard).
// Their package initialisation was 7–15 ms of every gate call.
var hookForbidden = []string{
	"charm.land/", "github.com/charmbracelet/",
	"github.com/alecthomas/chroma", "github.com/yuin/goldmark", "github.com/microcosm-cc/bluemonday",
	"github.com/gorilla/css", "golang.org/x/net/html", "github.com/atotto/clipboard", "github.com/dlclark/regexp2",
	"github.com/lucasb-eyer/go-colorful", "github.com/muesli/", "github.com/sahilm/fuzzy",
	module + "/ui", module + "/views", module + "/cli/app", module + "/keymap/teakey",
}

// hookAllowed are the exceptions: bubbles' key.Binding, a plain struct
// with no imports, is the type of the binding table (keymap) the settings
// file's keys: section is checked against, so that both binaries read
// that file by one rule (a wrong binding makes memscope run on the
// defaults, the gate's policy included).
var hookAllowed = []string{"charm.land/bubbles/v2/key"}

// deps lists what each of pkgs links for goos, in one go list.
func deps(t *testing.T, goos string, pkgs ...string) map[string][]string {
	t.Helper()
	cmd := exec.Command("go", append([]string{"list", "-f", "{{.ImportPath}}{{range .Deps}} {{.}}{{end}}"}, pkgs...)...)
	cmd.Env = append(os.Environ(), "GOOS="+goos, "CGO_ENABLED=0")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list %s (GOOS=%s): %v", pkgs, goos, err)
	}
	m := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		m[f[0]] = f
	}
	if len(m) != len(pkgs) {
		t.Fatalf("go list %s (GOOS=%s) listed %d packages", pkgs, goos, len(m))
	}
	return m
}

// TestHookBinaryLinksNoTerminalApp: the hook binary (cmd/memscope-hook),
// which the client starts before every Write and Edit, links memscope's
// command line and the gate but none of the terminal app's packages, on
// every system the release builds for; memscope itself still links them
// (so the listing is what it claims to be).
func TestHookBinaryLinksNoTerminalApp(t *testing.T) {
	for _, goos := range []string{"linux", "darwin"} {
		listed := deps(t, goos, module+"/cmd/memscope-hook", module)
		hook := listed[module+"/cmd/memscope-hook"]
		for _, want := range []string{module + "/cli", module + "/engine/gate", module + "/engine/vault", module + "/config"} {
			if !slices.Contains(hook, want) {
				t.Errorf("GOOS=%s: the hook binary does not link %s: the listing is wrong", goos, want)
			}
		}
		for _, p := range hook {
			if slices.Contains(hookAllowed, p) {
				continue
			}
			for _, f := range hookForbidden {
				if p == strings.TrimSuffix(f, "/") || strings.HasPrefix(p, f) || strings.HasPrefix(p, f+"/") {
					t.Errorf("GOOS=%s: the hook binary links %s (%s): it starts on every tool call; keep the terminal app's packages out of cli and what it imports", goos, p, f)
				}
			}
		}
		full := listed[module]
		for _, want := range []string{module + "/ui", "charm.land/glamour/v2", "charm.land/bubbletea/v2"} {
			if !slices.Contains(full, want) {
				t.Errorf("GOOS=%s: memscope does not link %s: the listing is wrong", goos, want)
			}
		}
	}
}

package archtest

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/memscope/memscope"

// engineLayers ranks the engine packages: a package imports only packages
// of a lower layer. docs/ARCHITECTURE.md shows the same table.
var engineLayers = map[string]int{
	"engine/internal/jsstr": 0, "engine/internal/udiff": 0, "engine/diskcache": 0, "engine/pricing": 0, "engine/homepass": 0,
	"engine/window": 1, "engine/doctor": 1, "engine/scan": 1, "engine/journal": 1, "engine/sessions": 1,
	"engine/memindex": 2, "engine/timeline": 2,
	"engine/lint": 3, "engine/preview": 3, "engine/compact": 3, "engine/inventory": 3, "engine/cleanup": 3, "engine/live": 3,
	"engine/extract": 4, "engine/memrows": 4, "engine/store": 4, "engine/search": 4, "engine/loads": 4, "engine/gate": 4,
	"engine/filehist": 5, "engine/export": 5, "engine/provenance": 5, "engine/ledger": 5,
	"engine/review":     6,
	"engine/leftover":   6,
	"engine/secrets":    6,
	"engine/memcheck":   7,
	"engine/vault":      5,
	"engine/projectmem": 8,
	"engine/overview":   9,
}

// leaves are the packages below model: they import no memscope package,
// and model and the engine may import them.
var leaves = []string{"internal/jsonscan", "internal/jsonstr"}

func isLeaf(pkg string) bool {
	for _, l := range leaves {
		if pkg == l {
			return true
		}
	}
	return false
}

// testOnly are packages only tests (and other test-only packages) may
// import: they never ship.
var testOnly = []string{
	"internal/faultfs", "internal/testroot", "internal/testenv", "internal/keypress",
	"internal/filehistgen", "internal/genhome", "internal/provgen", "internal/secretgen", "internal/storeshome", "engine/internal/enginetest", "keymap/keymaptest",
}

func isTestOnly(pkg string) bool {
	for _, to := range testOnly {
		if under(pkg, to) {
			return true
		}
	}
	return false
}

// imports reads the repository's production Go files (tests aside) and
// returns, per package folder, the module packages it imports.
func imports(t *testing.T) map[string][]string {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	fset := token.NewFileSet()
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != root && (name == "testdata" || name == "third_party" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(p))
		pkg := filepath.ToSlash(rel)
		if _, ok := out[pkg]; !ok {
			out[pkg] = nil
		}
		for _, imp := range f.Imports {
			ip, _ := strconv.Unquote(imp.Path.Value)
			if ip == module {
				out[pkg] = append(out[pkg], ".")
			} else if rest, ok := strings.CutPrefix(ip, module+"/"); ok {
				out[pkg] = append(out[pkg], rest)
			} else if strings.Contains(ip, "charm.land/") || strings.Contains(ip, "charmbracelet/") {
				out[pkg] = append(out[pkg], "charm:"+ip)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil || len(out["engine/store"]) == 0 {
		t.Fatalf("did not find the repository at %s", root)
	}
	return out
}

func under(pkg, dir string) bool { return pkg == dir || strings.HasPrefix(pkg, dir+"/") }

func TestImportsPointDown(t *testing.T) {
	all := imports(t)
	pkgs := make([]string, 0, len(all))
	for p := range all {
		pkgs = append(pkgs, p)
	}
	sort.Strings(pkgs)
	for _, p := range pkgs {
		for _, imp := range all[p] {
			bad := ""
			switch {
			case strings.HasPrefix(imp, "charm:"):
				if under(p, "engine") || under(p, "model") || under(p, "internal/format") {
					bad = "the engine and model use no charm package"
				}
			case isLeaf(p):
				bad = "a leaf package imports no memscope package"
			case p == "model":
				if !isLeaf(imp) {
					bad = "model imports no other memscope package but the leaves"
				}
			case under(p, "engine"):
				lp, okp := engineLayers[p]
				li, oki := engineLayers[imp]
				switch {
				case !okp && p != "engine/internal/enginetest":
					bad = "engine package missing from engineLayers (and docs/ARCHITECTURE.md)"
				case under(imp, "engine") && imp != "engine/internal/enginetest" && oki && okp && li >= lp:
					bad = "an engine package imports only lower layers"
				case !under(imp, "engine") && imp != "model" && imp != "internal/format" && !isLeaf(imp) &&
					!(p == "engine/internal/enginetest" && isTestOnly(imp)):
					bad = "the engine imports only model, internal/format, the leaves and lower engine packages"
				}
			case under(p, "views"):
				if under(imp, "ui") || under(imp, "cli") {
					bad = "views never import ui or cli"
				}
				if under(p, "views/component") && under(imp, "views") && !under(imp, "views/component") {
					bad = "shared components import no pane"
				}
			case under(p, "ui/feed"):
				switch {
				case imp == "ui" || under(imp, "cli"):
					bad = "a feed never imports the shell (ui) or cli"
				case under(imp, "ui") && !under(imp, "ui/feed"):
					bad = "a feed imports no other part of ui"
				}
			case under(p, "ui"):
				if under(imp, "cli") {
					bad = "ui never imports cli"
				}
			}
			if bad == "" && under(imp, "ui") && p != "cli/app" && !(p == "ui" && under(imp, "ui/feed")) && !(under(p, "ui/feed") && under(imp, "ui/feed")) {
				bad = "only cli/app opens the terminal app (and only the shell uses the feeds)"
			}
			for _, to := range testOnly {
				if under(imp, to) && !under(p, to) && !strings.HasPrefix(p, "scripts") && !isTestOnly(p) {
					bad = imp + " is for tests only"
				}
			}
			if bad != "" {
				t.Errorf("%s imports %s: %s", p, imp, bad)
			}
		}
	}
	for p := range engineLayers {
		if _, ok := all[p]; !ok {
			t.Errorf("engineLayers names %s, which has no Go files", p)
		}
	}
	for _, p := range leaves {
		if _, ok := all[p]; !ok {
			t.Errorf("leaves names %s, which has no Go files", p)
		}
	}
}

// docPackage finds the package paths docs/ARCHITECTURE.md names in
// backticks (`engine/lint`, `ui/feed`, `internal/testroot`,
// `views/<pane>` aside: a placeholder).
var docPackage = regexp.MustCompile("`((?:engine|internal|views|ui|keymap|cli|model)(?:/[a-z0-9_]+)*)/?`")

// docLayer is a row of the engine's layer table: | 3 | `engine/lint` | …
var docLayer = regexp.MustCompile("^\\| ([0-9]+) \\| `(engine/[a-z0-9_/]+)` \\|")

// TestArchitectureDocMatches holds docs/ARCHITECTURE.md to the code:
// every package it names exists (a folder with Go files), its layer table
// is engineLayers row for row (and so the imports, TestImportsPointDown),
// and every test-only package it lists is in testOnly.
func TestArchitectureDocMatches(t *testing.T) {
	raw, err := os.ReadFile("../../docs/ARCHITECTURE.md")
	if err != nil {
		t.Fatal(err)
	}
	all := imports(t)
	doc := string(raw)
	named := map[string]bool{}
	for _, m := range docPackage.FindAllStringSubmatch(doc, -1) {
		named[m[1]] = true
	}
	if len(named) < 20 {
		t.Fatalf("found only %d package names in the page: %v", len(named), named)
	}
	for p := range named {
		if _, ok := all[p]; !ok {
			if st, err := os.Stat(filepath.Join("../..", p)); err == nil && st.IsDir() {
				continue // a folder of packages (views, engine)
			}
			t.Errorf("docs/ARCHITECTURE.md names %s, which is no package", p)
		}
	}
	layers := map[string]int{}
	for _, l := range strings.Split(doc, "\n") {
		if m := docLayer.FindStringSubmatch(l); m != nil {
			n, _ := strconv.Atoi(m[1])
			layers[m[2]] = n
		}
	}
	for p, n := range engineLayers {
		if got, ok := layers[p]; !ok || got != n {
			t.Errorf("the page's layer table has %s at layer %d (listed: %v); the code's is %d", p, got, ok, n)
		}
	}
	for p := range layers {
		if _, ok := engineLayers[p]; !ok {
			t.Errorf("the page's layer table lists %s, which engineLayers does not", p)
		}
	}
	start := strings.Index(doc, "packages only tests import")
	if start < 0 {
		t.Fatal("the page no longer lists the test-only packages")
	}
	list := doc[start:]
	list = list[:strings.Index(list, ")")]
	var listed []string
	for _, m := range docPackage.FindAllStringSubmatch(list, -1) {
		listed = append(listed, m[1])
	}
	sort.Strings(listed)
	want := append([]string(nil), testOnly...)
	want = slices.DeleteFunc(want, func(s string) bool { return s == "engine/internal/enginetest" })
	sort.Strings(want)
	if !slices.Equal(listed, want) {
		t.Errorf("the page lists the test-only packages %v; testOnly (enginetest aside) is %v", listed, want)
	}
}

// maxFileLines bounds a Go file of the terminal app's shell and feeds:
// a file past it holds more than one concern (ui/load.go had 853 lines
// before the shell was split by store).
const maxFileLines = 500

// TestShellFilesStaySmall: no Go file in ui/ or ui/feed/ (tests too) is
// over maxFileLines lines.
func TestShellFilesStaySmall(t *testing.T) {
	for _, dir := range []string{"../../ui", "../../ui/feed"} {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("no Go files in %s: %v", dir, err)
		}
		for _, f := range files {
			raw, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if n := strings.Count(string(raw), "\n"); n > maxFileLines {
				t.Errorf("%s has %d lines, over %d: split it by concern", f, n, maxFileLines)
			}
		}
	}
}

// TestLintInputAssembledOnce: lint's input is built in one place,
// engine/memcheck, which `memscope lint`, `memscope prune` and the TUI's
// project load call; no other production file writes a lint.Input
// literal (they used to, in cli/cmd_lint.go and ui/project.go, and
// drifted: the TUI checked drift only for a project folder that exists).
func TestLintInputAssembledOnce(t *testing.T) {
	lit := regexp.MustCompile(`\b(?:lint|memlint)\.Input\{`)
	var found []string
	err := filepath.WalkDir("../..", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && p != "../.." {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		raw, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if lit.Match(raw) {
			found = append(found, filepath.ToSlash(strings.TrimPrefix(p, "../../")))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// The gate (engine/gate) judges a folder as a write would leave it,
	// on every memory write the client makes: it runs lint's rules on
	// that folder alone, without the home scans (leftovers, loads, the
	// project's files) memcheck adds, which would break its time bound.
	if !slices.Equal(found, []string{"engine/gate/judge.go", "engine/memcheck/memcheck.go"}) {
		t.Errorf("lint.Input is built in %v; only engine/memcheck builds it (and the gate, for the folder a write would leave)", found)
	}
	// lint reaches it through engine/projectmem's LintInput (the
	// commands' project target); prune and the TUI (its Project feed)
	// call it directly.
	for caller, call := range map[string]string{"../../cli/cmd_lint.go": ".LintInput(", "../../engine/projectmem/projectmem.go": "memcheck.Assemble(",
		"../../cli/cmd_prune.go": "memcheck.", "../../ui/feed/project.go": "memcheck."} {
		raw, err := os.ReadFile(caller)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(raw), call) {
			t.Errorf("%s does not call %s", caller, call)
		}
	}
}

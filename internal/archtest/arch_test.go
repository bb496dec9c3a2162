package archtest

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/memscope/memscope"

// engineLayers ranks the engine packages: a package imports only packages
// of a lower layer. docs/ARCHITECTURE.md shows the same table.
var engineLayers = map[string]int{
	"engine/internal/jsstr": 0, "engine/internal/udiff": 0, "engine/diskcache": 0, "engine/pricing": 0,
	"engine/window": 1, "engine/scan": 1, "engine/journal": 1, "engine/sessions": 1,
	"engine/memindex": 2, "engine/timeline": 2,
	"engine/lint": 3, "engine/preview": 3, "engine/compact": 3, "engine/inventory": 3, "engine/cleanup": 3, "engine/live": 3,
	"engine/extract": 4, "engine/memrows": 4, "engine/store": 4, "engine/search": 4, "engine/loads": 4, "engine/gate": 4,
	"engine/filehist": 5, "engine/export": 5, "engine/provenance": 5,
	"engine/review":   6,
	"engine/leftover": 6,
	"engine/secrets":  6,
}

// leaves are the packages below model: they import no memscope package,
// and model and the engine may import them.
var leaves = []string{"internal/jsonscan"}

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
	"internal/filehistgen", "internal/genhome", "internal/provgen", "internal/secretgen", "engine/internal/enginetest", "keymap/keymaptest",
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
			case under(p, "ui"):
				if under(imp, "cli") {
					bad = "ui never imports cli"
				}
			}
			if bad == "" && under(imp, "ui") && p != "cli" {
				bad = "only cli opens the terminal app"
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

package ui

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// shellLayers is the direction inside the shell, file by file: a file
// uses names declared in files of its own layer or lower ones.
//
//	0  the shell's state and services: the model, options, status,
//	   pane table, layout, theme, modals, rendering
//	1  the stores' loads and their handlers (what will become feeds in
//	   ui/feed): each reads through a feed or a Cmd and hands panes
//	   their messages
//	2  routing: data messages to their handler, keys to the focused pane
//
// Files not listed are layer 1. ui/feed is below all of them: a feed
// never uses the shell (internal/archtest checks the imports; the
// compiler forbids the cycle).
var shellLayers = map[string]int{
	"ui.go": 0, "panes.go": 0, "layout.go": 0, "theme.go": 0, "modal.go": 0, "render.go": 0, "cause.go": 0, "flight.go": 0, "readonly.go": 0,
	"tabbar.go": 0, "helpcolumn.go": 0, "undoname.go": 0, "statusexpiry.go": 0, "nofilter.go": 0, "palette.go": 0,
	"route.go": 2, "focus.go": 2,
}

// maxBackEdges is how many file-to-file uses inside ui run up (from a
// lower layer to a higher one) today. It may only go down: a change
// that adds one makes the shell's direction worse (move the name down,
// or send a message instead of calling up).
const maxBackEdges = 20

// TestShellDirection counts the uses between the shell's files that run
// against shellLayers and fails when there are more than maxBackEdges;
// it also fails when a feed file in ui/feed names the shell's package.
func TestShellDirection(t *testing.T) {
	fset := token.NewFileSet()
	files := map[string]*ast.File{}
	names, _ := filepath.Glob("*.go")
	for _, n := range names {
		if strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, n, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files[n] = f
	}
	// Where each package-level name and each method name is declared.
	declared := map[string]string{}
	for n, f := range files {
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				declared[d.Name.Name] = n
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						declared[s.Name.Name] = n
					case *ast.ValueSpec:
						for _, id := range s.Names {
							declared[id.Name] = n
						}
					}
				}
			}
		}
	}
	layer := func(n string) int {
		if l, ok := shellLayers[n]; ok {
			return l
		}
		return 1
	}
	var back []string
	for n, f := range files {
		uses := map[string]bool{}
		use := func(name string) {
			if d, ok := declared[name]; ok && d != n {
				uses[d+" "+name] = true
			}
		}
		ast.Inspect(f, func(x ast.Node) bool {
			switch x := x.(type) {
			case *ast.SelectorExpr:
				// m.name is the root's method or field (the receiver is
				// m throughout the shell); p.x.Name, pkg.Name and the
				// like name nothing of the shell's.
				if id, ok := x.X.(*ast.Ident); ok && id.Name == "m" {
					use(x.Sel.Name)
					return false
				}
				ast.Inspect(x.X, func(y ast.Node) bool {
					if id, ok := y.(*ast.Ident); ok && id.Obj == nil {
						use(id.Name)
					}
					return true
				})
				return false
			case *ast.Ident:
				if x.Obj == nil {
					use(x.Name)
				}
			}
			return true
		})
		for u := range uses {
			d, name, _ := strings.Cut(u, " ")
			if layer(d) > layer(n) {
				back = append(back, n+" → "+d+" ("+name+")")
			}
		}
	}
	sort.Strings(back)
	if len(back) > maxBackEdges {
		t.Errorf("%d uses run up the shell's layers (at most %d):\n  %s", len(back), maxBackEdges, strings.Join(back, "\n  "))
	} else if len(back) < maxBackEdges {
		t.Logf("%d uses run up, fewer than maxBackEdges (%d): lower it", len(back), maxBackEdges)
	}

	feeds, _ := filepath.Glob(filepath.Join("feed", "*.go"))
	for _, n := range feeds {
		src, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		if slices.Contains(strings.Split(string(src), "\""), "github.com/memscope/memscope/ui") {
			t.Errorf("%s imports the shell", n)
		}
	}
}

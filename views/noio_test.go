package views

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// forbiddenImports reach the disk, the network or other processes; the
// root model (package ui) does that work in its commands.
var forbiddenImports = map[string]bool{
	"os": true, "os/exec": true, "io/ioutil": true, "io/fs": true, "path/filepath": true,
	"net": true, "net/http": true, "syscall": true, "github.com/fsnotify/fsnotify": true,
}

// forbiddenModel are the model names that open or carry a file system: a
// pane that holds neither a home nor a file system has nothing to read.
var forbiddenModel = map[string]bool{
	"Home": true, "OpenHome": true, "OpenTarHome": true, "MountFS": true, "WriteFS": true, "WriteFileAtomic": true,
}

// TestViewsDoNoIO checks every non-test Go file under views/: panes and
// components get their data in messages from the root and ask for work
// with request messages, so none imports an I/O package or touches a
// model home or file system.
func TestViewsDoNoIO(t *testing.T) {
	files := 0
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "testdata" {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		files++
		checkNoIO(t, p)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 20 {
		t.Fatalf("checked %d files; the walk missed the panes", files)
	}
}

func checkNoIO(t *testing.T, path string) {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	modelName := ""
	for _, imp := range f.Imports {
		ip, _ := strconv.Unquote(imp.Path.Value)
		if forbiddenImports[ip] {
			t.Errorf("%s imports %s", fset.Position(imp.Pos()), ip)
		}
		if ip == "github.com/memscope/memscope/model" {
			modelName = "model"
			if imp.Name != nil {
				modelName = imp.Name.Name
			}
		}
	}
	if modelName == "" {
		return
	}
	ast.Inspect(f, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		if id, ok := sel.X.(*ast.Ident); ok && id.Name == modelName && forbiddenModel[sel.Sel.Name] {
			t.Errorf("%s uses model.%s", fset.Position(sel.Pos()), sel.Sel.Name)
		}
		return true
	})
}

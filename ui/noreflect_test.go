package ui

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// The shell routes messages without reflection: handleData tries its
// handlers in turn, each a type switch (route.go), and no production
// file of the shell imports reflect (handlerOf once kept a table of
// handlers by reflect.Type).
func TestShellRoutesWithoutReflection(t *testing.T) {
	names, _ := filepath.Glob("*.go")
	if len(names) == 0 {
		t.Fatal("no Go files")
	}
	fset := token.NewFileSet()
	for _, n := range names {
		if strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, n, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, im := range f.Imports {
			if im.Path.Value == `"reflect"` {
				t.Errorf("%s imports reflect: route by type switches", n)
			}
		}
	}
}

package cli

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"sort"
	"strings"
	"testing"
)

// TestCommandFilesStandAlone keeps the package's shape: each command in
// the list has its cmd_<name>.go file, every cmd_*.go file belongs to a
// listed command, nothing registers itself in init, and no command's
// files use what another command's files declare (what two commands
// share goes in a file named for what it holds). Only commands.go, which
// lists them, refers to the commands' files from outside.
func TestCommandFilesStandAlone(t *testing.T) {
	files := parsePackageFiles(t)
	owner := map[string]string{}
	for name := range files {
		if !strings.HasPrefix(name, "cmd_") {
			continue
		}
		if owner[name] = commandOfFile(name); owner[name] == "" {
			t.Errorf("%s belongs to no listed command: name it cmd_<command>[_<part>].go, or drop the cmd_ prefix if it is shared", name)
		}
	}
	for _, c := range commands {
		if _, ok := files["cmd_"+c.name+".go"]; !ok {
			t.Errorf("command %s has no cmd_%s.go", c.name, c.name)
		}
	}
	declaredIn := map[string]string{}
	for name, f := range files {
		for _, d := range topLevelNames(f) {
			if d == "init" {
				t.Errorf("%s has an init function: commands are listed in commands.go", name)
			}
			declaredIn[d] = name
		}
	}
	for _, name := range sortedKeys(files) {
		for _, id := range files[name].Unresolved {
			from, ok := declaredIn[id.Name]
			if !ok || owner[from] == "" || owner[from] == owner[name] {
				continue
			}
			if owner[name] == "" && name == "commands.go" {
				continue
			}
			t.Errorf("%s uses %s from %s (command %s): move it to a shared file", name, id.Name, from, owner[from])
		}
	}
}

// parsePackageFiles parses the package's non-test files.
func parsePackageFiles(t *testing.T) map[string]*ast.File {
	t.Helper()
	ents, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	files := map[string]*ast.File{}
	for _, e := range ents {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, n, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files[n] = f
	}
	if len(files) == 0 {
		t.Fatal("no Go files found")
	}
	return files
}

// commandOfFile is the listed command cmd_<name>[_<part>].go belongs to
// (the longest name that fits), or "".
func commandOfFile(file string) string {
	base := strings.TrimSuffix(strings.TrimPrefix(file, "cmd_"), ".go")
	best := ""
	for _, c := range commands {
		if (base == c.name || strings.HasPrefix(base, c.name+"_")) && len(c.name) > len(best) {
			best = c.name
		}
	}
	return best
}

// topLevelNames are the package-level functions, types, variables and
// constants f declares (methods are reached through their types).
func topLevelNames(f *ast.File) []string {
	var names []string
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil {
				names = append(names, d.Name.Name)
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					names = append(names, s.Name.Name)
				case *ast.ValueSpec:
					for _, n := range s.Names {
						names = append(names, n.Name)
					}
				}
			}
		}
	}
	return names
}

func sortedKeys(m map[string]*ast.File) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// The check itself must catch a use across commands: a file of one
// command calling a function declared in another's.
func TestCommandFilesStandAloneCatchesACrossUse(t *testing.T) {
	fset := token.NewFileSet()
	a, err := parser.ParseFile(fset, "cmd_stat.go", "package cli\nfunc statHelper() {}\n", 0)
	if err != nil {
		t.Fatal(err)
	}
	b, err := parser.ParseFile(fset, "cmd_sessions.go", "package cli\nfunc f() { statHelper() }\n", 0)
	if err != nil {
		t.Fatal(err)
	}
	if commandOfFile("cmd_stat.go") != "stat" || commandOfFile("cmd_compact_flush.go") != "compact" || commandOfFile("cmd_nothing.go") != "" {
		t.Fatal("commandOfFile maps files to the wrong commands")
	}
	found := false
	for _, id := range b.Unresolved {
		for _, d := range topLevelNames(a) {
			found = found || id.Name == d
		}
	}
	if !found {
		t.Fatal("a call into another file's function is not among the file's unresolved names: the check would see nothing")
	}
}

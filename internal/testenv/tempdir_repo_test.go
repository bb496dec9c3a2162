package testenv

import (
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// writesFiles matches a test file that makes files or folders, itself or
// through the helpers that do.
var writesFiles = regexp.MustCompile(`\bTempDir\(|MkdirTemp\(|CreateTemp\(|WriteFile\(|os\.Create\(|os\.Mkdir|\.Materialize\(|\bgenhome\.|\bhostilehome\.|\benginetest\.(WriteTree|RunGen)\(|\btestroot\.(New|Writer|Padded)\(`)

// usesTemp matches a TestMain that puts the temporary folders where
// UseTemp says.
var usesTemp = regexp.MustCompile(`(?m)testenv\.(Main|MainRaisedGC|UseTemp)\(|^\s*Main\(m\)`)

// Every test binary of the repository whose tests make files has a
// TestMain that goes through UseTemp (testenv.Main, MainRaisedGC, or
// UseTemp in a TestMain of its own), so no package's files stay on a
// slow disk when a tmpfs has room.
func TestEveryWritingTestBinaryUsesTemp(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("no go.mod two folders up: %v", err)
	}
	tests := map[string][]string{}
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, "_test.go") {
			tests[filepath.Dir(p)] = append(tests[filepath.Dir(p)], p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	writing := 0
	for _, dir := range slices.Sorted(maps.Keys(tests)) {
		writes, main, viaTemp := false, "", false
		for _, p := range tests[dir] {
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			src := string(data)
			writes = writes || writesFiles.MatchString(src)
			if i := strings.Index(src, "\nfunc TestMain("); i >= 0 {
				main = filepath.Base(p)
				// The function: its one line, or up to its closing brace.
				body := src[i+1:]
				if line, _, _ := strings.Cut(body, "\n"); strings.HasSuffix(line, "}") {
					body = line
				} else if end := strings.Index(body, "\n}"); end >= 0 {
					body = body[:end]
				}
				viaTemp = usesTemp.MatchString(body)
			}
		}
		if !writes {
			continue
		}
		writing++
		rel, _ := filepath.Rel(root, dir)
		switch {
		case main == "":
			t.Errorf("%s: its tests make files but it has no TestMain (add one calling testenv.Main)", rel)
		case !viaTemp:
			t.Errorf("%s: its TestMain (%s) does not go through testenv.UseTemp (testenv.Main, MainRaisedGC or UseTemp)", rel, main)
		}
	}
	if writing < 30 {
		t.Errorf("only %d test packages make files: the walk or the pattern is wrong", writing)
	}
}

package format

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// onePlural is a count of one with a plural noun: "1 files".
var onePlural = regexp.MustCompile(`\b1 [a-z]+s\b`)

// notPlurals are the words after "1 " that end in s without being a
// plural, and the places "1" is not a count.
var notPlurals = []*regexp.Regexp{
	// The exit code 1, in the help's exit codes: "1 findings or a refusal".
	regexp.MustCompile(`\b1 findings or a refusal\b`),
	// The client's own paste placeholder, quoted as it wrote it.
	regexp.MustCompile(`\[Pasted text #\w+ \+1 lines\]`),
	// Singular nouns ending in s.
	regexp.MustCompile(`\b1 (process|status|class|alias|bonus|access|address|canvas|gas|lens)\b`),
	// "1 is", "1 was", "1 has", "1 does", "1 this": a 1 that is not a count.
	regexp.MustCompile(`\b1 (is|was|has|does|this|its|as|plus|minus|us)\b`),
}

// Every count in every golden and CLI snapshot of the repository goes
// through one count writer (Count), so none says "1 files": the test
// reads them all and names each "1 <plural>" it finds.
func TestNoOnePluralInGoldens(t *testing.T) {
	root := filepath.Join("..", "..")
	n := 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "node_modules", "third_party":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".golden") {
			return nil
		}
		n++
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(data), "\n") {
			for _, ok := range notPlurals {
				line = ok.ReplaceAllString(line, "")
			}
			if m := onePlural.FindString(line); m != "" {
				t.Errorf("%s:%d: %q in %q", p, i+1, m, strings.TrimSpace(line))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 100 {
		t.Fatalf("read %d goldens: the walk did not find the repository's", n)
	}
}

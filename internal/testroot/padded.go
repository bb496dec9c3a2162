package testroot

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Padded makes a new folder whose absolute path is exactly n characters
// long: the test's temporary folder (symbolic links resolved) padded
// with a folder named x…x. A path shown in a golden then cuts the same
// on every machine; root matches the temporary folder and all the x's
// there are, for replacing by a placeholder ("$ROOT"), a path cut short
// for display keeping a varying number of them.
func Padded(t testing.TB, n int) (dir string, root *regexp.Regexp) {
	t.Helper()
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	pad := n - len(tmp) - 1
	if pad < 1 {
		t.Fatalf("the temporary folder %s is too long for a padded folder of %d characters", tmp, n)
	}
	dir = filepath.Join(tmp, strings.Repeat("x", pad))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir, regexp.MustCompile(regexp.QuoteMeta(tmp) + "/x+")
}

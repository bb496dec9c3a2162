package testroot

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The root shows the test's own folders and the folders named, and nothing
// else of the machine: not /etc, not the working folder's parents.
func TestRootHidesTheMachine(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "CLAUDE.md"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	root := New(t, "testdata-named")
	name := strings.TrimPrefix(filepath.ToSlash(filepath.Join(dir, "CLAUDE.md")), "/")
	if b, err := fs.ReadFile(root, name); err != nil || string(b) != "mine" {
		t.Fatalf("own temp file: %q, %v", b, err)
	}
	for _, hidden := range []string{"etc/passwd", "etc", "tmp/rc/work/beta/CLAUDE.md", "proc/self/status"} {
		if _, err := fs.Stat(root, hidden); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s: %v, want not found", hidden, err)
		}
	}
	// A folder made later in the test is visible too.
	later := t.TempDir()
	if _, err := fs.Stat(root, strings.TrimPrefix(filepath.ToSlash(later), "/")); err != nil {
		t.Errorf("a later temp folder is hidden: %v", err)
	}
}

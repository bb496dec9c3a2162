package testenv

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// Files reads every file under dir (the journal and trash included),
// keyed by its path: a snapshot to compare before and after a command
// that must not write.
func Files(t testing.TB, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		out[p] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

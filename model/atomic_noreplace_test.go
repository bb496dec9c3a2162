package model

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// Both ways of a rename that never replaces (the OS's one call, and the
// link the other systems take) move a file to a free name and refuse a
// taken one, leaving both files as they were.
func TestRenameNoReplace(t *testing.T) {
	for name, rename := range map[string]func(from, to string) error{"os": OSWriteFS{}.RenameNoReplace, "link": linkNoReplace} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			from, to := filepath.Join(dir, ".a.tmp"), filepath.Join(dir, "a")
			os.WriteFile(from, []byte("new"), 0o600)
			if err := rename(from, to); err != nil {
				t.Fatal(err)
			}
			if got, _ := os.ReadFile(to); string(got) != "new" {
				t.Errorf("to holds %q", got)
			}
			if _, err := os.Lstat(from); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("from is still there: %v", err)
			}

			os.WriteFile(from, []byte("newer"), 0o600)
			err := rename(from, to)
			if !errors.Is(err, fs.ErrExist) {
				t.Fatalf("onto an existing file: err = %v, want ErrExist", err)
			}
			if got, _ := os.ReadFile(to); string(got) != "new" {
				t.Errorf("the existing file became %q", got)
			}
			if got, _ := os.ReadFile(from); string(got) != "newer" {
				t.Errorf("from became %q", got)
			}
		})
	}
}

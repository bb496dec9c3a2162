//go:build unix

package testenv

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
)

// The folders of test binaries that are gone are removed when the next
// one starts there; a live binary's and other names are kept.
func TestStaleTempsRemoved(t *testing.T) {
	parent := t.TempDir()
	dead := exec.Command(os.Args[0], "-test.run=^$")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{
		tempPrefix + strconv.Itoa(dead.Process.Pid) + "-123": false,
		tempPrefix + strconv.Itoa(os.Getpid()) + "-456":      true,
		tempPrefix + "x-789":                                 true,
		"memscope-other-1":                                   true,
	}
	for n := range names {
		if err := os.MkdirAll(filepath.Join(parent, n, "sub"), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	removeStaleTemps(parent)
	for n, keep := range names {
		_, err := os.Stat(filepath.Join(parent, n))
		if (err == nil) != keep {
			t.Errorf("%s: kept %v, want %v", n, err == nil, keep)
		}
	}
}

package enginetest

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Ccusage finds ccusage 18.0.11 for parity tests: $MEMSCOPE_CCUSAGE, else
// the copy scripts/ccusage-install.sh puts in the module's .cache/ccusage.
// The test skips when there is none, or no node to run it: ccusage is an
// optional external tool.
func Ccusage(t testing.TB) string {
	t.Helper()
	bin := os.Getenv("MEMSCOPE_CCUSAGE")
	if bin == "" {
		root, err := moduleRoot()
		if err != nil {
			t.Skipf("ccusage: %v", err)
		}
		bin = filepath.Join(root, ".cache", "ccusage", "node_modules", ".bin", "ccusage")
	}
	if _, err := os.Stat(bin); err != nil {
		t.Skipf("ccusage is not installed (%v): run scripts/ccusage-install.sh or set MEMSCOPE_CCUSAGE to its command", err)
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed, so ccusage cannot run")
	}
	return bin
}

package claude

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/memscope/memscope/internal/testenv"
)

// TestMain puts the tests' temporary folders where testenv says (a tmpfs
// when there is one with room and TMPDIR is not set), and removes the
// folder memscopeBinary built the binaries in: it is made once for the
// whole binary, outside any test's t.TempDir, and was left behind (45 MB
// a run) when the folders were the user's TMPDIR.
func TestMain(m *testing.M) {
	done := testenv.UseTemp()
	code := m.Run()
	if built != "" {
		if err := os.RemoveAll(filepath.Dir(built)); err != nil {
			fmt.Fprintln(os.Stderr, "e2e/claude:", err)
		}
	}
	done()
	os.Exit(code)
}

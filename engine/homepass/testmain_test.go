package homepass

import (
	"testing"

	"github.com/memscope/memscope/internal/testenv"
)

// TestMain puts the tests' temporary folders where testenv.Main says (a
// tmpfs when there is one with room and TMPDIR is not set).
func TestMain(m *testing.M) { testenv.Main(m) }

package inventory

import (
	"testing"

	"github.com/memscope/memscope/internal/testenv"
)

// TestMain runs the tests at a raised GOGC (testenv.MainRaisedGC).
func TestMain(m *testing.M) { testenv.MainRaisedGC(m) }

package enginetest

import (
	"testing"
)

// goldenTB files goldens under testdata/prompt_golden/ instead of
// testdata/<TestName>/.
type GoldenTB struct {
	testing.TB
	name string
}

// goldenNamed is t with its golden file named name.
func GoldenNamed(t testing.TB, name string) GoldenTB { return GoldenTB{t, name} }

func (g GoldenTB) Name() string { return g.name }

package enginetest

import (
	"testing"
)

// GoldenTB files goldens under testdata/prompt_golden/ instead of
// testdata/<TestName>/.
type GoldenTB struct {
	testing.TB
	name string
}

// GoldenNamed is t with its golden file named name.
func GoldenNamed(t testing.TB, name string) GoldenTB { return GoldenTB{t, name} }

func (g GoldenTB) Name() string { return g.name }

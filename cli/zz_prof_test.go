package cli

import (
	"io"
	"os"
	"strings"
	"testing"
)

func TestZZProf(t *testing.T) {
	a := os.Getenv("PROF_ARGS")
	if a == "" {
		t.Skip("PROF_ARGS")
	}
	e, _, errb := testEnv(t)
	e.stdout = io.Discard
	e.root = os.DirFS("/")
	e.writes = nil
	for range 3 {
		run(e, strings.Split(a, "|||"))
	}
	t.Log(errb.String())
}

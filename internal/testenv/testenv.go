// Package testenv holds the one switch the tests share: MEMSCOPE_LONG=1
// runs the scale, fault-matrix and hostile-volume tests at full strength.
//
// By default (and with -short) those tests run a reduced but meaningful
// version, so that `go test ./...` takes about a minute on two cores;
// .ci/run sets the switch. Only tests import this package.
package testenv

import (
	"os"
	"testing"
)

// Var is the environment variable that turns the long tests on.
const Var = "MEMSCOPE_LONG"

// Long reports whether the long tests run at full strength: MEMSCOPE_LONG
// is 1 and -short is not set. Call it from a test, not at package
// initialisation: testing parses -short only when the tests start.
func Long() bool {
	return os.Getenv(Var) == "1" && !testing.Short()
}

// Size is full when Long, else short: the size of a scale test. A
// shrunk size is logged, so a reader of -v output knows the test did not
// run at full strength and how to make it.
func Size(t testing.TB, full, short int) int {
	t.Helper()
	if Long() || short >= full {
		return full
	}
	t.Logf("%d instead of %d (%s=1 runs the full size)", short, full, Var)
	return short
}

// Calls are the calls 1..n of one step that a fault matrix makes fail:
// all of them when Long; else one, the first when cell (the matrix
// cell's number, counted by the caller) is even and the last when it is
// odd. The first call of a change is its journal's write and the last
// its final move into place, so across the operations every step still
// fails at both ends of a change.
func Calls(n, cell int) []int {
	switch {
	case n < 1:
		return nil
	case Long():
		out := make([]int, n)
		for k := range out {
			out[k] = k + 1
		}
		return out
	case cell%2 == 0:
		return []int{1}
	default:
		return []int{n}
	}
}

package ui

import (
	"runtime/debug"
	"testing"

	"github.com/memscope/memscope/internal/testenv"
)

// testGCPercent is the collector's target for this package's tests
// (GOGC, unless the environment sets one): the tests build many short-
// lived models, and at the default 100 the collector took about an
// eighth of the package's CPU. At 400 the heap may grow to five times
// what is live before a collection; the package's live heap is tens of
// MiB, so that is a few hundred MiB at most.
const testGCPercent = 400

// setTestGC applies testGCPercent (TestMain).
func setTestGC() { testenv.RaiseGC(testGCPercent) }

// defaultGCDuring sets the collector back to its default for t, for a
// test that bounds the heap (heapGuard): there garbage the collector has
// not taken yet counts against the bound, as in the app.
func defaultGCDuring(t *testing.T) {
	t.Helper()
	prev := debug.SetGCPercent(100)
	t.Cleanup(func() { debug.SetGCPercent(prev) })
}

package cli

import (
	"testing"
	"time"
)

// fakePhase is a gcPhase whose heap reads come from heaps, in order, and
// whose targets go to set; ticks are the test's to send.
type fakePhase struct {
	heaps   []heapStats
	set     chan int
	tick    chan time.Time
	stopped chan struct{}
	// freed counts the calls of free (read after stopped is closed).
	freed int
}

func newFakePhase(heaps ...heapStats) (*fakePhase, *gcPhase) {
	f := &fakePhase{heaps: heaps, set: make(chan int, 1), tick: make(chan time.Time), stopped: make(chan struct{})}
	return f, &gcPhase{
		setPercent: func(p int) int { f.set <- p; return 100 },
		read: func() heapStats {
			h := f.heaps[0]
			f.heaps = f.heaps[1:]
			return h
		},
		ticks: func() (<-chan time.Time, func()) { return f.tick, func() { close(f.stopped) } },
		free:  func() { f.freed++ },
	}
}

// step sends a tick and returns the target the phase set after it.
func (f *fakePhase) step(t *testing.T) int {
	t.Helper()
	f.tick <- time.Time{}
	return <-f.set
}

const mib = 1 << 20

// TestAppGCStartPhase: the app's collector is lax while its start-up
// allocates (the heap may grow by startHeadroom over the live heap) and
// at appGCPercent once the allocations quiet, its ticker stopped. On the
// code before the phase the app set appGCPercent at once.
func TestAppGCStartPhase(t *testing.T) {
	heaps := []heapStats{
		{live: 0, allocs: 0},
		{live: 96 * mib, allocs: 300 * mib},
		{live: 512 * mib, allocs: 600 * mib},
	}
	// Then a step of quietBytes, and quiet ones after it: the window
	// holding it is not quiet, the first without it is.
	at := uint64(600*mib + quietBytes)
	heaps = append(heaps, heapStats{live: 100 * mib, allocs: at})
	for i := range quietSteps {
		heaps = append(heaps, heapStats{live: 100 * mib, allocs: at + uint64(i+1)*100})
	}
	// The read at the phase's end: the start-up's garbage.
	heaps = append(heaps, heapStats{live: 100 * mib, spare: 200 * mib})
	f, g := newFakePhase(heaps...)
	stop := g.run()
	if p := <-f.set; p != startMaxPercent {
		t.Fatalf("target at start with no live heap = %d, want %d", p, startMaxPercent)
	}
	if p := f.step(t); p != 200 {
		t.Fatalf("target with 96 MiB live = %d, want 200 (192 MiB over it)", p)
	}
	if p := f.step(t); p != appGCPercent {
		t.Fatalf("target with 512 MiB live = %d, want %d (never under)", p, appGCPercent)
	}
	for i := range quietSteps {
		if p := f.step(t); p != 192 {
			t.Fatalf("step %d after the start's allocations: target = %d, want 192 (the window holds %d bytes)", i+1, p, quietBytes)
		}
	}
	if p := f.step(t); p != appGCPercent {
		t.Fatalf("after %d quiet steps target = %d, want %d", quietSteps, p, appGCPercent)
	}
	<-f.stopped
	if f.freed != 1 {
		t.Fatalf("the start-up's garbage freed %d times, want once", f.freed)
	}
	stop() // returns: the phase is over
	select {
	case p := <-f.set:
		t.Fatalf("target set again after the phase: %d", p)
	default:
	}
}

// TestAppGCStartPhaseStop: the app quitting during the start-up leaves
// the collector at appGCPercent.
func TestAppGCStartPhaseStop(t *testing.T) {
	f, g := newFakePhase(heapStats{live: 400 * mib})
	stop := g.run()
	if p := <-f.set; p != appGCPercent {
		t.Fatalf("target at start with 400 MiB live = %d, want %d", p, appGCPercent)
	}
	go stop()
	if p := <-f.set; p != appGCPercent {
		t.Fatalf("target after stop = %d, want %d", p, appGCPercent)
	}
	<-f.stopped
	if f.freed != 0 {
		t.Fatalf("freed %d times on quitting, want none", f.freed)
	}
}

// TestAppGCStartPhaseEnds: an app busy from its start ends the phase
// after startMaxSteps steps.
func TestAppGCStartPhaseEnds(t *testing.T) {
	heaps := []heapStats{{live: 192 * mib}}
	for i := range startMaxSteps {
		heaps = append(heaps, heapStats{live: 192 * mib, allocs: uint64(i+1) * 64 * mib})
	}
	heaps = append(heaps, heapStats{live: 192 * mib, spare: freeMin})
	f, g := newFakePhase(heaps...)
	stop := g.run()
	defer stop()
	if p := <-f.set; p != 100 {
		t.Fatalf("target at start = %d, want 100", p)
	}
	for i := range startMaxSteps {
		if p := f.step(t); p != 100 {
			t.Fatalf("step %d: target = %d, want 100", i+1, p)
		}
	}
	if p := <-f.set; p != appGCPercent {
		t.Fatalf("after %d busy steps target = %d, want %d", startMaxSteps, p, appGCPercent)
	}
	<-f.stopped
	if f.freed != 1 {
		t.Fatalf("the start-up's garbage freed %d times, want once", f.freed)
	}
}

// TestAppGCStartPhaseLittleSpare: a start-up that leaves little spare
// heap (a warm start's: its caches read, little garbage) ends the phase
// without a forced collection. On the code before, the phase's end
// always collected and scavenged (debug.FreeOSMemory).
func TestAppGCStartPhaseLittleSpare(t *testing.T) {
	heaps := []heapStats{{live: 0}}
	for range quietSteps {
		heaps = append(heaps, heapStats{live: 20 * mib, allocs: 1})
	}
	heaps = append(heaps, heapStats{live: 20 * mib, spare: freeMin - 1})
	f, g := newFakePhase(heaps...)
	stop := g.run()
	defer stop()
	<-f.set
	for range quietSteps - 1 {
		f.step(t)
	}
	if p := f.step(t); p != appGCPercent {
		t.Fatalf("after %d quiet steps target = %d, want %d", quietSteps, p, appGCPercent)
	}
	<-f.stopped
	if f.freed != 0 {
		t.Fatalf("freed %d times with %d bytes spare, want none (under freeMin)", f.freed, freeMin-1)
	}
}

// TestAppGCEnvGOGC: GOGC in the environment is the user's: no phase.
func TestAppGCEnvGOGC(t *testing.T) {
	f, g := newFakePhase()
	e := &env{getenv: func(k string) string {
		if k == "GOGC" {
			return "100"
		}
		return ""
	}, gc: g}
	e.appGC()()
	select {
	case p := <-f.set:
		t.Fatalf("target set with GOGC in the environment: %d", p)
	default:
	}
}

package cli

import (
	"runtime/debug"
	"runtime/metrics"
	"time"
)

// The collector of the terminal app's run (runTerminalApp). The app holds
// the home and follows it for hours: with the collector's default the
// heap may double between cycles, and the RSS grows by a third beside a
// writing session (scripts/live-bench.sh on W: +14 to +25 %, 4.1 % of a
// core); at appGCPercent it stays near its size after load (+1.5 %,
// 3.8 % of a core). But its start-up allocates some 500 MB on W around a
// live heap of about 85 MB: at appGCPercent that is some 30 cycles, each
// marking the whole live heap (0.5 CPU-s of a 2.9 CPU-s cold start,
// docs/PERFORMANCE.md "i28g"). So while the start-up work runs the heap
// may grow by startHeadroom over the live heap (a fixed amount of RSS,
// however big the home) instead of by half of it, and once the app's
// allocations have quieted the target is appGCPercent.
const (
	// appGCPercent is the collector's target once the start-up is over.
	appGCPercent = 50
	// startHeadroom is how far the heap may grow over the live heap
	// between cycles during the start-up: the target is the percent
	// that makes it so, never under appGCPercent nor over
	// startMaxPercent (a small live heap).
	startHeadroom   = 192 << 20
	startMaxPercent = 800
	// startStep is how often the start-up phase reads the heap.
	startStep = 250 * time.Millisecond
	// The start-up is over when the app allocated less than quietBytes
	// over the last quietSteps steps (2 s: an idle app's work comes in
	// bursts, its Live pane's every second), or after startMaxSteps
	// steps (an app busy from its start, beside a writing session). A
	// start-up allocates ten times that much a second even on a machine
	// whose load is 14 on 2 cores.
	quietBytes    = 8 << 20
	quietSteps    = 8
	startMaxSteps = 240
	// freeMin is the least the heap must hold beyond its live bytes for
	// the phase's end to collect and return it (debug.FreeOSMemory: a
	// full collection, stopping the app's work, and a scavenge of the
	// whole heap). A warm start's heap holds a few MB spare: not worth
	// a collection; a cold start's holds its start-up's target, some
	// 200 MB on W.
	freeMin = 32 << 20
)

// heapStats is what the start-up phase reads of the heap: the live heap
// (marked by the last cycle), the bytes allocated since the process
// started, and the bytes the heap holds from the system that a
// collection and a scavenge could return (its objects, dead ones not
// yet swept included, the unused parts of its spans and its free pages
// not yet returned, less the live heap).
type heapStats struct {
	live, allocs, spare uint64
}

// gcPhase is the start-up phase's seams: tests give their own.
type gcPhase struct {
	// setPercent sets the collector's target (debug.SetGCPercent).
	setPercent func(int) int
	// read reads the heap.
	read func() heapStats
	// ticks delivers a time every startStep; stop stops it.
	ticks func() (<-chan time.Time, func())
	// free collects and returns the free heap to the system
	// (debug.FreeOSMemory).
	free func()
}

// osGCPhase is the real runtime's.
var osGCPhase = gcPhase{
	setPercent: debug.SetGCPercent,
	read:       readHeap,
	ticks: func() (<-chan time.Time, func()) {
		t := time.NewTicker(startStep)
		return t.C, t.Stop
	},
	free: debug.FreeOSMemory,
}

// heapSamples names the runtime metrics readHeap reads.
var heapSamples = [5]string{
	"/gc/heap/live:bytes", "/gc/heap/allocs:bytes",
	"/memory/classes/heap/objects:bytes", "/memory/classes/heap/unused:bytes",
	"/memory/classes/heap/free:bytes",
}

// readHeap reads the runtime's heap metrics.
func readHeap() heapStats {
	var s [len(heapSamples)]metrics.Sample
	for i, name := range heapSamples {
		s[i].Name = name
	}
	metrics.Read(s[:])
	var v [len(heapSamples)]uint64
	for i := range s {
		if s[i].Value.Kind() == metrics.KindUint64 {
			v[i] = s[i].Value.Uint64()
		}
	}
	h := heapStats{live: v[0], allocs: v[1]}
	if held := v[2] + v[3] + v[4]; held > h.live {
		h.spare = held - h.live
	}
	return h
}

// startPercent is the start-up target for a live heap of live bytes.
func startPercent(live uint64) int {
	if live == 0 {
		return startMaxPercent
	}
	p := uint64(startHeadroom) * 100 / live
	return int(max(appGCPercent, min(startMaxPercent, p)))
}

// appGC sets the collector for the terminal app's run unless the
// environment sets GOGC: the start-up target now, and appGCPercent once
// the start-up is over (on its own goroutine). stop ends the phase
// early, with appGCPercent set; it returns once the phase is over.
func (e *env) appGC() (stop func()) {
	if e.getenv("GOGC") != "" {
		return func() {}
	}
	g := e.gc
	if g == nil {
		g = &osGCPhase
	}
	return g.run()
}

// phase runs the start-up phase until the allocations quiet or for its
// longest (true), or until quit is closed (false), and leaves the target
// at appGCPercent; allocs is what the process allocated at its start.
func (g *gcPhase) phase(ticks <-chan time.Time, quit <-chan struct{}, allocs uint64) (ended bool) {
	defer g.setPercent(appGCPercent)
	// ago[i%quietSteps] is what was allocated quietSteps steps before
	// step i (at the start, before the first quietSteps).
	var ago [quietSteps]uint64
	for i := range ago {
		ago[i] = allocs
	}
	for i := range startMaxSteps {
		select {
		case <-quit:
			return false
		case <-ticks:
		}
		h := g.read()
		before := ago[i%quietSteps]
		ago[i%quietSteps] = h.allocs
		if i >= quietSteps-1 && h.allocs-before < quietBytes {
			return true
		}
		g.setPercent(startPercent(h.live))
	}
	return true
}

// run starts the phase (see appGC).
func (g *gcPhase) run() (stop func()) {
	h := g.read()
	g.setPercent(startPercent(h.live))
	ticks, stopTicks := g.ticks()
	quit, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		defer stopTicks()
		if g.phase(ticks, quit, h.allocs) && g.read().spare >= freeMin {
			// The start-up's garbage goes now, and with it its pages:
			// the runtime returns free pages to the system down to the
			// last cycle's goal, the start-up's, and the idle app may
			// allocate too little to start another cycle for minutes
			// (GC=1 WARM=1 scripts/startup-cold-ab.sh: 228 MB at idle
			// against 128). A heap with less than freeMin spare (a
			// warm start's) keeps it: the collection would cost more
			// than the pages are worth.
			g.free()
		}
	}()
	return func() {
		select {
		case <-quit:
		default:
			close(quit)
		}
		<-done
	}
}

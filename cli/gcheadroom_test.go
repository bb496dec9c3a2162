package cli

import "testing"

// After each collection the target lets the heap grow by the headroom
// over the live heap, between the bounds; once stopped, a late
// collection's finalizer changes nothing and the old target is back.
func TestGCHeadroom(t *testing.T) {
	var set []int
	live := uint64(0)
	h := &gcHeadroom{headroom: 32 << 20, minPercent: 25, maxPercent: 400,
		setPercent: func(p int) int { set = append(set, p); return 0 }, live: func() uint64 { return live }}
	for _, c := range []struct {
		live uint64
		want int
	}{{0, 400}, {4 << 20, 400}, {16 << 20, 200}, {32 << 20, 100}, {64 << 20, 50}, {1 << 30, 25}} {
		live = c.live
		if !h.collected() || set[len(set)-1] != c.want {
			t.Errorf("live %d MB: target %v, want %d", c.live>>20, set, c.want)
		}
	}
	h.stop(400)
	n := len(set)
	if h.collected() || len(set) != n || set[n-1] != 400 {
		t.Errorf("after stop: %v", set)
	}
}

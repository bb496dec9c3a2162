//go:build !amd64

package scan

// Find appends to out every anchor in b, in order of position, and
// returns it. Overlapping anchors are all reported.
func (a *Anchors) Find(b []byte, out []AnchorHit) []AnchorHit {
	return a.findFrom(b, 1, out)
}

// teddyMasks holds nothing where Find has no vector loop.
type teddyMasks struct{}

func teddyFor(map[uint16][]anchorLit) teddyMasks { return teddyMasks{} }

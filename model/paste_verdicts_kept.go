package model

// Kept counts the verdicts Saved would return, without making them: a
// caller that keeps them only when they changed (stat's cache) asks this
// first, and Saved (8 631 verdicts sorted by path on W: a tenth of stat's
// warm start) only when it writes.
func (v *PasteVerdicts) Kept() int {
	v.mu.Lock()
	defer v.mu.Unlock()
	n := 0
	for k, vd := range v.m {
		if vd.round == v.round && k.stamp().Known() {
			n++
		}
	}
	return n
}

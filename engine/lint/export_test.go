package lint

// Computed is what m computed itself (for tests): the files it scanned,
// and how often its near-duplicate index rebuilt or updated.
func (m *Memo) Computed() (scanned, rebuilds, updates int) {
	return m.scanned, m.dupes.rebuilds, m.dupes.updates
}

//go:build !linux

package model

// pasteFolder: no held folder to open pastes from here.
type pasteFolder struct{}

func (c *PasteCache) openPasteDir() (pasteFolder, bool) { return pasteFolder{}, false }

func (pasteFolder) close() {}

func (c *PasteCache) checkDirect(pasteFolder, PasteHash, PasteFile) (PasteResolution, bool) {
	return PasteResolution{}, false
}

package diskcache

import "unsafe"

// StartOwned is Start for a form b that is the Unpacker's from now on,
// never changed after: the payload Load read for an Unpack alone (each
// Load reads its file into a buffer of its own). Its strings are slices
// of b itself, not of a copy: a warm start's stat cache (1.4 MB on W)
// was copied whole to read its paths and hashes from one string.
func (u *Unpacker) StartOwned(b []byte, version byte) {
	u.b, u.all = b, unsafe.String(unsafe.SliceData(b), len(b))
	if len(u.all) == 0 || u.all[0] != version {
		u.bad = true
		return
	}
	u.at = 1
}

package model

import (
	"hash"
	"path"
	"strings"
)

// PasteVerdictOf is the verdict the paste inventory's check (PasteCache
// with PasteVerdicts) gives the paste file name (paste-cache/<hash>.txt
// or paste-store/<hash>, relative to the home) whose stamp is st, from
// sum, the sha256 of the file's whole content as another reader read it
// (the secrets scan): handed to PasteVerdicts.Restore, the check then
// reads the file no more. ok is false for a name the check never reads
// (outside the paste folders, or not a valid hash).
func PasteVerdictOf(name string, st FileStamp, sum hash.Hash) (v PasteVerdict, ok bool) {
	dir, base := path.Split(name)
	res := PasteResolution{Path: name}
	switch {
	case dir == PasteCacheDir+"/" && strings.HasSuffix(base, pasteCacheExt):
		res.Hash, res.Source = PasteHash(strings.TrimSuffix(base, pasteCacheExt)), PasteSourceCache
	case dir == PasteStoreDir+"/":
		res.Hash, res.Source = PasteHash(base), PasteSourceStore
	default:
		return PasteVerdict{}, false
	}
	if !res.Hash.validName() {
		return PasteVerdict{}, false
	}
	setPasteVerdict(&res, sum)
	st.Head, st.HeadLen = [32]byte{}, 0
	return PasteVerdict{Path: name, Stamp: st, Status: res.Status, Verified: res.Verified, Actual: res.Actual, Reason: res.Reason}, true
}

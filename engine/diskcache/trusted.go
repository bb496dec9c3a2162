package diskcache

import (
	"time"

	"github.com/memscope/memscope/model"
)

// trustedKind names the file of the home's kept folder listings
// (model.TrustedFolders).
const trustedKind = "folder-listings.1"

// TrustFolders gives home's file system the trusted folders' rule
// (model.TrustedFolders) from the listings s keeps for it, at now, and
// returns the save of what to keep for the next run (it writes only
// when the listings changed). Without a store, or for a home that is
// not a folder's file system, the home is left as it is and the save
// does nothing.
func TrustFolders(s *Store, home *model.Home, now time.Time) (save func()) {
	if s == nil || home == nil {
		return func() {}
	}
	name := Name(trustedKind, home.Dir)
	kept, _ := Load[model.KeptFolders](s, trustedKind, name)
	t := model.NewTrustedFolders(home.Dir, kept, now)
	fsys := model.TrustingFS(home.FS, t)
	if fsys == home.FS {
		return func() {}
	}
	home.FS = fsys
	return func() {
		if next, changed := t.Kept(); changed {
			_ = Save(s, trustedKind, name, next)
		}
	}
}

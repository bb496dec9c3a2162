package model

import (
	"path"
	"strings"
	"time"
)

// The nets every user of the write-once rule keeps (WriteOnceFolder):
// a folder is trusted only once its modification time is
// WriteOnceSettle old (a file being written when it was stamped is read
// again next time), and once WriteOnceFull has passed since the last
// full pass, the next pass opens every file again (a file changed in
// place is seen then).
const (
	WriteOnceSettle = 10 * time.Second
	WriteOnceFull   = 24 * time.Hour
)

// WriteOnceFolder reports whether the home's folder rel holds files the
// client writes once and never changes: the pastes (named by their
// content), a session's file history (a backup named by its version)
// and a session's tool results (named by their call). While such a
// folder's identity and modification time stay as they were, no file
// was added, removed or renamed in it, so what was read of its files
// still holds without opening each (the vault's sync, the secrets
// counts' cache). The rule's risk: a file changed in place (by hand, or
// by a client that starts doing so) is not seen until a full pass; the
// users of the rule say which nets they keep.
func WriteOnceFolder(rel string) bool {
	if rel == PasteCacheDir {
		return true
	}
	dir, base := path.Split(rel)
	dir = strings.TrimSuffix(dir, "/")
	if dir == FileHistoryDir {
		return true
	}
	// projects/<slug>/<session>/tool-results
	return base == "tool-results" && strings.HasPrefix(dir, "projects/") && strings.Count(dir, "/") == 2
}

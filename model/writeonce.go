package model

import (
	"path"
	"strings"
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

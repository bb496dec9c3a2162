//go:build !(linux && (amd64 || arm64))

package vault

import "io/fs"

// pagesCached: not known on this platform (the prefetcher does not
// run).
func pagesCached(fs.File, int64) bool { return false }

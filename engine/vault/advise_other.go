//go:build !(linux && (amd64 || arm64))

package vault

import "io/fs"

// canAdvise: no read-ahead advice on this platform (the prefetcher does
// not run).
const canAdvise = false

func adviseWillNeed(fs.File) bool { return false }

//go:build !(linux && (amd64 || arm64))

package vault

import (
	"io"
	"io/fs"
)

// canAdvise: no read-ahead advice on this platform (the prefetcher does
// not run).
const canAdvise = false

func adviseWillNeed(fs.File) bool { return false }

// startWriteback: no early writeback on this platform (the fsync
// writes it all).
func startWriteback(io.Writer, int64, int64) {}

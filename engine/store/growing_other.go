//go:build !linux

package store

import (
	"os"
	"time"
)

// leaseSupported says the OS has file leases: ReplaceGrowing re-reads and
// checks at the exchange or rename instead.
const leaseSupported = false

const syscallNoFollow = 0

func takeLease(f *os.File, wait time.Duration) error { return errNoLease }

func releaseLease(f *os.File) {}

func settled(f *os.File) bool { return true }

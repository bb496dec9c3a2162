//go:build !linux

package app

import "time"

// threadCPU: not had on this platform.
func threadCPU() (time.Duration, bool) { return 0, false }

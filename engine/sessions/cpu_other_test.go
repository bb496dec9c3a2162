//go:build !unix

package sessions

import "time"

// processCPU is not measured here; benchmarks then report no CPU rate.
func processCPU() time.Duration { return 0 }

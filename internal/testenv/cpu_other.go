//go:build !unix

package testenv

import "time"

// ProcessCPU is not measured here; benchmarks then report no CPU figure.
func ProcessCPU() time.Duration { return 0 }

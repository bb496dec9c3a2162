//go:build !amd64

package scan

import "testing"

// forEachFindLoop runs f once: Find has only the byte loop here.
func forEachFindLoop(t *testing.T, f func(t *testing.T)) { t.Run("go", f) }

func forEachFindLoopB(b *testing.B, f func(b *testing.B)) { b.Run("go", f) }

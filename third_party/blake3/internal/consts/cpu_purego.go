//go:build purego

package consts

// Variables rather than constants so that the tests can switch paths in
// every build (memscope).
var (
	HasAVX2   = false
	HasSSE41  = false
	HasAVX512 = false
)

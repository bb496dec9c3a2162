//go:build race

package vault

// raceBuild: the race detector is on (klauspost/compress then runs s2's
// Go encoder, which allocates its tables at every frame).
const raceBuild = true

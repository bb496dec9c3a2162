//go:build !unix

package model

// oNonblock is 0 where there are no named pipes to wait on.
const oNonblock = 0

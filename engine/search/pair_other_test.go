//go:build !amd64

package search

func addPairImpls(map[string]func(p *byte, n, o1, o2 int, vec *[4][16]byte) int) {}

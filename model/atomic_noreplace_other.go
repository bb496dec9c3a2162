//go:build !linux

package model

// renameNoReplace has no single call outside Linux: see linkNoReplace.
func renameNoReplace(from, to string) error { return linkNoReplace(from, to) }

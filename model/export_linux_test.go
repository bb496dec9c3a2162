//go:build linux

package model

// RootOpens is rootOpens for the external tests (model_test).
func RootOpens() int64 { return rootOpens.Load() }

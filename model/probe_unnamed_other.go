//go:build !linux

package model

import "errors"

// probeUnnamed has no unnamed file to create here: ProbeWritable
// creates and removes a named one.
func probeUnnamed(dir string) error {
	return errors.ErrUnsupported
}

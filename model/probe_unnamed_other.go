//go:build !linux

package model

import "errors"

// ProbeUnnamed has no unnamed file to create here: ProbeWritable
// creates and removes a named one.
func (OSWriteFS) ProbeUnnamed(dir string) error {
	return errors.ErrUnsupported
}

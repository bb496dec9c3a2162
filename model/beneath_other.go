//go:build !linux

package model

import (
	"io/fs"
	"os"
)

// statBeneath has no kernel to ask here: every name of a home is
// resolved by ResolveInside.
func statBeneath(op, dir, name string) (info fs.FileInfo, ok bool, err error) {
	return nil, false, nil
}

// reopenBeneath has no kernel to ask here either.
func reopenBeneath(dir, name, full string, dirOK bool) (f *os.File, ok bool, err error) {
	return nil, false, nil
}

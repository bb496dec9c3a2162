//go:build !linux

package model

import "io/fs"

// statBeneath has no kernel to ask here: every name of a home is
// resolved by ResolveInside.
func statBeneath(op, dir, name string) (info fs.FileInfo, ok bool, err error) {
	return nil, false, nil
}

// beneathID is what openBeneath needs of statBeneath's answer.
type beneathID struct{ regular, dir bool }

// identBeneath has no kernel to ask here either.
func identBeneath(op, dir, name string) (id beneathID, ok bool, err error) {
	return id, false, nil
}

func (id beneathID) is(fs.FileInfo) bool { return false }

// reopenBeneath has no kernel to ask here either.
func reopenBeneath(dir, name, full string, dirOK bool) (f fs.File, ok bool, err error) {
	return nil, false, nil
}

// HoldHome holds nothing here: names are resolved by ResolveInside.
func HoldHome(dir string) (release func()) { return func() {} }

// lstatHeld holds nothing to ask from here.
func lstatHeld(dir, name string) (fs.FileInfo, bool) { return nil, false }

// homeHeld: nothing is held here.
func homeHeld(dir string) bool { return false }

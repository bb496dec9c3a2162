//go:build !linux

package model

import "io/fs"

// listedHold: nothing is held for a listed home here (names are
// resolved by ResolveInside).
type listedHold struct{}

func newListedHold(fs.FS) *listedHold { return nil }

func (*listedHold) close() {}

func (*listedHold) open(string, bool) (fs.File, bool, error) { return nil, false, nil }

func (*listedHold) stat(string, bool) (fs.FileInfo, bool) { return nil, false }

func (*listedHold) readDir(*listedFS, string) ([]fs.DirEntry, bool) { return nil, false }

func (*listedHold) readDirStamp(*listedFS, string, *FileStamp) ([]fs.DirEntry, bool) {
	return nil, false
}

func (*listedHold) canHold() bool { return false }

//go:build !linux

package model

import "io/fs"

// MapFile maps nothing here: the caller reads the file.
func MapFile(fs.File, int64, int64) ([]byte, bool) { return nil, false }

// UnmapFile has nothing to release here.
func UnmapFile([]byte) {}

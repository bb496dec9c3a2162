//go:build !linux

package model

import "io/fs"

// MappedLines is the mapped line reader of Linux; elsewhere MapLines
// never makes one and files are read.
type MappedLines struct{}

// MapLines returns nil: files are read with a LineReader.
func MapLines(fs.File, *LineReader) *MappedLines { return nil }

func (*MappedLines) Close()             {}
func (*MappedLines) N() int64           { return 0 }
func (*MappedLines) Err() error         { return nil }
func (*MappedLines) Fault(any) error    { return nil }
func (*MappedLines) Next() (Line, bool) { return Line{}, false }

//go:build !linux

package model

import (
	"io"
	"io/fs"
)

// heldFolder: no held folder to open files from here.
type heldFolder struct{}

func openHeldFolder(fs.FS, string) (heldFolder, bool) { return heldFolder{}, false }

func (heldFolder) close() {}

func (heldFolder) open(string) (fdReader, fs.FileInfo, bool) { return fdReader{}, nil, false }

// fdReader: no descriptors read here.
type fdReader struct{}

func (fdReader) Read([]byte) (int, error) { return 0, io.EOF }

func (fdReader) Close() error { return nil }

package model

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
)

// HashFile returns the SHA-256 (hex) and size of the regular file name
// read through fsys (OpenRegular: a FIFO, device or link out is refused).
// A missing file is an error wrapping fs.ErrNotExist.
func HashFile(fsys fs.FS, name string) (string, int64, error) {
	f, err := OpenRegular(fsys, name)
	if err != nil {
		return "", 0, err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return "", n, fmt.Errorf("read %s: %w", name, err)
	}
	return hex.EncodeToString(h.Sum(nil)), n, nil
}

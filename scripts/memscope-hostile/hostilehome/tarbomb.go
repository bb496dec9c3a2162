package hostilehome

import (
	"archive/tar"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// DefaultBombSize is TarBomb's entry: 2 GiB of NUL bytes, a few MB once
// compressed.
const DefaultBombSize = 2 << 30

// writeTarBomb writes the content home in w and, beside it, the home as
// a .tar.gz (Result.Archive) to open with --home, whose session folder
// also holds one entry of size NUL bytes: a decompression bomb, small on
// disk and huge once extracted.
func writeTarBomb(w *homeWriter, size int64) {
	contentHome(w, " plain text")
	if w.err != nil {
		return
	}
	archive := filepath.Clean(w.dir) + ".tar.gz"
	f, err := os.OpenFile(archive, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		w.err = fmt.Errorf("tar bomb: %w", err)
		return
	}
	// The fastest level: zeros still shrink a hundredfold and more.
	gz, _ := gzip.NewWriterLevel(f, gzip.BestSpeed)
	tw := tar.NewWriter(gz)
	err = filepath.WalkDir(w.dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || p == w.dir {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		hdr, err := tar.FileInfoHeader(info, "")
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(w.dir, p)
		hdr.Name = filepath.ToSlash(rel)
		if d.IsDir() {
			hdr.Name += "/"
		}
		if err := tw.WriteHeader(hdr); err != nil || !info.Mode().IsRegular() {
			return err
		}
		src, err := os.Open(p)
		if err != nil {
			return err
		}
		defer src.Close()
		_, err = io.Copy(tw, src)
		return err
	})
	bomb := "projects/" + w.res.Slug + "/" + SessionID + "/tool-results/bomb.txt"
	if err == nil {
		err = tw.WriteHeader(&tar.Header{Name: bomb, Mode: 0o644, Size: size, ModTime: baseTime, Typeflag: tar.TypeReg})
	}
	if err == nil {
		_, err = io.CopyN(tw, zeros{}, size)
	}
	for _, c := range []io.Closer{tw, gz, f} {
		if cerr := c.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		os.Remove(archive)
		w.err = fmt.Errorf("tar bomb: %w", err)
		return
	}
	w.res.Archive, w.res.Bomb = archive, strings.TrimSuffix(bomb, "/")
}

// zeros reads NUL bytes forever.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

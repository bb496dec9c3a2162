package cleanup

import (
	"archive/tar"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/memscope/memscope/model"
)

// archiveTar writes entries into a new .tar.gz file at to, through w
// and the atomic writer. An existing file is never replaced.
func archiveTar(w model.WriteFS, fsys fs.FS, entries []archiveEntry, to string, rep *ArchiveReport) error {
	if _, err := os.Lstat(to); err == nil {
		return fmt.Errorf("archive %s: the file already exists; nothing was written, choose a new name", to)
	}
	// A failed archive removes what it made: the folders created for it
	// and, when it was written but does not read back, the file.
	made := absentFolders(filepath.Dir(to))
	err := model.CreateFileAtomicWith(w, to, 0o600, time.Time{}, func(out io.Writer) error {
		return writeTar(fsys, entries, out, rep)
	})
	if err != nil {
		err = placeError(to, err)
	} else if err = verifyTar(to, rep); err != nil {
		rep.Files = nil
		if rerr := w.Remove(to); rerr != nil {
			return fmt.Errorf("%w (and the archive could not be removed: %v)", err, rerr)
		}
	}
	if err != nil {
		for i := len(made) - 1; i >= 0; i-- {
			if rerr := removeEmptyFolder(w, made[i]); rerr != nil {
				return fmt.Errorf("%w (and a folder it created could not all be removed: %v)", err, rerr)
			}
		}
	}
	return err
}

// writeTar streams the folders, then the files, into w as a gzipped
// tar in PAX format (which keeps sub-second mtimes).
func writeTar(fsys fs.FS, entries []archiveEntry, w io.Writer, rep *ArchiveReport) error {
	gz := gzip.NewWriter(w)
	tw := tar.NewWriter(gz)
	for _, e := range entries {
		if !e.dir {
			continue
		}
		hdr := &tar.Header{Typeflag: tar.TypeDir, Name: e.rel + "/", Mode: int64(e.mode.Perm()), ModTime: e.modTime, Format: tar.FormatPAX}
		if err := tw.WriteHeader(hdr); err != nil {
			return fmt.Errorf("write %s: %w", e.rel, err)
		}
	}
	for _, e := range entries {
		if e.dir {
			continue
		}
		af, err := tarFile(fsys, tw, e)
		if err := rep.record(e.rel, af, err); err != nil {
			return err
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	return gz.Close()
}

// tarFile writes one file. Its size is taken when it is opened; a
// transcript still being appended to is archived up to that size.
func tarFile(fsys fs.FS, tw *tar.Writer, e archiveEntry) (ArchivedFile, error) {
	af := ArchivedFile{Path: e.rel, Status: ArchiveCopied}
	f, st, err := openSource(fsys, e.rel)
	if err != nil {
		return af, err
	}
	defer f.Close()
	af.ModTime = st.ModTime()
	hdr := &tar.Header{Typeflag: tar.TypeReg, Name: e.rel, Size: st.Size(), Mode: int64(st.Mode().Perm()), ModTime: st.ModTime(), Format: tar.FormatPAX}
	if err := tw.WriteHeader(hdr); err != nil {
		return af, fmt.Errorf("write %s: %w", e.rel, err)
	}
	h := sha256.New()
	n, err := io.CopyN(io.MultiWriter(tw, h), f, st.Size())
	if err != nil {
		return af, fmt.Errorf("copy %s (%d of %d bytes): %w", e.rel, n, st.Size(), err)
	}
	af.Size, af.SHA256 = n, hex.EncodeToString(h.Sum(nil))
	return af, nil
}

// verifyTar reads the written archive back: every archived file must be
// in it once, with the source's SHA-256.
func verifyTar(to string, rep *ArchiveReport) error {
	want := make(map[string]int, len(rep.Files))
	for i, f := range rep.Files {
		want[f.Path] = i
	}
	f, err := model.OpenRegularFile(to)
	if err != nil {
		return fmt.Errorf("archive: verify %s: %w", to, err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		return fmt.Errorf("archive: verify %s: %w", to, err)
	}
	tr := tar.NewReader(gz)
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return fmt.Errorf("archive: verify %s: %w", to, err)
		}
		if hdr.Typeflag != tar.TypeReg {
			continue
		}
		i, ok := want[hdr.Name]
		if !ok {
			return fmt.Errorf("archive: verify %s: unexpected entry %s", to, hdr.Name)
		}
		delete(want, hdr.Name)
		h := sha256.New()
		n, err := io.Copy(h, tr)
		if err != nil {
			return fmt.Errorf("archive: verify %s: read %s: %w", to, hdr.Name, err)
		}
		af := &rep.Files[i]
		if got := hex.EncodeToString(h.Sum(nil)); got != af.SHA256 {
			return fmt.Errorf("archive: verify %s: %s has SHA-256 %s in the archive, %s in the source", to, hdr.Name, got, af.SHA256)
		}
		af.Verified = true
		rep.Verified++
		rep.Copied++
		rep.Bytes += n
	}
	for p := range want {
		return fmt.Errorf("archive: verify %s: %s is missing from the archive", to, p)
	}
	return nil
}

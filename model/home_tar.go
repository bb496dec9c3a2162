package model

import (
	"archive/tar"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// HomeFromArchive is a home read from a .tar.gz archive (memscope
// archive --to FILE.tar.gz), extracted read-only into a temporary folder.
const HomeFromArchive HomeSource = "--home archive (.tar.gz, extracted read-only)"

// IsTarHome reports whether p is a regular file named .tar.gz or .tgz:
// a home archive rather than a home folder.
func IsTarHome(p string) bool {
	l := strings.ToLower(p)
	if !strings.HasSuffix(l, ".tar.gz") && !strings.HasSuffix(l, ".tgz") {
		return false
	}
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

// OpenTarHome extracts the home archive at archive into a new temporary
// folder and opens it. Files and folders keep their mtimes and lose
// write permission, so edits fail loudly instead of landing in a copy
// that is thrown away. Entries that are not plain files or folders, or
// whose names leave the archive's root, are skipped and reported. An
// archive that expands beyond DefaultTarLimits (a decompression bomb) is
// refused, and what was extracted of it removed. close removes the
// extracted copy.
func OpenTarHome(archive string) (h *Home, close func() error, probs []Problem, err error) {
	return OpenTarHomeWith(archive, DefaultTarLimits)
}

// OpenTarHomeWith is OpenTarHome with other limits.
func OpenTarHomeWith(archive string, limits TarLimits) (h *Home, close func() error, probs []Problem, err error) {
	root, err := os.MkdirTemp("", "memscope-archive-")
	if err != nil {
		return nil, nil, nil, fmt.Errorf("open archive %s: %w", archive, err)
	}
	close = func() error { return removeReadOnly(root) }
	probs, err = extractTarGz(archive, root, limits)
	if err != nil {
		close()
		return nil, nil, probs, fmt.Errorf("open archive %s: %w", archive, err)
	}
	return &Home{Dir: root, FS: HomeFS(root), Source: HomeFromArchive}, close, probs, nil
}

// TarLimits bound what a home archive may expand to.
type TarLimits struct {
	// Entry is the largest file, Total the most bytes of all files (and
	// of the decompressed stream, less a MiB of headers).
	Entry, Total int64
}

// DefaultTarLimits are far above a Claude home's files (a transcript of
// a very long session is tens of MB) and far below what would fill a
// temporary folder: a 9 MB .tar.gz can hold a 2 GiB entry of zeros.
var DefaultTarLimits = TarLimits{Entry: 512 << 20, Total: 2 << 30}

// TarBombError refuses an archive that expands beyond its limits.
type TarBombError struct {
	// Name is the entry that went past a limit ("" for the stream).
	Name   string
	Size   int64
	Limits TarLimits
	// Total is set when the archive as a whole went past Limits.Total.
	Total bool
}

func (e *TarBombError) Error() string {
	if e.Total {
		return fmt.Sprintf("the archive expands to more than %s (a decompression bomb?): refused", sizeText(e.Limits.Total))
	}
	return fmt.Sprintf("entry %s is %s, more than the %s memscope extracts (a decompression bomb?): refused", e.Name, sizeText(e.Size), sizeText(e.Limits.Entry))
}

// TarEntry is one file or folder of a home archive to extract.
type TarEntry struct {
	// Name is slash-separated, local (it never leaves the root).
	Name    string
	Dir     bool
	Mode    fs.FileMode
	ModTime time.Time
	// Size is a file's declared size; its body holds exactly that.
	Size int64
}

// ScanTarHome reads a home archive (a gzip-compressed tar) from r and
// calls put with each file and folder to extract, in archive order; a
// file's body is read from body during the call. Entries whose names
// leave the root, sparse entries and entries of other types are reported
// and skipped. Before a file is handed out, its declared size and the
// archive's running total are checked against limits; past either, the
// archive is refused with a *TarBombError (so nothing is ever written
// past the limits), as it is when the decompressed stream itself grows
// past limits.Total plus a MiB.
func ScanTarHome(r io.Reader, limits TarLimits, put func(e TarEntry, body io.Reader) error) ([]Problem, error) {
	gz, err := gzip.NewReader(r)
	if err != nil {
		return nil, err
	}
	return scanTar(gz, limits, put)
}

// scanTar is ScanTarHome on the decompressed tar stream.
func scanTar(r io.Reader, limits TarLimits, put func(e TarEntry, body io.Reader) error) ([]Problem, error) {
	stream := &boundedReader{r: r, left: limits.Total + 1<<20, limits: limits}
	tr := tar.NewReader(stream)
	var probs []Problem
	var total int64
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			if stream.err != nil {
				err = stream.err
			}
			return probs, err
		}
		name := tarEntryName(hdr.Name)
		if name == "." || name == "" {
			continue
		}
		if !filepath.IsLocal(filepath.FromSlash(name)) || strings.Contains(name, `\`) || !fs.ValidPath(name) {
			probs = append(probs, Problem{File: hdr.Name, Kind: ProblemMalformed, Reason: "archive entry outside the home (skipped)"})
			continue
		}
		if isSparse(hdr) {
			// A sparse entry can declare terabytes of holes in a few bytes;
			// memscope never writes one, so it is skipped.
			probs = append(probs, Problem{File: hdr.Name, Kind: ProblemMalformed, Reason: "sparse archive entry (skipped)"})
			continue
		}
		e := TarEntry{Name: name, Mode: fs.FileMode(hdr.Mode).Perm(), ModTime: hdr.ModTime}
		switch hdr.Typeflag {
		case tar.TypeDir:
			e.Dir = true
			err = put(e, nil)
		case tar.TypeReg:
			e.Size = hdr.Size
			if hdr.Size > limits.Entry {
				return probs, &TarBombError{Name: name, Size: hdr.Size, Limits: limits}
			}
			if total += hdr.Size; total > limits.Total {
				return probs, &TarBombError{Total: true, Limits: limits}
			}
			err = put(e, tr)
		default:
			probs = append(probs, Problem{File: hdr.Name, Kind: ProblemMalformed, Reason: fmt.Sprintf("archive entry of type %q is not a file or folder (skipped)", hdr.Typeflag)})
		}
		if err != nil {
			if stream.err != nil {
				err = stream.err
			}
			return probs, err
		}
	}
	return probs, nil
}

// tarEntryName is an entry's name relative to the home: without a
// trailing slash and without the "./" that `tar -C ~/.claude -czf x .`
// puts in front of every entry (the rest of the name is checked as is,
// so "./../x" still leaves the root).
func tarEntryName(name string) string {
	name = strings.TrimSuffix(name, "/")
	for strings.HasPrefix(name, "./") {
		name = strings.TrimLeft(name[2:], "/")
	}
	return name
}

// boundedReader fails once more than left bytes were read through it.
type boundedReader struct {
	r      io.Reader
	left   int64
	limits TarLimits
	err    error
}

func (b *boundedReader) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	n, err := b.r.Read(p)
	if b.left -= int64(n); b.left < 0 {
		b.err = &TarBombError{Total: true, Limits: b.limits}
		return n, b.err
	}
	return n, err
}

type extracted struct {
	path string
	mode fs.FileMode
	mod  time.Time
	dir  bool
}

// extractTarGz writes the archive's files and folders under root, then
// sets modes and mtimes (folders last, deepest first, since writing into
// a folder changes its mtime).
func extractTarGz(archive, root string, limits TarLimits) ([]Problem, error) {
	f, err := OpenRegularFile(archive)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var done []extracted
	// putErr is a failed write, reported as it is; anything else is the
	// archive's fault.
	var putErr error
	probs, err := ScanTarHome(f, limits, func(e TarEntry, body io.Reader) error {
		dst := filepath.Join(root, filepath.FromSlash(e.Name))
		if e.Dir {
			if putErr = os.MkdirAll(dst, 0o700); putErr != nil {
				return putErr
			}
			done = append(done, extracted{path: dst, mode: e.Mode, mod: e.ModTime, dir: true})
			return nil
		}
		if putErr = os.MkdirAll(filepath.Dir(dst), 0o700); putErr == nil {
			putErr = writeExtracted(dst, body)
		}
		if putErr != nil {
			putErr = fmt.Errorf("extract %s: %w", e.Name, putErr)
			return putErr
		}
		done = append(done, extracted{path: dst, mode: e.Mode, mod: e.ModTime})
		return nil
	})
	if err != nil {
		var bomb *TarBombError
		if err != putErr && !errors.As(err, &bomb) {
			err = fmt.Errorf("read %s: %w", archive, err)
		}
		return probs, err
	}
	sort.SliceStable(done, func(i, j int) bool {
		if done[i].dir != done[j].dir {
			return !done[i].dir
		}
		return len(done[i].path) > len(done[j].path)
	})
	for _, e := range done {
		perm := e.mode &^ 0o222
		if e.dir {
			perm = 0o555
		} else if perm&0o400 == 0 {
			perm |= 0o400
		}
		if err := os.Chmod(e.path, perm); err != nil {
			return probs, err
		}
		if err := os.Chtimes(e.path, e.mod, e.mod); err != nil {
			return probs, err
		}
	}
	return probs, nil
}

// isSparse reports a GNU or PAX sparse file entry.
func isSparse(hdr *tar.Header) bool {
	if hdr.Typeflag == tar.TypeGNUSparse {
		return true
	}
	for k := range hdr.PAXRecords {
		if strings.HasPrefix(k, "GNU.sparse.") {
			return true
		}
	}
	return false
}

// writeExtracted writes one archive entry to a new file.
func writeExtracted(dst string, r io.Reader) error {
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, r); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// removeReadOnly removes an extracted home, giving its folders write
// permission back first.
func removeReadOnly(root string) error {
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			os.Chmod(p, 0o700)
		}
		return nil
	})
	if err := os.RemoveAll(root); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("remove extracted archive %s: %w", root, err)
	}
	return nil
}

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
// whose names leave the archive's root, are skipped and reported. close
// removes the extracted copy.
func OpenTarHome(archive string) (h *Home, close func() error, probs []Problem, err error) {
	root, err := os.MkdirTemp("", "memscope-archive-")
	if err != nil {
		return nil, nil, nil, fmt.Errorf("open archive %s: %w", archive, err)
	}
	close = func() error { return removeReadOnly(root) }
	probs, err = extractTarGz(archive, root)
	if err != nil {
		close()
		return nil, nil, probs, fmt.Errorf("open archive %s: %w", archive, err)
	}
	return &Home{Dir: root, FS: DirFS(root), Source: HomeFromArchive}, close, probs, nil
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
func extractTarGz(archive, root string) ([]Problem, error) {
	f, err := OpenRegularFile(archive)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		return nil, err
	}
	tr := tar.NewReader(gz)
	var probs []Problem
	var done []extracted
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return probs, fmt.Errorf("read %s: %w", archive, err)
		}
		name := strings.TrimSuffix(hdr.Name, "/")
		if name == "." || name == "" {
			continue
		}
		if !filepath.IsLocal(filepath.FromSlash(name)) || strings.Contains(name, `\`) {
			probs = append(probs, Problem{File: hdr.Name, Kind: ProblemMalformed, Reason: "archive entry outside the home (skipped)"})
			continue
		}
		if isSparse(hdr) {
			// A sparse entry can declare terabytes of holes in a few bytes;
			// memscope never writes one, so it is skipped.
			probs = append(probs, Problem{File: hdr.Name, Kind: ProblemMalformed, Reason: "sparse archive entry (skipped)"})
			continue
		}
		dst := filepath.Join(root, filepath.FromSlash(name))
		switch hdr.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(dst, 0o700); err != nil {
				return probs, err
			}
			done = append(done, extracted{path: dst, mode: fs.FileMode(hdr.Mode).Perm(), mod: hdr.ModTime, dir: true})
		case tar.TypeReg:
			if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
				return probs, err
			}
			if err := writeExtracted(dst, tr); err != nil {
				return probs, fmt.Errorf("extract %s: %w", name, err)
			}
			done = append(done, extracted{path: dst, mode: fs.FileMode(hdr.Mode).Perm(), mod: hdr.ModTime})
		default:
			probs = append(probs, Problem{File: hdr.Name, Kind: ProblemMalformed, Reason: fmt.Sprintf("archive entry of type %q is not a file or folder (skipped)", hdr.Typeflag)})
		}
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

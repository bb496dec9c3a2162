package cleanup

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/memscope/memscope/engine/sessions"
	"github.com/memscope/memscope/internal/format"
	"github.com/memscope/memscope/model"
)

// ArchiveFormat is how an archive is written.
type ArchiveFormat string

// The archive formats.
const (
	// ArchiveFolder is a folder laid out as a Claude home.
	ArchiveFolder ArchiveFormat = "folder"
	// ArchiveTarGz is a gzip-compressed tar of the same layout.
	ArchiveTarGz ArchiveFormat = "tar.gz"
)

// IsTarGzPath reports whether p names a .tar.gz (or .tgz) archive.
func IsTarGzPath(p string) bool {
	l := strings.ToLower(p)
	return strings.HasSuffix(l, ".tar.gz") || strings.HasSuffix(l, ".tgz")
}

// ArchiveFileStatus says what archiving did with one file.
type ArchiveFileStatus string

// The outcomes for one file.
const (
	// ArchiveCopied: the file was copied into the archive.
	ArchiveCopied ArchiveFileStatus = "copied"
	// ArchiveIdentical: the archive folder already held the same bytes.
	ArchiveIdentical ArchiveFileStatus = "identical"
)

// ArchivedFile is one file in the archive.
type ArchivedFile struct {
	// Path is slash-separated, relative to the home and to the archive.
	Path    string            `json:"path"`
	Size    int64             `json:"size"`
	ModTime time.Time         `json:"modTime"`
	SHA256  string            `json:"sha256"`
	Status  ArchiveFileStatus `json:"status"`
	// Verified is set once the archived copy was read back and hashed
	// equal to the source.
	Verified bool `json:"verified"`
}

// ArchiveReport is what Archive wrote and checked.
type ArchiveReport struct {
	To        string         `json:"to"`
	Format    ArchiveFormat  `json:"format"`
	Files     []ArchivedFile `json:"files"`
	Copied    int            `json:"copied"`
	Identical int            `json:"identical"`
	Verified  int            `json:"verified"`
	Bytes     int64          `json:"bytes"`
	// Problems are source files that vanished or could not be read; they
	// are not in the archive.
	Problems []model.Problem `json:"problems"`
}

// ArchiveOptions say what to archive and where.
type ArchiveOptions struct {
	Home *model.Home
	// Items are forecast items; a Dir item brings every file under it.
	Items []Item
	// To is a folder (created when missing) or a new .tar.gz file.
	To string
	// Writes is what every write of the archive goes through (the atomic
	// writer's calls); nil is the real OS. Tests inject faults.
	Writes model.WriteFS
}

// ArchiveConflictError is returned when the archive folder already holds
// a different file at a path to archive: nothing is overwritten.
type ArchiveConflictError struct {
	To    string
	Paths []string
}

// archiveEntry is one source file or folder to archive.
type archiveEntry struct {
	rel     string
	dir     bool
	mode    fs.FileMode
	modTime time.Time
}

// Archive copies the items' files from the home into o.To, keeping their
// paths relative to the home, their modes and mtimes (folders' mtimes
// too), so the archive opens as a home. The source is only read. Every
// archived file is read back and its SHA-256 compared with the source's.
// Into an existing folder, identical files are skipped and a different
// file stops the whole archive before anything is written.
func Archive(o ArchiveOptions) (ArchiveReport, error) {
	rep := ArchiveReport{To: o.To, Format: ArchiveFolder, Files: []ArchivedFile{}, Problems: []model.Problem{}}
	if insideDir(o.To, o.Home.Dir) {
		return rep, fmt.Errorf("archive: %s is inside the Claude home %s; choose a destination outside it", o.To, o.Home.Dir)
	}
	if IsTarGzPath(o.To) {
		rep.Format = ArchiveTarGz
	}
	entries, probs := archiveEntries(o.Home.FS, o.Items)
	rep.Problems = append(rep.Problems, probs...)
	w := o.Writes
	if w == nil {
		w = model.OSWriteFS{}
	}
	var err error
	if rep.Format == ArchiveTarGz {
		err = archiveTar(w, o.Home.FS, entries, o.To, &rep)
	} else {
		err = archiveFolder(w, o.Home.FS, entries, o.To, &rep)
	}
	rep.Problems = sessions.SortProblems(rep.Problems)
	return rep, err
}

// insideDir reports whether p is dir or under it (both cleaned; symlinks
// are not resolved).
func insideDir(p, dir string) bool {
	rel, err := filepath.Rel(filepath.Clean(dir), filepath.Clean(p))
	return err == nil && (rel == "." || filepath.IsLocal(rel))
}

// archiveEntries expands items into files and the folders that hold them
// (every ancestor inside the home), sorted by path so folders come before
// their contents.
func archiveEntries(fsys fs.FS, items []Item) ([]archiveEntry, []model.Problem) {
	var probs []model.Problem
	seen := map[string]bool{}
	var out []archiveEntry
	addDir := func(rel string) {
		for d := rel; d != "." && d != "" && !seen[d]; d = path.Dir(d) {
			seen[d] = true
			st, err := fs.Stat(fsys, d)
			if err != nil {
				probs = append(probs, model.Problem{File: d, Kind: model.ProblemUnreadable, Reason: err.Error()})
				continue
			}
			out = append(out, archiveEntry{rel: d, dir: true, mode: st.Mode(), modTime: st.ModTime()})
		}
	}
	addFile := func(rel string, info fs.FileInfo) {
		if seen[rel] {
			return
		}
		seen[rel] = true
		out = append(out, archiveEntry{rel: rel, mode: info.Mode(), modTime: info.ModTime()})
		addDir(path.Dir(rel))
	}
	for _, it := range items {
		if !it.Dir {
			st, err := model.StatInside(fsys, it.Path)
			if err != nil {
				probs = append(probs, model.Problem{File: it.Path, Kind: model.ProblemUnreadable, Reason: "not archived: " + err.Error()})
				continue
			}
			addFile(it.Path, st)
			continue
		}
		addDir(it.Path)
		walkFiles(fsys, it.Path, &probs, func(p string, info fs.FileInfo) {
			addFile(p, info)
		})
		fs.WalkDir(fsys, it.Path, func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.IsDir() {
				addDir(p)
			}
			return nil
		})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].rel < out[j].rel })
	return out, probs
}

// hashOSFile is model.HashFile for a path on disk.
func hashOSFile(p string) (string, int64, error) {
	dir, base := filepath.Split(p)
	return model.HashFile(model.DirFS(filepath.Clean(dir)), base)
}

// archiveFolder writes entries into the folder to through w.
func archiveFolder(w model.WriteFS, fsys fs.FS, entries []archiveEntry, to string, rep *ArchiveReport) (err error) {
	// A first pass decides, for every file, copy or identical, and stops on
	// any conflict before a byte is written.
	identical := map[string]string{}
	var conflicts []string
	for _, e := range entries {
		dst := filepath.Join(to, filepath.FromSlash(e.rel))
		st, err := os.Lstat(dst)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue
		case err != nil:
			return fmt.Errorf("archive %s: %w", dst, err)
		case e.dir && st.IsDir():
			continue
		case e.dir || !st.Mode().IsRegular():
			conflicts = append(conflicts, e.rel)
			continue
		}
		want, _, err := model.HashFile(fsys, e.rel)
		if err != nil {
			rep.Problems = append(rep.Problems, model.Problem{File: e.rel, Kind: model.ProblemUnreadable, Reason: "not archived: " + err.Error()})
			identical[e.rel] = ""
			continue
		}
		have, _, err := hashOSFile(dst)
		if err != nil {
			return fmt.Errorf("archive: compare with %s: %w", dst, err)
		}
		if have != want {
			conflicts = append(conflicts, e.rel)
			continue
		}
		identical[e.rel] = want
	}
	if len(conflicts) > 0 {
		return &ArchiveConflictError{To: to, Paths: conflicts}
	}
	// A failed archive removes what it made: the files it copied and the
	// folders that were not there (never what was there before).
	made := absentFolders(to)
	for _, e := range entries {
		dst := filepath.Join(to, filepath.FromSlash(e.rel))
		if _, err := os.Lstat(dst); e.dir && errors.Is(err, fs.ErrNotExist) {
			made = append(made, dst)
		}
	}
	defer func() {
		if err != nil {
			err = removeMade(w, to, rep, made, err)
		}
	}()
	if err := w.MkdirAll(to, 0o700); err != nil {
		return fmt.Errorf("archive: create %s: %w", to, err)
	}
	for _, e := range entries {
		if e.dir {
			continue
		}
		if sum, ok := identical[e.rel]; ok {
			if sum != "" {
				rep.Files = append(rep.Files, ArchivedFile{Path: e.rel, ModTime: e.modTime, SHA256: sum, Status: ArchiveIdentical})
			}
			continue
		}
		af, err := copyOut(w, fsys, e, filepath.Join(to, filepath.FromSlash(e.rel)))
		if err := rep.record(e.rel, af, err); err != nil {
			return err
		}
	}
	// Folder mtimes last: creating files inside a folder changes its mtime,
	// and file-history folders are swept by theirs.
	for i := len(entries) - 1; i >= 0; i-- {
		if e := entries[i]; e.dir {
			dst := filepath.Join(to, filepath.FromSlash(e.rel))
			if err := w.Chtimes(dst, e.modTime, e.modTime); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("archive: set mtime of %s: %w", dst, err)
			}
		}
	}
	syncFolders(w, entries, to)
	return verifyFolder(to, rep)
}

// absentFolders lists dir and the folders above it that do not exist,
// outermost first: what writing into dir will create.
func absentFolders(dir string) []string {
	var made []string
	for d := filepath.Clean(dir); filepath.Dir(d) != d; d = filepath.Dir(d) {
		if _, err := os.Lstat(d); !errors.Is(err, fs.ErrNotExist) {
			break
		}
		made = append([]string{d}, made...)
	}
	return made
}

// removeEmptyFolder removes the folder d when it is empty: one that holds
// something (a file another program wrote meanwhile) is not the
// archive's to remove, and neither is an error.
func removeEmptyFolder(w model.WriteFS, d string) error {
	err := w.Remove(d)
	if err == nil || errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if ents, rerr := os.ReadDir(d); rerr == nil && len(ents) > 0 {
		return nil
	}
	return err
}

// removeMade undoes a failed folder archive: it removes the files it
// copied into to (rep.Files with status copied, which it then drops from
// the report) and the folders in made, deepest first, when empty. What it
// cannot remove is named in the error.
func removeMade(w model.WriteFS, to string, rep *ArchiveReport, made []string, err error) error {
	var left error
	kept := rep.Files[:0]
	for _, f := range rep.Files {
		if f.Status != ArchiveCopied {
			kept = append(kept, f)
			continue
		}
		if rerr := w.Remove(filepath.Join(to, filepath.FromSlash(f.Path))); rerr != nil && !errors.Is(rerr, fs.ErrNotExist) {
			left = errors.Join(left, rerr)
		}
	}
	rep.Files = kept
	for i := len(made) - 1; i >= 0; i-- {
		left = errors.Join(left, removeEmptyFolder(w, made[i]))
	}
	if left != nil {
		return fmt.Errorf("%w (and what the archive had written could not all be removed: %v)", err, left)
	}
	return fmt.Errorf("%w (what the archive had written was removed)", err)
}

// copyOut copies one file to dst with the atomic writer: through a
// synced temporary file in the same folder, given the source's mode and
// mtime, and moved into place only while dst is still absent, so a file
// that appeared since the first pass is never replaced.
func copyOut(w model.WriteFS, fsys fs.FS, e archiveEntry, dst string) (ArchivedFile, error) {
	af := ArchivedFile{Path: e.rel, Status: ArchiveCopied}
	src, st, err := openSource(fsys, e.rel)
	if err != nil {
		return af, fmt.Errorf("archive: %w", err)
	}
	defer src.Close()
	af.ModTime = st.ModTime()
	h := sha256.New()
	var n int64
	err = model.CreateFileAtomicWith(w, dst, st.Mode().Perm(), st.ModTime(), func(out io.Writer) error {
		var err error
		if n, err = io.Copy(io.MultiWriter(out, h), src); err != nil {
			return fmt.Errorf("copy %s: %w", e.rel, err)
		}
		return nil
	})
	if err != nil {
		return af, placeError(dst, err)
	}
	af.Size, af.SHA256 = n, hex.EncodeToString(h.Sum(nil))
	return af, nil
}

// openSource opens a home file and stats the open file, so its size and
// mtime describe what is then read.
func openSource(fsys fs.FS, rel string) (fs.File, fs.FileInfo, error) {
	// Whatever the walk found, nothing outside the home is copied.
	if _, err := model.ResolveInside(fsys, rel); err != nil {
		return nil, nil, fmt.Errorf("open %s: %w", rel, err)
	}
	f, err := model.OpenRegular(fsys, rel)
	if err != nil {
		return nil, nil, fmt.Errorf("open %s: %w", rel, err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("stat %s: %w", rel, err)
	}
	return f, st, nil
}

// placeError is the error of a failed write of dst: a conflict when a
// file took the name meanwhile (nothing was replaced), else err.
func placeError(dst string, err error) error {
	if errors.Is(err, fs.ErrExist) {
		return &ArchiveConflictError{To: filepath.Dir(dst), Paths: []string{filepath.Base(dst)}}
	}
	return fmt.Errorf("archive: %w", err)
}

// syncFolders makes the archive's folders durable: each file's folder
// was synced when the file was placed, but not the entries of the
// folders created for them, nor the folders' mtimes set afterwards.
// Best effort, as the atomic writer's folder sync: the archive is in
// place and is verified next.
func syncFolders(w model.WriteFS, entries []archiveEntry, to string) {
	for i := len(entries) - 1; i >= 0; i-- {
		if e := entries[i]; e.dir {
			_ = w.SyncDir(filepath.Join(to, filepath.FromSlash(e.rel)))
		}
	}
	_ = w.SyncDir(to)
	_ = w.SyncDir(filepath.Dir(to))
}

// verifyFolder reads every archived file back and compares hashes.
func verifyFolder(to string, rep *ArchiveReport) error {
	for i := range rep.Files {
		f := &rep.Files[i]
		got, n, err := hashOSFile(filepath.Join(to, filepath.FromSlash(f.Path)))
		if err != nil {
			return fmt.Errorf("archive: verify %s: %w", f.Path, err)
		}
		if got != f.SHA256 {
			return fmt.Errorf("archive: verify %s: SHA-256 %s in the archive, %s in the source", f.Path, got, f.SHA256)
		}
		f.Size, f.Verified = n, true
		rep.Verified++
		rep.Bytes += n
		if f.Status == ArchiveCopied {
			rep.Copied++
		} else {
			rep.Identical++
		}
	}
	return nil
}

// Error lists the first conflicting paths.
func (e *ArchiveConflictError) Error() string {
	show := e.Paths
	if len(show) > 5 {
		show = show[:5]
	}
	more := ""
	if len(e.Paths) > len(show) {
		more = fmt.Sprintf(" and %d more", len(e.Paths)-len(show))
	}
	return fmt.Sprintf("archive %s: %s already there with different content (%s%s); nothing was copied, choose another destination",
		e.To, format.Count(len(e.Paths), "file", "files"), strings.Join(show, ", "), more)
}

// record adds a copied file to the report. A source file that vanished
// since the forecast (the client swept it meanwhile) is a problem, not a
// failure.
func (rep *ArchiveReport) record(rel string, af ArchivedFile, err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		rep.Problems = append(rep.Problems, model.Problem{File: rel, Kind: model.ProblemUnreadable, Reason: "not archived: gone since the forecast"})
		return nil
	}
	if err != nil {
		return err
	}
	rep.Files = append(rep.Files, af)
	return nil
}

// ArchiveSelection returns what an archive copies: with olderThan < 0,
// the items the next sweep deletes (an error when the sweep is disabled
// or skipped, since then nothing would be deleted); otherwise every item
// whose mtime is more than olderThan days before now.
func (f Forecast) ArchiveSelection(olderThan int) ([]Item, error) {
	var out []Item
	if olderThan < 0 {
		if f.State != StateActive {
			return nil, fmt.Errorf("the next sweep deletes nothing (%s); --older-than N archives by age instead", f.Reason)
		}
		for _, it := range f.Items {
			if it.Bucket == BucketNow {
				out = append(out, it)
			}
		}
		return out, nil
	}
	cutoff := f.Now.Add(-time.Duration(olderThan) * 24 * time.Hour)
	for _, it := range f.Items {
		if it.ModTime.Before(cutoff) {
			out = append(out, it)
		}
	}
	return out, nil
}

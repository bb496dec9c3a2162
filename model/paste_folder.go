package model

import (
	"io/fs"
	"strings"
	"time"
)

// PasteFolder is paste-cache as a listing left it, kept across runs
// (stat's cache) so that the next listing of an unchanged folder does
// not look at each file again: the write-once rule (WriteOnceFolder).
// While the folder's identity and modification time are ID and ModTime
// and it lists exactly Files' names, no paste was added, removed or
// renamed, and each file's stamp is the one kept (a paste is named by
// its content and written once). Its nets are the rule's: the folder is
// kept only once its modification time is WriteOnceSettle old, and once
// WriteOnceFull has passed since Full, every file is looked at again.
type PasteFolder struct {
	ID      FileID
	ModTime int64
	// Full is when every file was last looked at.
	Full time.Time
	// Files are the folder's regular files, in name order.
	Files []PasteFolderFile
}

// PasteFolderFile is one file of a PasteFolder: its name and its stamp
// without a head hash (StampOf), in the fewest fields.
type PasteFolderFile struct {
	Name                      string
	Size, ModTime, ChangeTime int64
	Dev, Ino                  uint64
}

// InventoryPasteFolder is InventoryPasteRefs for a caller that keeps
// paste-cache's listing across runs: saved is what the last run
// returned (nil: none), now the time of this run. When the folder is as
// saved left it (PasteFolder's rule), its files are taken from saved
// without being looked at, and with v's verdicts for their stamps none
// is opened. It returns the folder to keep: nil when it is not to be
// trusted next time (not settled, no identity, or an entry that is not
// a regular paste file).
func InventoryPasteFolder(fsys fs.FS, refs PasteRefs, v *PasteVerdicts, saved *PasteFolder, now time.Time) (*PasteInventory, *PasteFolder) {
	if v == nil {
		v = NewPasteVerdicts()
	}
	v.NextRound()
	c := NewPasteCacheWith(fsys, v)
	files, probs, keep := c.listKept(saved, now)
	return inventoryOf(c, v, refs, files, probs), keep
}

// listKept is List, taking paste-cache's files from saved when the
// folder is as saved left it, and the folder to keep.
func (c *PasteCache) listKept(saved *PasteFolder, now time.Time) ([]PasteFile, []Problem, *PasteFolder) {
	// The folder is stamped before it is listed: a paste written after
	// the stamp changes the folder's time again.
	info, err := fs.Stat(c.fsys, PasteCacheDir)
	if err != nil || !info.IsDir() {
		files, probs := c.List()
		return files, probs, nil
	}
	keep := &PasteFolder{ID: FileIDOf(info), ModTime: info.ModTime().UnixNano(), Full: now}
	settled := keep.ID.Known && now.Sub(info.ModTime()) >= WriteOnceSettle
	trusted := settled && saved != nil && saved.ID == keep.ID && saved.ModTime == keep.ModTime &&
		!saved.Full.IsZero() && !now.Before(saved.Full) && now.Sub(saved.Full) < WriteOnceFull
	ents, probs := readStoreDir(c.fsys, PasteCacheDir)
	var files []PasteFile
	if trusted && sameNames(ents, saved.Files) {
		keep.Full, keep.Files = saved.Full, saved.Files
		files = make([]PasteFile, 0, len(saved.Files))
		for _, f := range saved.Files {
			files = append(files, f.file())
		}
	} else {
		var eprobs []Problem
		files, eprobs = c.listEntries(PasteSourceCache, ents)
		probs = append(probs, eprobs...)
		// Kept only when every entry is a regular file (no symlink
		// followed) listed with its identity, in the folder's order.
		keep.Files = make([]PasteFolderFile, 0, len(files))
		for i, f := range files {
			if f.stamp.ID.Known && i < len(ents) && ents[i].Type().IsRegular() && ents[i].Name() == string(f.Hash)+pasteCacheExt {
				keep.Files = append(keep.Files, folderFile(ents[i].Name(), f.stamp))
			}
		}
	}
	if !settled || len(probs) > 0 || len(keep.Files) != len(ents) {
		keep = nil
	}
	store, sprobs := c.listSource(PasteSourceStore)
	files = append(files, store...)
	probs = append(probs, sprobs...)
	sortPasteFiles(files)
	c.complete = wholeListing(files, probs)
	return files, probs, keep
}

// wholeListing says files are every file of both paste folders under
// names no other hash's file could be opened by: both listed without a
// problem (every entry a paste file), and every name lower-case hex (on
// a file system that folds case, another spelling of a listed name
// opens the listed file).
func wholeListing(files []PasteFile, probs []Problem) bool {
	if len(probs) > 0 {
		return false
	}
	for _, f := range files {
		if !isLowerHex(string(f.Hash)) {
			return false
		}
	}
	return true
}

// sameNames says the folder entries ents are the regular files named
// as files are, in the same order (fs.ReadDir's: by name). An entry's
// type is the folder listing's, asked of no file.
func sameNames(ents []fs.DirEntry, files []PasteFolderFile) bool {
	if len(ents) != len(files) {
		return false
	}
	for i, de := range ents {
		if de.Name() != files[i].Name || !de.Type().IsRegular() {
			return false
		}
	}
	return true
}

// folderFile is the kept form of the file name whose stamp is s.
func folderFile(name string, s FileStamp) PasteFolderFile {
	return PasteFolderFile{Name: name, Size: s.Size, ModTime: s.ModTime, ChangeTime: s.ChangeTime, Dev: s.ID.Dev, Ino: s.ID.Ino}
}

// file is the PasteFile List gives for f, from its kept stamp.
func (f PasteFolderFile) file() PasteFile {
	s := FileStamp{Size: f.Size, ModTime: f.ModTime, ChangeTime: f.ChangeTime, ID: FileID{Dev: f.Dev, Ino: f.Ino, Known: true}}
	return PasteFile{Hash: PasteHash(strings.TrimSuffix(f.Name, pasteCacheExt)), Path: PasteCacheDir + "/" + f.Name, Source: PasteSourceCache,
		Size: f.Size, ModTime: time.Unix(0, f.ModTime), stamp: s}
}

package diskcache

import (
	"io/fs"
	"path"
	"time"

	"github.com/memscope/memscope/model"
)

// Nets of the write-once folders' rule (PerFileFolders), the vault's:
// a folder is stamped only once its modification time is FolderSettle
// old (a file being written when it was stamped is opened again next
// time), and every FolderFull the stamps are not used for one run (each
// file is stamped as PerFile does, so a file changed in place is seen).
const (
	FolderSettle = model.WriteOnceSettle
	FolderFull   = model.WriteOnceFull
)

// Folders is what a per-file cache keeps of the home's write-once
// folders (model.WriteOnceFolder) beside its entries: when the stamps
// were last all taken anew (Full) and each folder's stamp.
type Folders struct {
	Full   time.Time
	Stamps map[string]FolderStamp
}

// FolderStamp is a write-once folder as a run left it: its identity,
// its modification time and the number of its files the run listed,
// every one of which had an entry.
type FolderStamp struct {
	ID      model.FileID
	ModTime int64
	Files   int
}

// PerFileFolders is PerFile with the write-once folders' rule: the
// files of a write-once folder whose identity and modification time are
// those of its stamp in folders, whose number of files (in names) is the
// stamp's, and which each have an entry in cache, are answered by their
// entries without being opened. Every other file goes through PerFile.
// next gets the entries kept as PerFile keeps them; the Folders returned
// are the stamps to keep: a trusted folder's, and the stamp of each
// write-once folder (taken before its files were stamped, after they
// were listed) every file of which has an entry in next, whose time is
// FolderSettle old at now and whose identity the platform gives.
// Without a cache (next nil) it is PerFile.
func PerFileFolders[T any](fsys fs.FS, names []string, cache, next map[string]Entry[T], folders Folders, now time.Time, compute func(miss []int) []T, whole func(v T, size int64) bool) (out []T, hits int, kept Folders) {
	return perFileFolders(fsys, names, cache, next, nil, folders, now, false, ignoreStamps(compute), whole)
}

// PerFileFoldersStamping is PerFileFolders for a compute that stamps the
// files it reads (PerFileStamping's rule for the files without an entry).
func PerFileFoldersStamping[T any](fsys fs.FS, names []string, cache, next map[string]Entry[T], folders Folders, now time.Time, compute Stamping[T], whole func(v T, size int64) bool) (out []T, hits int, kept Folders) {
	return perFileFolders(fsys, names, cache, next, nil, folders, now, true, unchecked(compute), whole)
}

// perFileFolders is PerFileFolders; with same (len(names)), an answer
// whose entry is kept unchanged is marked there, not put in next.
func perFileFolders[T any](fsys fs.FS, names []string, cache, next map[string]Entry[T], same []bool, folders Folders, now time.Time, selfStamped bool, compute Checking[T], whole func(v T, size int64) bool) (out []T, hits int, kept Folders) {
	if next == nil {
		out, hits = perFile(fsys, names, cache, next, nil, selfStamped, compute, whole)
		return out, hits, Folders{}
	}
	full := folders.Full.IsZero() || now.Sub(folders.Full) >= FolderFull || now.Before(folders.Full)
	kept = Folders{Full: folders.Full, Stamps: map[string]FolderStamp{}}
	if full {
		kept.Full = now
	}
	// The write-once folders of names, with the indexes of their files.
	byDir := map[string][]int{}
	for i, name := range names {
		if d := path.Dir(name); model.WriteOnceFolder(d) {
			byDir[d] = append(byDir[d], i)
		}
	}
	out = make([]T, len(names))
	answered := make([]bool, len(names))
	stamps := map[string]FolderStamp{}
	for d, idx := range byDir {
		info, err := fs.Stat(fsys, d)
		if err != nil || !info.IsDir() {
			continue
		}
		st := FolderStamp{ID: model.FileIDOf(info), ModTime: info.ModTime().UnixNano(), Files: len(idx)}
		if !st.ID.Known || now.Sub(info.ModTime()) < FolderSettle {
			continue
		}
		stamps[d] = st
		if old, ok := folders.Stamps[d]; full || !ok || old != st || !allIn(names, idx, cache, nil) {
			continue
		}
		for _, i := range idx {
			c := cache[names[i]]
			out[i], answered[i] = c.Value, true
			if same != nil {
				same[i] = true
			} else {
				next[names[i]] = c
			}
		}
		hits += len(idx)
		kept.Stamps[d] = st
	}
	var rest []int
	for i := range names {
		if !answered[i] {
			rest = append(rest, i)
		}
	}
	restNames := make([]string, len(rest))
	for j, i := range rest {
		restNames[j] = names[i]
	}
	var sameRest func(int)
	if same != nil {
		sameRest = func(j int) { same[rest[j]] = true }
	}
	res, h := perFile(fsys, restNames, cache, next, sameRest, selfStamped, func(miss []int, stamp, after func(int, model.FileStamp)) []T {
		idx := make([]int, len(miss))
		for j, m := range miss {
			idx[j] = rest[m]
		}
		return compute(idx, stamp, after)
	}, whole)
	for j, i := range rest {
		out[i] = res[j]
	}
	hits += h
	for d, st := range stamps {
		if _, ok := kept.Stamps[d]; !ok && allIn(names, byDir[d], next, same) {
			kept.Stamps[d] = st
		}
	}
	return out, hits, kept
}

// allIn says every file of names at idx has an entry in m or is marked
// in same (nil: none is).
func allIn[T any](names []string, idx []int, m map[string]Entry[T], same []bool) bool {
	for _, i := range idx {
		if same != nil && same[i] {
			continue
		}
		if _, ok := m[names[i]]; !ok {
			return false
		}
	}
	return true
}

// Equal says f and o hold the same stamps (a caller saves its folders
// only when they changed).
func (f Folders) Equal(o Folders) bool {
	if !f.Full.Equal(o.Full) || len(f.Stamps) != len(o.Stamps) {
		return false
	}
	for d, s := range f.Stamps {
		if os, ok := o.Stamps[d]; !ok || os != s {
			return false
		}
	}
	return true
}

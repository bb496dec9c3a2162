package inventory

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"io/fs"
	"strings"

	"github.com/memscope/memscope/engine/diskcache"
	"github.com/memscope/memscope/model"
)

// cacheKind names and versions what stat keeps across runs: bump it when
// what an entry holds changes meaning.
const cacheKind = "stat.5"

// statCache is what stat keeps of a home across runs, packed
// (cache_pack.go: every field, TestKeptPackFields). Every entry says
// which version of its files it was computed from; an entry whose files
// changed is computed again, and entries for files that are gone are
// dropped when the cache is saved.
type statCache struct {
	// Transcripts are summaries by path, for the file whose stamp
	// (head hash included) is the entry's (diskcache.PerFile).
	Transcripts keptTranscripts
	// History is history.jsonl's counts up to Tail.Offset; nil when not
	// kept.
	History *cachedHistory
	// Pastes are the paste files' verdicts.
	Pastes keptVerdicts
	// PasteFolder is paste-cache as the last run listed it (the
	// write-once rule: model.PasteFolder); nil when not kept.
	PasteFolder *keptFolder
	// Memory are the counts of each memory folder, by folder.
	Memory map[string]cachedMemory
}

type cachedTranscript = diskcache.Entry[model.TranscriptSummary]

// cachedHistory is what the complete lines of history.jsonl up to
// Tail.Offset hold. The file is append-only: a later run reads only the
// lines after Tail (model.HistoryTail checks the inode and the head, and
// reads the file again whole when either changed); a file of the same
// size whose stamp differs is read again whole.
type cachedHistory struct {
	Stamp    model.FileStamp
	Tail     model.TailState
	Entries  int
	Problems []model.Problem
	Refs     map[model.PasteHash]int
	Inline   int
}

// cachedMemory is what a memory folder (and its team/ folder) held when
// its contents had the fingerprint Print.
type cachedMemory struct {
	Print                                [sha256.Size]byte
	Exists                               bool
	Files, Invalid, Team                 int
	IndexFiles, IndexLines, IndexEntries int
	Problems                             []model.Problem
}

// loadCache reads the home's stat cache; an empty one when there is none
// or it cannot be used.
func loadCache(s *diskcache.Store, homeDir string) *statCache {
	c, ok := diskcache.LoadShared[statCache](s, cacheKind, diskcache.Name(cacheKind, homeDir))
	if !ok {
		return &statCache{}
	}
	return &c
}

// summarizeCached is summarizeAll that takes the summaries of unchanged
// files from cache and scans the others (diskcache.PerFile's rule); next
// receives what to keep, and hits counts the summaries taken from cache.
// Without a cache (next nil) it is summarizeAll.
func summarizeCached(fsys fs.FS, files []model.TranscriptFile, workers int, cache, next map[string]cachedTranscript) (sums []model.TranscriptSummary, hits int) {
	if next == nil {
		return summarizeAll(fsys, files, workers, nil), 0
	}
	names := make([]string, len(files))
	for i, t := range files {
		names[i] = t.Path
	}
	// A transcript without an entry is stamped from the open that reads
	// it (one open, not two: a cold stat opens every transcript).
	return diskcache.PerFileStamping(fsys, names, cache, next, func(miss []int, stamp func(j int, st model.FileStamp)) []model.TranscriptSummary {
		sub := make([]model.TranscriptFile, len(miss))
		for j, i := range miss {
			sub[j] = files[i]
		}
		return summarizeAll(fsys, sub, workers, stamp)
	}, model.TranscriptSummary.Whole)
}

// historyCounts is what stat reads of history.jsonl.
type historyCounts struct {
	entries  int
	problems []model.Problem
	refs     model.PasteRefs
}

// readHistoryCached counts history.jsonl from the cached counts and the
// lines appended since, and returns what to keep. ok is false when it
// cannot answer (the file is unreadable): the caller reads it whole.
func readHistoryCached(fsys fs.FS, cached *cachedHistory) (hc historyCounts, next *cachedHistory, ok bool) {
	st, err := model.StampFile(fsys, model.HistoryPath)
	if errors.Is(err, fs.ErrNotExist) {
		return historyCounts{refs: model.PasteRefsOf(nil)}, nil, true
	}
	if err != nil {
		return hc, nil, false
	}
	base := &cachedHistory{Refs: map[model.PasteHash]int{}}
	// stat counts entries and pastes: their text is checked, not made.
	t := &model.HistoryTail{Counts: true}
	switch {
	case cached == nil:
	case cached.Stamp.Equal(st):
		// Unchanged since the last run: nothing to read but a pending line.
		base, t.State = cached, cached.Tail
	case st.Size > cached.Stamp.Size:
		// Grown: appended to, unless HistoryTail finds the head or inode
		// changed, when it reads it whole.
		base, t.State = cached, cached.Tail
	}
	read, err := t.Read(fsys, model.HistoryPath)
	if err != nil {
		return hc, nil, false
	}
	if read.Full {
		base = &cachedHistory{Refs: map[model.PasteHash]int{}}
	}
	next = &cachedHistory{Stamp: st, Tail: t.State, Entries: base.Entries + len(read.Entries), Inline: base.Inline,
		Problems: append(base.Problems[:len(base.Problems):len(base.Problems)], read.Problems...)}
	refs := model.PasteRefs{Counts: make(map[model.PasteHash]int, len(base.Refs)), Inline: base.Inline}
	for h, n := range base.Refs {
		refs.Counts[h] = n
	}
	refs.Add(read.Entries)
	next.Refs, next.Inline = refs.Counts, refs.Inline
	hc = historyCounts{entries: next.Entries, problems: next.Problems, refs: refs.Clone()}
	// The unterminated last line is counted as a whole read counts it,
	// and kept out of the cache: it is still being written.
	pend, probs, err := t.Pending(fsys, model.HistoryPath)
	if err != nil {
		return hc, nil, false
	}
	hc.entries += len(pend)
	hc.problems = append(hc.problems[:len(hc.problems):len(hc.problems)], probs...)
	hc.refs.Add(pend)
	if next.Tail.Offset > st.Size || !model.Unchanged(fsys, model.HistoryPath, st) {
		// Written while it was read: counted, not kept.
		next = nil
	}
	return hc, next, true
}

// memoryPrint is the fingerprint of what a memory folder holds: every
// name under it (dot-folders aside, which the scan skips too) with its
// type, and each file's stamp (size, mtime, change time, inode). ok is
// false when the folder cannot vouch for itself: a symbolic link (its
// target may change while the link does not), a file without a change
// time, or an error.
//
// files counts the folder's memory files as CountMemory does, from the
// same walk: a folder that vouches for itself holds no link and listed
// without an error, so each topic file's own information is the one
// CountMemory looks up (scanMemory then need not walk it again).
func memoryPrint(fsys fs.FS, dir string) (print [sha256.Size]byte, files int, ok bool) {
	if info, err := fs.Lstat(fsys, dir); err != nil || !info.IsDir() {
		return print, 0, false
	}
	h := sha256.New()
	ok = true
	var b [8]byte
	num := func(n int64) {
		binary.LittleEndian.PutUint64(b[:], uint64(n))
		h.Write(b[:])
	}
	err := fs.WalkDir(fsys, dir, func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.Type()&fs.ModeSymlink != 0 {
			ok = false
			return fs.SkipAll
		}
		if d.IsDir() && name != dir && strings.HasPrefix(d.Name(), ".") {
			return fs.SkipDir
		}
		h.Write([]byte(name))
		h.Write([]byte{0})
		num(int64(d.Type()))
		if d.IsDir() {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			ok = false
			return fs.SkipAll
		}
		st := model.StampOf(info)
		if !st.Known() {
			ok = false
			return fs.SkipAll
		}
		num(st.Size)
		num(st.ModTime)
		num(st.ChangeTime)
		num(int64(st.ID.Dev))
		num(int64(st.ID.Ino))
		if info.Mode().IsRegular() && model.IsMemoryTopicPath(strings.TrimPrefix(name, dir+"/")) {
			files++
		}
		return nil
	})
	if err != nil || !ok {
		return print, 0, false
	}
	h.Sum(print[:0])
	return print, files, true
}

// scanMemory counts a memory folder and its team/ folder; files, when
// not negative, is its memory files' count (CountMemory's) already
// taken.
func scanMemory(fsys fs.FS, dir string, files int) cachedMemory {
	var m cachedMemory
	md, p := model.ScanMemoryDir(fsys, dir, func(f *model.MemoryFile) {
		if f.Invalid {
			m.Invalid++
		}
	})
	m.Files = files
	if files < 0 {
		m.Files = CountMemory(fsys, dir).Files
	}
	m.Problems = append(m.Problems, p...)
	if !md.Exists {
		return m
	}
	m.Exists = true
	if md.Index != nil {
		m.IndexFiles++
		m.IndexLines += len(md.Index.Lines)
		m.IndexEntries += len(md.Index.Entries())
	}
	_, p = model.ScanMemoryDir(fsys, dir+"/team", func(*model.MemoryFile) { m.Team++ })
	m.Problems = append(m.Problems, p...)
	return m
}

// scanMemoryCached is scanMemory answered from cache when the folder's
// fingerprint is the one cached (hit); next receives what to keep.
// Without a cache (next nil) it is scanMemory.
func scanMemoryCached(fsys fs.FS, dir string, cache, next map[string]cachedMemory) (m cachedMemory, hit bool) {
	if next == nil {
		return scanMemory(fsys, dir, -1), false
	}
	print, files, ok := memoryPrint(fsys, dir)
	if c, in := cache[dir]; ok && in && c.Print == print {
		next[dir] = c
		return c, true
	}
	if !ok {
		files = -1
	}
	m = scanMemory(fsys, dir, files)
	if ok {
		// Kept under the fingerprint taken before the scan: a file that
		// changed meanwhile has another change time now, so the entry can
		// never match what the folder holds after such a change.
		m.Print = print
		next[dir] = m
	}
	return m, false
}

// sameHistory says the history kept is the one loaded: the file was
// unchanged (nothing to write back).
func sameHistory(a, b *cachedHistory) bool {
	return a != nil && b != nil && a.Stamp.Equal(b.Stamp) && a.Tail == b.Tail
}

package model

import (
	"io/fs"
	"sync"
	"sync/atomic"
)

// The memory-file memo: the topic files a memory folder read parsed,
// kept by the file's identity (device and inode), its path in its folder,
// and its size, mtime and status-change time, so that the readers of one
// folder in a process (the project panes' store, the Overview's store,
// the loads' read, stat's scan, a reload after a file event) open and
// parse each unchanged file once. A file is taken from the memo only when
// its listing's lstat says it is the same regular file, with the same
// size, mtime and ctime, as the one read: any write (which moves mtime
// and ctime), a rename over it (another inode) or a removal reads it
// again. Only files that read without a problem are kept.
//
// The memo keeps one entry per file (a changed file replaces its entry)
// and at most memoMaxBytes of files' bytes: past that it starts again
// empty.
type memoEntry struct {
	size, mtime, ctime int64
	file               *MemoryFile
}

type memoID struct {
	dev, ino uint64
	rel      string
}

const memoMaxBytes = 32 << 20

var fileMemo struct {
	sync.Mutex
	m     map[memoID]memoEntry
	bytes int64
}

// memoHits counts the files the memo answered (the tests').
var memoHits atomic.Int64

// memoKey is the memo's key of rel as info (an lstat of it) shows it; ok
// is false when info says nothing of the file's identity.
func memoKey(info fs.FileInfo, rel string) (id memoID, e memoEntry, ok bool) {
	dev, ino, ok := fileIdentity(info)
	if !ok || !info.Mode().IsRegular() {
		return id, e, false
	}
	return memoID{dev: dev, ino: ino, rel: rel}, memoEntry{size: info.Size(), mtime: info.ModTime().UnixNano(), ctime: changeTimeOf(info)}, true
}

// memoGet is a copy of the file kept under id as stamped by want, or nil.
func memoGet(id memoID, want memoEntry) *MemoryFile {
	fileMemo.Lock()
	e, ok := fileMemo.m[id]
	fileMemo.Unlock()
	if !ok || e.size != want.size || e.mtime != want.mtime || e.ctime != want.ctime {
		return nil
	}
	memoHits.Add(1)
	cp := *e.file
	return &cp
}

// memoPut keeps a copy of f, read after the lstat that made id and st,
// when what was read has the size and mtime st says (else the file
// changed between the two and is not kept).
func memoPut(id memoID, st memoEntry, f *MemoryFile) {
	if f == nil || f.Size != st.size || f.ModTime.UnixNano() != st.mtime || int64(len(f.raw)) != st.size {
		return
	}
	cp := *f
	st.file = &cp
	fileMemo.Lock()
	defer fileMemo.Unlock()
	if fileMemo.m == nil || fileMemo.bytes+st.size > memoMaxBytes {
		fileMemo.m, fileMemo.bytes = map[memoID]memoEntry{}, 0
	}
	if old, ok := fileMemo.m[id]; ok {
		fileMemo.bytes -= old.size
	}
	fileMemo.m[id] = st
	fileMemo.bytes += st.size
}

// forgetMemo empties the memo (the tests').
func forgetMemo() {
	fileMemo.Lock()
	fileMemo.m, fileMemo.bytes = nil, 0
	fileMemo.Unlock()
}

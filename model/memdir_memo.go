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
// again. Only files that read without a problem are kept parsed (one
// whose frontmatter has a problem keeps its bytes: memdir_share.go). A
// file taken from the memo is a shallow copy of the one kept: its
// Metadata map and Modified are shared by every reader, so no reader may
// change them in place (none does: a change goes through the store's
// write and a read of the file again).
//
// The memo keeps one entry per file (a changed file replaces its entry)
// and at most memoMaxBytes of files' bytes: past that it starts again
// empty. A scan (ScanMemoryDir: memscope stat, the Overview's counts),
// which holds one file at a time, takes what the memo has but adds
// nothing to it (bytes another reader kept for it it takes out).
type memoEntry struct {
	size, mtime, ctime int64
	file               *MemoryFile
	// raw, when file is nil, is the file's bytes as another reader
	// read them (KeepMemoryRead), not parsed yet: the first reader of
	// its folder takes them (memoTakeBytes).
	raw []byte
	// done is open while the file is being read by the reader that
	// claimed it (memoClaim): the others wait for that read, not read
	// it beside it (the app's project panes and Overview read the open
	// project's folder at the same moment).
	done chan struct{}
}

type memoID struct {
	dev, ino uint64
	rel      string
}

const memoMaxBytes = 32 << 20

var fileMemo struct {
	sync.Mutex
	m     map[memoID]*memoEntry
	bytes int64
}

// memoWaitHook, when set, is called as a read waits for another's (the
// tests').
var memoWaitHook func()

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

func (e *memoEntry) stamped(want memoEntry) bool {
	return e.size == want.size && e.mtime == want.mtime && e.ctime == want.ctime
}

// memoClaim is a copy of the file kept under id as stamped by want; or,
// when none is, a claim (non-nil) says the caller reads it and must hand
// what it read and the claim to memoDone (a file another reader is
// reading as stamped is waited for). With claim false nothing is
// claimed: the caller reads a file the memo does not have and keeps it
// not (a scan, which holds one file at a time).
func memoClaim(id memoID, want memoEntry, claim bool) (f *MemoryFile, claimed *memoEntry) {
	for {
		fileMemo.Lock()
		e, ok := fileMemo.m[id]
		if ok && e.stamped(want) && e.raw == nil {
			if e.file != nil {
				fileMemo.Unlock()
				memoHits.Add(1)
				cp := *e.file
				return &cp, nil
			}
			done := e.done
			fileMemo.Unlock()
			if memoWaitHook != nil {
				memoWaitHook()
			}
			<-done
			continue // kept, or dropped: looked up again
		}
		if !claim {
			fileMemo.Unlock()
			return nil, nil
		}
		if fileMemo.m == nil {
			fileMemo.m = map[memoID]*memoEntry{}
		}
		fileMemo.bytes -= keptBytes(e)
		// An older stamp's read in flight is replaced: its reader still
		// wakes its own waiters (memoDone), and keeps nothing.
		w := want
		w.file, w.done = nil, make(chan struct{})
		fileMemo.m[id] = &w
		fileMemo.Unlock()
		return nil, &w
	}
}

// memoDone ends the claimed read c: f (nil when it did not read
// cleanly) is kept when what was read has the size and mtime of the
// claim's lstat (else the file changed between the two and is not kept)
// and the claim is still the memo's, and the readers waiting for it go
// on.
func memoDone(id memoID, c *memoEntry, f *MemoryFile) {
	keep := f != nil && f.Size == c.size && f.ModTime.UnixNano() == c.mtime && int64(len(f.raw)) == c.size
	fileMemo.Lock()
	defer fileMemo.Unlock()
	defer close(c.done)
	if fileMemo.m[id] != c {
		return // forgotten meanwhile, or claimed again for a newer stamp
	}
	if !keep {
		delete(fileMemo.m, id)
		return
	}
	if fileMemo.bytes+c.size > memoMaxBytes {
		// Full: start again with this file alone (claims in flight stay,
		// for their readers to end).
		for k, o := range fileMemo.m {
			if o.file != nil || o.raw != nil {
				delete(fileMemo.m, k)
			}
		}
		fileMemo.bytes = 0
	}
	cp := *f
	c.file = &cp
	fileMemo.bytes += c.size
}

// forgetMemo empties the memo (the tests'): claims in flight end as
// their readers end them, keeping nothing.
func forgetMemo() {
	fileMemo.Lock()
	fileMemo.m, fileMemo.bytes = nil, 0
	fileMemo.Unlock()
}

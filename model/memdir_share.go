package model

import (
	"bytes"
	"strings"
	"time"
)

// Memory files another reader read: a reader that reads the topic files
// of the home's memory folders whole for its own ends (the secrets
// count of the app's Overview, which runs before the Overview's
// inventory: engine/overview) hands the bytes to the memory-file memo
// (memdir_memo.go) as it read them, kept by the file's identity and the
// stamp of its open; a memory folder's reader then parses a file whose
// lstat shows it unchanged from those bytes instead of opening it again
// (issue 28: a cold start of the app read each of W's 2 585 memory
// files twice). A file written, replaced or removed since has another
// stamp and is read again. A scan (ScanMemoryDir) takes the bytes out
// of the memo as it parses them, so the memo holds no copy of a file
// past the reader it was kept for; a read that keeps what it reads
// (ReadMemoryDir) keeps the file parsed in their place.

// KeepMemoryRead keeps data, the whole of the home's file name (a
// topic file of a project's memory folder, "projects/<slug>/memory/
// <rel>", or its MEMORY.md) as the open that read it stamped it (st,
// from its fstat), for the memory folder's readers. Only a file whose identity st knows,
// that data holds whole and that a memory folder's read would read
// whole (MaxDocumentBytes) is kept, and only while the memo has room
// (memoMaxBytes) and holds nothing for the file as st stamps it; data
// is copied (the caller may reuse it).
func KeepMemoryRead(name string, st FileStamp, data []byte) {
	rel, ok := homeMemoryTopic(name)
	if !ok || !st.ID.Known || st.Size != int64(len(data)) || st.Size > MaxDocumentBytes {
		return
	}
	id := memoID{dev: st.ID.Dev, ino: st.ID.Ino, rel: rel}
	want := memoEntry{size: st.Size, mtime: st.ModTime, ctime: st.ChangeTime}
	fileMemo.Lock()
	defer fileMemo.Unlock()
	e, ok := fileMemo.m[id]
	if ok && (e.stamped(want) || e.file == nil && e.raw == nil) {
		return // kept already, or being read by a reader that keeps it
	}
	if fileMemo.bytes-keptBytes(e)+st.Size > memoMaxBytes {
		return
	}
	if fileMemo.m == nil {
		fileMemo.m = map[memoID]*memoEntry{}
	}
	fileMemo.bytes -= keptBytes(e)
	if rel == memoIndexRel {
		// MEMORY.md is kept as a read of the index keeps it
		// (readIndexBytes): its bytes, parsed again by each reader.
		want.file = &MemoryFile{raw: bytes.Clone(data), Size: st.Size, ModTime: time.Unix(0, st.ModTime)}
	} else {
		want.raw = bytes.Clone(data)
	}
	fileMemo.m[id] = &want
	fileMemo.bytes += st.Size
}

// memoDoneUnparsed ends the claimed read c of a file that read with a
// problem (f nil: it did not read): the file is not kept parsed (each
// reader reports the problem under its own name), but its bytes are,
// when f read whole as the claim's lstat stamped it, for the reader
// after (KeptMemoryRead, memoTakeBytes), and the readers waiting for it
// go on (to read it themselves, as before).
func memoDoneUnparsed(id memoID, c *memoEntry, f *MemoryFile) {
	fileMemo.Lock()
	defer fileMemo.Unlock()
	defer close(c.done)
	if fileMemo.m[id] != c {
		return
	}
	if f == nil || f.Size != c.size || f.ModTime.UnixNano() != c.mtime || int64(len(f.raw)) != c.size || fileMemo.bytes+c.size > memoMaxBytes {
		delete(fileMemo.m, id)
		return
	}
	c.raw = f.raw
	fileMemo.bytes += c.size
}

// KeptMemoryRead is the bytes the memo holds of the home's file name
// (as KeepMemoryRead names it) as the open st stamps it: a memory
// folder's read of it (the open project's, before the secrets count)
// or another reader's kept bytes. ok is false when it holds none. The
// bytes are shared: not to be changed.
func KeptMemoryRead(name string, st FileStamp) (data []byte, ok bool) {
	rel, ok := homeMemoryTopic(name)
	if !ok || !st.ID.Known {
		return nil, false
	}
	id := memoID{dev: st.ID.Dev, ino: st.ID.Ino, rel: rel}
	fileMemo.Lock()
	defer fileMemo.Unlock()
	e, ok := fileMemo.m[id]
	if !ok || !e.stamped(memoEntry{size: st.Size, mtime: st.ModTime, ctime: st.ChangeTime}) {
		return nil, false
	}
	switch {
	case e.file != nil && int64(len(e.file.raw)) == st.Size:
		data = e.file.raw
	case e.raw != nil:
		data = e.raw
	default:
		return nil, false
	}
	memoHits.Add(1)
	return data, true
}

// keptBytes is what e (nil: none) counts in the memo's bytes.
func keptBytes(e *memoEntry) int64 {
	if e != nil && (e.file != nil || e.raw != nil) {
		return e.size
	}
	return 0
}

// homeMemoryTopic is the memo's path (memoID.rel) of the home's file
// name when it is a topic file of a project's memory folder (its path
// in the folder) or the folder's MEMORY.md (memoIndexRel).
func homeMemoryTopic(name string) (string, bool) {
	parts := strings.SplitN(name, "/", 4)
	switch {
	case len(parts) != 4 || parts[0] != "projects" || parts[1] == "" || parts[2] != "memory":
		return "", false
	case parts[3] == MemoryIndexName:
		return memoIndexRel, true
	case IsMemoryTopicPath(parts[3]):
		return parts[3], true
	}
	return "", false
}

// memoTakeBytes is the bytes another reader kept (KeepMemoryRead) of
// the file id as want stamps it, taken out of the memo when take (a
// scan's: the memo holds no file past the reader it was kept for, the
// Overview's stat); nil when it holds none.
func memoTakeBytes(id memoID, want memoEntry, take bool) []byte {
	fileMemo.Lock()
	defer fileMemo.Unlock()
	e, ok := fileMemo.m[id]
	if !ok || e.raw == nil || !e.stamped(want) {
		return nil
	}
	if take {
		delete(fileMemo.m, id)
		fileMemo.bytes -= e.size
	}
	memoHits.Add(1)
	return e.raw
}

// parseKept parses data, the topic file rel (name in its file system)
// as another reader read it, stamped mtime, as readHeldMemoryFile
// parses what it reads.
func parseKept(name, rel string, data []byte, mtime int64) (*MemoryFile, *Problem) {
	f, prob := ParseMemoryFile(rel, data)
	f.ModTime = time.Unix(0, mtime)
	if prob != nil {
		prob.File = name
	}
	return f, prob
}

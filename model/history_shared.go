package model

import (
	"io/fs"
	"reflect"
	"slices"
	"sync"
	"time"
)

// historyShareFor is how long the last whole read of a history file is
// kept for another whole read of the same version: at start-up the
// app's History pane and the Overview's cleanup forecast each read the
// whole file (29 MB on the benchmark home W) within a second or two of
// each other. After it the memory is given back.
const historyShareFor = 20 * time.Second

// historySettle: a read is kept only of a file last written (mtime and
// change time) this long before: a write after it moves both well past
// the kept stamp, even where the file times are those of a coarse clock
// (a rewrite to the same size within one tick would otherwise keep the
// stamp).
var historySettle = time.Second

// historyShare is the last whole read of a history file. Whole reads
// take its lock one at a time, so a second read that starts while the
// first runs waits and takes its result.
var historyShare struct {
	mu   sync.Mutex
	last *historyWhole
	// gen tells the timer that drops last whether it is still the one it
	// was set for.
	gen int
}

// historyWhole is a whole read of the file path of fsys, whose stamp
// (size, mtime, change time, inode) was st before the read and after
// it. Its entries are never handed out: each taker gets a copy.
type historyWhole struct {
	fsys  fs.FS
	path  string
	st    FileStamp
	read  HistoryRead
	state TailState
}

// sameFS says a and b are the same file system, without comparing
// values whose type cannot be compared (== would panic).
func sameFS(a, b fs.FS) bool {
	ta, tb := reflect.TypeOf(a), reflect.TypeOf(b)
	return ta != nil && ta == tb && ta.Comparable() && a == b
}

// wholeRead reads path whole for t (its State is the zero state), or
// takes the last whole read of the same version of the file: one whose
// stamp before and after it is the file's now, on a platform that gives
// the change time, of a file last written historySettle before that
// read (so a rewrite to the same size is not taken for it).
// read does the read.
func (t *HistoryTail) wholeRead(fsys fs.FS, path string, read func() (HistoryRead, error)) (HistoryRead, error) {
	historyShare.mu.Lock()
	defer historyShare.mu.Unlock()
	info, err := fs.Stat(fsys, path)
	if err != nil {
		return read()
	}
	st := StampOf(info)
	if w := historyShare.last; w != nil && st.Known() && w.path == path && sameFS(w.fsys, fsys) && w.st.Same(st) {
		t.State, t.hd = w.state, newHistoryDecoder(make(map[string]string))
		out := w.read
		out.Entries, out.Problems = slices.Clone(w.read.Entries), slices.Clone(w.read.Problems)
		return out, nil
	}
	out, err := read()
	now := time.Now()
	if err != nil || !st.Known() || now.Sub(time.Unix(0, st.ModTime)) < historySettle || now.Sub(time.Unix(0, st.ChangeTime)) < historySettle || !Unchanged(fsys, path, st) {
		return out, err
	}
	w := &historyWhole{fsys: fsys, path: path, st: st, state: t.State, read: out}
	w.read.Entries, w.read.Problems = slices.Clone(out.Entries), slices.Clone(out.Problems)
	historyShare.last = w
	historyShare.gen++
	gen := historyShare.gen
	time.AfterFunc(historyShareFor, func() {
		historyShare.mu.Lock()
		if historyShare.gen == gen {
			historyShare.last = nil
		}
		historyShare.mu.Unlock()
	})
	return out, nil
}

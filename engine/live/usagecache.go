package live

import (
	"io/fs"
	"slices"
	"time"

	"github.com/memscope/memscope/engine/diskcache"
	"github.com/memscope/memscope/model"
)

// UsageKind is the on-disk cache (Options.Cache) of what the tracker
// keeps of the transcripts it follows for the 5-hour block only (written
// within the lookback, no session of theirs running): their usage
// entries within the lookback, earliest timestamp and where their read
// stopped. A start reads none of those files that are as they were
// (size, modification and change times, inode), and only what was
// appended to one that grew (model.TailLines checks its head).
const UsageKind = "live-usage.1"

// usageEntry is one transcript's entry in the cache.
type usageEntry struct {
	// Stamp is the file's information when it was read (no head hash).
	Stamp model.FileStamp
	Tail  model.TailState
	Usage []UsageEntry
	First time.Time
	// Problems are what the reads of the file found (bad lines).
	Problems []model.Problem
}

// settled is how long before a read a file's last change must be for
// what was read to be kept on disk (engine/loads has the same rule): a
// change time moves by the kernel clock's tick, and a write in the same
// tick as the one stamped would leave the stamp as it was.
const settled = time.Second

// loadUsage reads the cache once, at the first snapshot; nil without a
// cache.
func (t *Tracker) loadUsage() {
	if t.o.Cache == nil || t.disk != nil {
		return
	}
	t.disk, _ = diskcache.Load[map[string]usageEntry](t.o.Cache, UsageKind, diskcache.Name(UsageKind, t.o.Home.Dir))
	if t.disk == nil {
		t.disk = map[string]usageEntry{}
	}
}

// seed is a usage-only follower of f started from the cache's entry:
// as read when the file is unchanged, from where the read stopped when it
// only grew (same inode; model.TailLines checks its head); nil otherwise
// (no entry; replaced, truncated, rewritten in place: read from the
// start).
func (t *Tracker) seed(f model.TranscriptFile) *followed {
	e, ok := t.disk[f.Path]
	if !ok {
		return nil
	}
	delete(t.disk, f.Path)
	info, err := fs.Stat(t.o.Home.FS, f.Path)
	if err != nil {
		return nil
	}
	fw := &followed{file: f, usageOnly: true, tail: e.Tail, usage: slices.Clone(e.Usage), first: e.First, probs: slices.Clone(e.Problems)}
	switch cur := model.StampOf(info); {
	case cur.Same(e.Stamp):
		fw.kept = &e
	case cur.ID == e.Stamp.ID && cur.ID.Known && cur.Size > e.Stamp.Size:
	default:
		return nil
	}
	return fw
}

// stampBefore is f's stamp taken before a read, when what the read gives
// can be kept on disk: the platform gives a change time, it is the
// version the listing saw, and it changed last settled before now.
func (t *Tracker) stampBefore(f model.TranscriptFile) (model.FileStamp, bool) {
	if t.o.Cache == nil {
		return model.FileStamp{}, false
	}
	info, err := fs.Stat(t.o.Home.FS, f.Path)
	if err != nil {
		return model.FileStamp{}, false
	}
	st := model.StampOf(info)
	return st, st.Known() && st.Size == f.Size && st.ModTime == f.ModTime.UnixNano() &&
		t.wall().Sub(time.Unix(0, st.ChangeTime)) >= settled
}

// keep notes what a read of fw gave, stamped st before it,
// for the cache: only a read to the file's end (an unterminated last
// line left for later) of a file still as stamped.
func (t *Tracker) keep(fw *followed, st model.FileStamp, more bool) {
	if more || fw.tail.Size != st.Size || !model.Unchanged(t.o.Home.FS, fw.file.Path, st) {
		return
	}
	fw.kept = &usageEntry{Stamp: st, Tail: fw.tail, First: fw.first, Problems: fw.probs}
	t.diskDirty = true
}

// saveUsage writes the entries of the followers last read while no
// session of theirs could run, when one was read since the last save (a
// cache not written costs the next start its reads only).
func (t *Tracker) saveUsage() {
	if t.o.Cache == nil || !t.diskDirty {
		return
	}
	t.diskDirty = false
	out := map[string]usageEntry{}
	for p, fw := range t.files {
		if fw.kept != nil {
			e := *fw.kept
			e.Usage = fw.usage
			out[p] = e
		}
	}
	_ = diskcache.Save(t.o.Cache, UsageKind, diskcache.Name(UsageKind, t.o.Home.Dir), out)
}

package secrets

import (
	"io/fs"
	"path"
	"sync/atomic"
	"time"

	"github.com/memscope/memscope/engine/diskcache"
	"github.com/memscope/memscope/model"
)

// processStart is when this process started (nanoseconds since 1970),
// before any stamp it takes: every stamp a run's cache compares was
// taken at or after it (the home's listing, model.ListOnce, stamps a file
// once for its callers, but in this process). Tests move it.
var processStart atomic.Int64

func init() { processStart.Store(time.Now().UnixNano()) }

// settled says a file stamped st in this process had, then, not changed
// for model.WriteOnceSettle: its change time, which every write moves
// and no program sets back, had settled before the process started. A
// later write gives the file another change time, so a look at the file
// (an lstat: size, modification and change times, inode,
// FileStamp.Same) tells whether it is still the version counted, without
// opening it to hash its head (which the stamp keeps for the platforms
// without a change time).
func settled(st model.FileStamp) bool {
	return st.Known() && st.ID.Known && processStart.Load()-st.ChangeTime >= int64(model.WriteOnceSettle)
}

// settledHits answers from kept the files of units at the indexes home
// that are outside the write-once folders (those are
// diskcache.PerFileFolders') and whose entry is Settled, when an lstat
// of the file (settledInfo) is Same as the entry's stamp: a warm run opens none of
// them (on W 2 430 memory files and 631 transcripts, each an open, a
// read of its head and a close to stamp). answered[j] is set for each.
func settledHits(fsys fs.FS, units []unit, home []int, kept map[string]diskcache.Entry[counted]) (answered []bool, n int) {
	answered = make([]bool, len(home))
	if len(kept) == 0 {
		return answered, 0
	}
	model.ParallelN(len(home), 0, func(j int) {
		u := &units[home[j]]
		e, ok := kept[u.name]
		if !ok || !e.Value.Settled || model.WriteOnceFolder(path.Dir(u.name)) {
			return
		}
		info, err := settledInfo(fsys, u)
		if err == nil && info.Mode().IsRegular() && model.StampOf(info).Same(e.Stamp) {
			answered[j] = true
		}
	})
	for _, a := range answered {
		if a {
			n++
		}
	}
	return answered, n
}

// settledInfo is the information settledHits compares u's entry by:
// the listing's (model.ListedInfo, the one stat of the file a ListOnce's
// readers share: a warm start stat'ed W's transcripts and memory files
// again here, some 780) when fsys's listing of its folder has it as a
// regular file, else u's listed entry's, else a stat through fsys
// (which follows a link by the home's rule).
func settledInfo(fsys fs.FS, u *unit) (fs.FileInfo, error) {
	if info, ok := model.ListedInfo(fsys, u.name); ok {
		return info, nil
	}
	if u.ent != nil && u.ent != trustedEnt {
		return u.ent.Info()
	}
	return fs.Stat(fsys, u.name)
}

// markSettled sets Settled on the entries to keep (kept's of the files
// same, and next's: keptChanges) outside the write-once folders (all
// stamped in this process: a hit's stamp, a miss's from its read) whose
// change time had settled (settled); it says whether it set any. An
// entry of kept it sets is put in next so marked (kept, shared, is not
// changed).
func markSettled(kept keptCounts, same []string, next map[string]diskcache.Entry[counted]) bool {
	changed := false
	for name, e := range next {
		if mark(name, e) {
			e.Value.Settled = true
			next[name] = e
			changed = true
		}
	}
	for _, name := range same {
		if e := kept[name]; mark(name, e) {
			e.Value.Settled = true
			next[name] = e
			changed = true
		}
	}
	return changed
}

// mark says the entry e of the file name is to be marked Settled.
func mark(name string, e diskcache.Entry[counted]) bool {
	return !e.Value.Settled && !model.WriteOnceFolder(path.Dir(name)) && settled(e.Stamp)
}

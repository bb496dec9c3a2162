package diskcache

import (
	"io/fs"
	"maps"
	"sync"
	"time"

	"github.com/memscope/memscope/model"
)

// Entry is what a cache keeps of one file: Value, computed from the
// version of the file whose stamp is Stamp.
type Entry[T any] struct {
	Stamp model.FileStamp
	Value T
	// Settled says Stamp was taken model.WriteOnceSettle or more after
	// the file's change time, and the platform gives the change time and
	// identity: any write after the stamp moves the change time past
	// Stamp's (even on a file system whose clock ticks coarsely), so the
	// next run compares the file's information with Stamp (one stat)
	// instead of opening the file and hashing its head (statSame).
	Settled bool
}

// clock is the time a run stamps at (the tests').
var clock = time.Now

// settledAt says st, taken after now, is settled (Entry.Settled).
func settledAt(st model.FileStamp, now time.Time) bool {
	return st.ChangeTime != 0 && st.ID.Known && now.Sub(time.Unix(0, st.ChangeTime)) >= model.WriteOnceSettle &&
		now.Sub(time.Unix(0, st.ModTime)) >= model.WriteOnceSettle
}

// statSame says the file name is, by its information alone, the version
// a settled entry's stamp names: a regular file of the same size,
// modification and change time and identity. Through a ListOnce whose
// listing has the file, its entry's information answers (ListedInfo),
// the one stat the moment's readers share.
func statSame(fsys fs.FS, name string, st model.FileStamp) bool {
	info, ok := model.ListedInfo(fsys, name)
	if !ok {
		var err error
		if info, err = fs.Stat(fsys, name); err != nil || !info.Mode().IsRegular() {
			return false
		}
	}
	now := model.StampOf(info)
	return now.Size == st.Size && now.ModTime == st.ModTime && now.ChangeTime == st.ChangeTime && now.ID == st.ID
}

// PerFile is the one rule by which memscope reuses what it computed from
// a file in an earlier run (stat's summaries, the sessions report's
// scans): a file's entry answers only when the file's stamp now
// (model.StampFile, head hash included) is Equal to the entry's, or,
// for a settled entry (Entry.Settled), when the file's information
// (size, times, identity: one stat) is the entry's stamp's. The
// other files are computed by compute (given their indexes into names,
// in one call, so it can use its workers); an answer is kept in next
// only when the file was stamped before it was read, was not written
// meanwhile (model.Unchanged) and whole says the value covers the file
// of that size whole (no read failure, every byte counted). out is in
// the order of names; hits counts the answers from cache. Without a
// cache (next nil) every file is computed.
func PerFile[T any](fsys fs.FS, names []string, cache, next map[string]Entry[T], compute func(miss []int) []T, whole func(v T, size int64) bool) (out []T, hits int) {
	return perFile(fsys, names, cache, next, nil, false, ignoreStamps(compute), whole)
}

// Stamping computes the values of the files at the indexes miss, as
// PerFile's compute does, and stamps each file it opens from that open,
// before reading it (model.StampOpened), handing the stamp to stamp (j
// the file's index in miss; it may be called from several goroutines,
// each j once). A file it does not stamp is not kept.
type Stamping[T any] func(miss []int, stamp func(j int, st model.FileStamp)) []T

// PerFileStamping is PerFile for a compute that stamps the files it
// reads (Stamping): a file that has no entry in cache, which no stamp
// taken before could answer for, is not stamped first and then opened
// again to be read (two opens, its head read twice), but stamped from
// the open that reads it. The rule is PerFile's: stamped before the
// read, Unchanged after it.
func PerFileStamping[T any](fsys fs.FS, names []string, cache, next map[string]Entry[T], compute Stamping[T], whole func(v T, size int64) bool) (out []T, hits int) {
	return perFile(fsys, names, cache, next, nil, true, unchecked(compute), whole)
}

// Checking is a Stamping that also hands after, for a file it stamped
// (j, after stamp(j, ...) was called for it, from the same goroutine),
// the file's information once its read is done: an fstat of the
// descriptor it read (model.StampOf, no head hash). perFile compares it
// with the file's stamp (FileStamp.Same) instead of asking the file by
// its name again (model.Unchanged: one stat a file read, some 13 900 a
// cold start); a file written during the read is not kept either way,
// and a file renamed over after its open (the descriptor's is the old
// file) is told by its identity at the next run's stamp. A file it
// hands no after for is asked by its name, as PerFile does.
type Checking[T any] func(miss []int, stamp, after func(j int, st model.FileStamp)) []T

// PerFileFoldersChecking is PerFileFoldersStamping for a compute that
// also checks each file after its read (Checking). With same (same[i]
// for names[i]; len(same) is len(names)), next keeps only the entries
// that are not cache's as they are: a file cache answers with its entry
// unchanged is marked in same instead of being copied into next, and the
// entries to keep are next's and cache's of the files marked (a warm run
// whose files are all answered builds no second map of them); nil same
// puts every answer in next.
func PerFileFoldersChecking[T any](fsys fs.FS, names []string, cache, next map[string]Entry[T], same []bool, folders Folders, now time.Time, compute Checking[T], whole func(v T, size int64) bool) (out []T, hits int, kept Folders) {
	return perFileFolders(fsys, names, cache, next, same, folders, now, true, compute, whole)
}

func ignoreStamps[T any](compute func(miss []int) []T) Checking[T] {
	return func(miss []int, _, _ func(int, model.FileStamp)) []T { return compute(miss) }
}

// unchecked is compute, a Stamping, as a Checking that hands no after.
func unchecked[T any](compute Stamping[T]) Checking[T] {
	return func(miss []int, stamp, _ func(int, model.FileStamp)) []T { return compute(miss, stamp) }
}

// The states of a file's check after its read (perFile).
const (
	notChecked int8 = iota
	checkedSame
	checkedChanged
)

// perFile is PerFile; selfStamped, the files without an entry are
// stamped by compute (PerFileStamping); with same, an answer whose entry
// is kept unchanged is handed to same (its index in names), not put in
// next (PerFileFoldersChecking with same).
func perFile[T any](fsys fs.FS, names []string, cache, next map[string]Entry[T], same func(i int), selfStamped bool, compute Checking[T], whole func(v T, size int64) bool) (out []T, hits int) {
	if next == nil {
		all := make([]int, len(names))
		for i := range all {
			all[i] = i
		}
		none := func(int, model.FileStamp) {}
		return compute(all, none, none), 0
	}
	out = make([]T, len(names))
	stamps := make([]model.FileStamp, len(names))
	stamped := make([]bool, len(names))
	// Every stamp is taken after now.
	now := clock()
	// The stamps (an lstat, an open and a 4 KiB read each; a stat for a
	// settled entry) are taken on every CPU: on a warm run they are most
	// of the work.
	model.ParallelN(len(names), 0, func(i int) {
		c, ok := cache[names[i]]
		if selfStamped && !ok {
			return // stamped by compute
		}
		if ok && c.Settled && statSame(fsys, names[i], c.Stamp) {
			stamps[i], stamped[i] = c.Stamp, true
			return
		}
		if st, err := model.StampFile(fsys, names[i]); err == nil {
			stamps[i], stamped[i] = st, true
		}
	})
	var miss []int
	for i, name := range names {
		if stamped[i] {
			if c, ok := cache[name]; ok && c.Stamp.Equal(stamps[i]) {
				out[i] = c.Value
				hits++
				if settled := c.Settled || settledAt(c.Stamp, now); same == nil || settled != c.Settled {
					c.Settled = settled
					next[name] = c
					continue
				}
				same(i)
				continue
			}
		}
		miss = append(miss, i)
	}
	stamp := func(j int, st model.FileStamp) {
		if i := miss[j]; !stamped[i] {
			stamps[i], stamped[i] = st, true
		}
	}
	if !selfStamped {
		stamp = func(int, model.FileStamp) {}
	}
	checked := make([]int8, len(names))
	after := func(j int, st model.FileStamp) {
		if i := miss[j]; stamped[i] {
			checked[i] = checkedChanged
			if st.Same(stamps[i]) {
				checked[i] = checkedSame
			}
		}
	}
	for j, v := range compute(miss, stamp, after) {
		i := miss[j]
		out[i] = v
		if stamped[i] && whole(v, stamps[i].Size) && unchangedAfter(fsys, names[i], stamps[i], checked[i]) {
			next[names[i]] = Entry[T]{Stamp: stamps[i], Value: v, Settled: settledAt(stamps[i], now)}
		}
	}
	return out, hits
}

// unchangedAfter says the file name, stamped st before its read, was
// not written meanwhile: by its check after the read (Checking), else
// by its name now (model.Unchanged).
func unchangedAfter(fsys fs.FS, name string, st model.FileStamp, check int8) bool {
	if check != notChecked {
		return check == checkedSame
	}
	return model.Unchanged(fsys, name, st)
}

// Fill gathers the values of a per-file cache (the map[string]Entry[T]
// of one kind) that a shared pass computed (engine/homepass), to be kept
// as the pass's own run would keep them. Safe for concurrent use.
type Fill[T any] struct {
	mu   sync.Mutex
	kept map[string]Entry[T]
	add  map[string]Entry[T]
	// since is when the fill started: the stamps Add is given were taken
	// after it (Entry.Settled).
	since time.Time
}

// NewFill starts a fill over kept, the entries loaded from the cache,
// before the pass that fills it stamps any file.
func NewFill[T any](kept map[string]Entry[T]) *Fill[T] {
	return &Fill[T]{kept: kept, add: map[string]Entry[T]{}, since: clock()}
}

// Has says the cache answers for the file name at stamp st.
func (f *Fill[T]) Has(name string, st model.FileStamp) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	e, ok := f.kept[name]
	return ok && e.Stamp.Equal(st)
}

// Add keeps v for the file name read at stamp st.
func (f *Fill[T]) Add(name string, st model.FileStamp, v T) {
	f.mu.Lock()
	f.add[name] = Entry[T]{Stamp: st, Value: v, Settled: settledAt(st, f.since)}
	f.mu.Unlock()
}

// Added are the entries added, nil when none.
func (f *Fill[T]) Added() map[string]Entry[T] {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.add) == 0 {
		return nil
	}
	return f.add
}

// Merged is the cache loaded with the entries added over it (nil when
// none were added: nothing to save).
func (f *Fill[T]) Merged() map[string]Entry[T] {
	add := f.Added()
	if add == nil {
		return nil
	}
	out := make(map[string]Entry[T], len(f.kept)+len(add))
	maps.Copy(out, f.kept)
	maps.Copy(out, add)
	return out
}

// Filling is a Fill of the per-file cache of kind for the home at
// homeDir (its map[string]Entry[T] file), loaded from s and saved back.
type Filling[T any] struct {
	*Fill[T]
	save func(map[string]Entry[T]) error
}

// LoadFill loads the cache file of kind for the home at homeDir (none:
// an empty fill).
func LoadFill[T any](s *Store, kind, homeDir string) *Filling[T] {
	return LoadFillAs[map[string]Entry[T]](s, kind, homeDir)
}

// LoadFillAs is LoadFill for a cache file that holds M, a map type of
// its own (one with a packed form: Packer), loaded and saved as M.
func LoadFillAs[M ~map[string]Entry[T], T any](s *Store, kind, homeDir string) *Filling[T] {
	name := Name(kind, homeDir)
	kept, _ := LoadShared[M](s, kind, name)
	return &Filling[T]{Fill: NewFill(map[string]Entry[T](kept)), save: func(m map[string]Entry[T]) error { return Save(s, kind, name, M(m)) }}
}

// Save writes the entries added over those loaded (nothing when none
// were added).
func (f *Filling[T]) Save() error {
	m := f.Merged()
	if m == nil {
		return nil
	}
	return f.save(m)
}

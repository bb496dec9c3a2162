package secrets

import (
	"maps"
	"time"

	"github.com/memscope/memscope/engine/diskcache"
	"github.com/memscope/memscope/model"
)

// countsKind names the counts' file in memscope's cache (2: keptCounts,
// packed).
const countsKind = "secrets.2"

// foldersKind names the file of the stamps of the write-once folders
// the counts cover (diskcache.PerFileFolders: the pastes and file
// history, some 11 000 files on W, are not opened while their folder is
// as it was).
const foldersKind = "secrets-folders.1"

// counted is what Counts keeps of one file across runs
// (diskcache.PerFile: valid while the file's stamp is the same).
// Its entry (diskcache.Entry[counted]) is at most 128 bytes, so a map
// of them holds each in place: a bigger one is held by a pointer, one
// allocation an entry put (a warm run puts every file's; Problems is
// therefore a pointer, which gob flattens: the file is as before).
type counted struct {
	Bytes    int64
	Kept     int
	Problems *[]model.Problem
	Read     bool
	// Settled says the entry's stamp was taken with the file's change
	// time settled (settled): an lstat Same as the stamp answers for it
	// (settledHits).
	Settled bool
}

// problems is c's problems (nil: none).
func (c counted) problems() []model.Problem {
	if c.Problems == nil {
		return nil
	}
	return *c.Problems
}

// problemsOf is p kept in a counted (nil when empty).
func problemsOf(p []model.Problem) *[]model.Problem {
	if len(p) == 0 {
		return nil
	}
	return &p
}

// result is c as a scan's result.
func (c counted) result() fileResult {
	return fileResult{read: c.Read, bytes: c.Bytes, kept: c.Kept, problems: c.problems()}
}

// Counts is Begin's Report (every count, copy and problem; no finding)
// for a scan of the whole home, with the counts of each file of the home
// kept in cache (nil: none) by the rule stat uses (diskcache.PerFile): a
// file whose stamp is the one it was counted at is not read again, so a
// second run reads no unchanged transcript. It holds no finding and
// reads no file twice. The files of a write-once folder (pastes, file
// history, tool results) whose folder is as it was stamped are not even
// opened (diskcache.PerFileFolders): a paste or backup the client adds
// changes its folder; nor is such a folder listed again while its stamp
// is the one it had at its last listing (trustedFolders). A file outside
// them whose entry was stamped with its change time settled is answered
// by an lstat Same as its stamp, not opened (settledHits). With
// o.Project set (findings kept by project) it is Begin's Report,
// uncached.
func Counts(o Options, cache *diskcache.Store) Report {
	if o.Project != "" || cache == nil {
		return countAll(o)
	}
	name := diskcache.Name(countsKind, o.Home.Dir)
	kept, _ := diskcache.LoadShared[keptCounts](cache, countsKind, name)
	fname := diskcache.Name(foldersKind, o.Home.Dir)
	folders, _ := diskcache.Load[diskcache.Folders](cache, foldersKind, fname)
	lname := diskcache.Name(listingsKind, o.Home.Dir)
	listings, _ := diskcache.Load[map[string]model.FileStamp](cache, listingsKind, lname)
	now := time.Now()
	// The write-once folders as the last run listed and stamped them are
	// not listed again (trustedFolders).
	o.trusted = newTrustedFolders(o.Home.FS, kept, folders, listings, now)
	o.units = len(kept) + 64
	units, probs := listUnits(o)
	hist := &lazyHistory{fsys: o.Home.FS}
	results := make([]fileResult, len(units))
	home, outside := make([]int, 0, len(units)), []int(nil)
	for i, u := range units {
		if u.inHome {
			home = append(home, i)
		} else {
			outside = append(outside, i)
		}
	}
	for j, r := range scanUnits(o, units, outside, hist, nil, nil, nil) {
		results[outside[j]] = r
	}
	// The files outside the write-once folders whose entry is settled
	// and whose lstat is its stamp are answered without an open.
	answered, pre := settledHits(o.Home.FS, units, home, kept)
	same := make([]string, 0, len(home)) // the files answered by their kept entry as it is
	rest := make([]int, 0, len(home)-pre)
	for j, i := range home {
		if answered[j] {
			same = append(same, units[i].name)
			results[i] = kept[units[i].name].Value.result()
			continue
		}
		rest = append(rest, i)
	}
	home = rest
	names := make([]string, len(home))
	for j, i := range home {
		names[j] = units[i].name
	}
	// A file the cache has no entry for is stamped from the open that
	// counts it, and checked after the read from that open's descriptor
	// (diskcache.PerFileFoldersChecking): on a cold cache each of the
	// home's some 11 000 pastes and backups is opened once, not twice,
	// and not stat'ed again by its name.
	compute := func(miss []int, stamp, after func(int, model.FileStamp)) []counted {
		idx := make([]int, len(miss))
		for j, m := range miss {
			idx[j] = home[m]
		}
		out := make([]counted, len(miss))
		for j, r := range scanUnits(o, units, idx, hist, nil, stamp, after) {
			out[j] = counted{Read: r.read, Bytes: r.bytes, Kept: r.kept, Problems: problemsOf(r.problems)}
		}
		return out
	}
	// next gets only the entries that are not kept's as they are (new,
	// changed, settled now): a warm run whose files are all answered
	// builds no second map of its some 15 000 entries (keptChanges).
	next := map[string]diskcache.Entry[counted]{}
	sameNames := make([]bool, len(names))
	res, hits, nextFolders := diskcache.PerFileFoldersChecking(o.Home.FS, names, kept, next, sameNames, o.trusted.distrust(folders), now, compute, wholeCount)
	for j, s := range sameNames {
		if s {
			same = append(same, names[j])
		}
	}
	// A cache not written costs the next run its time only. (An entry
	// markSettled moves from same into next is counted twice only when
	// it marked one, and then the cache is written anyway.)
	if marked := markSettled(kept, same, next); marked || hits < len(names) || len(same)+len(next) != len(kept) {
		_ = diskcache.Save(cache, countsKind, name, keptChanges(kept, same, next))
	}
	if !nextFolders.Equal(folders) {
		_ = diskcache.Save(cache, foldersKind, fname, nextFolders)
	}
	if nl := o.trusted.keep(nextFolders); o.trusted.changed(nl) {
		_ = diskcache.Save(cache, listingsKind, lname, nl)
	}
	for j, c := range res {
		results[home[j]] = c.result()
	}
	return report(o, units, results, probs)
}

// keptChanges is the entries to keep: kept's of the files same, and
// next's (kept is the cache's loaded value, shared: not changed).
func keptChanges(kept keptCounts, same []string, next map[string]diskcache.Entry[counted]) keptCounts {
	out := make(keptCounts, len(same)+len(next))
	for _, name := range same {
		out[name] = kept[name]
	}
	maps.Copy(out, next)
	return out
}

// countAll counts every file (no cache).
func countAll(o Options) Report {
	units, probs := listUnits(o)
	all := make([]int, len(units))
	for i := range all {
		all[i] = i
	}
	return report(o, units, scanUnits(o, units, all, &lazyHistory{fsys: o.Home.FS}, nil, nil, nil), probs)
}

// wholeCount says a file's counts cover it whole: it was read and no
// read failed (a line too long to read is the file's own, and kept).
func wholeCount(c counted, _ int64) bool {
	if !c.Read {
		return false
	}
	for _, p := range c.problems() {
		if p.Kind == model.ProblemUnreadable {
			return false
		}
	}
	return true
}

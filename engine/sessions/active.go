package sessions

import (
	"io"
	"io/fs"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/memscope/memscope/engine/diskcache"
	"github.com/memscope/memscope/model"
)

// ActiveClock says where a "last active" time comes from.
type ActiveClock string

// The clocks, best first.
const (
	// ClockRecord: the newest timestamp among the transcript's last
	// records. The client stamps every chain record as it appends it, so
	// this is when the session last did something, whatever happened to
	// the file since (a copy, an archive, the demo home all reset mtimes).
	ClockRecord ActiveClock = "record"
	// ClockMTime: the transcript's modification time, for a transcript
	// whose end holds no timestamped record.
	ClockMTime ActiveClock = "mtime"
)

// Active is when a transcript, a session or a project was last active,
// and by which clock.
type Active struct {
	Time  time.Time   `json:"time,omitzero"`
	Clock ActiveClock `json:"clock,omitempty"`
}

// lastActiveWindows are the sizes of the transcript's end LastActive
// reads, each tried when the one before held no timestamped record: most
// transcripts end in a stamped record, but a request blob line can be
// 230 KB.
var lastActiveWindows = []int64{64 << 10, 256 << 10, 1 << 20}

// LastActive is THE definition of "last active" every pane and command
// shows (Projects, Replay, Live's lists; one transcript, or the newest
// of a session's or a project's with Newest): the newest record
// timestamp at the end of transcript f (its last 64 KiB, up to 1 MiB
// when those hold none), read by the transcript summary's rules
// (model.Summarizer); else, for a transcript with no timestamped record
// there or one that cannot be read, its mtime. The client appends in time
// order, so the end holds the newest record.
func LastActive(fsys fs.FS, f model.TranscriptFile) Active {
	return lastActive(fsys, f, nil)
}

// lastActive is LastActive; with stamp set, the file is stamped from the
// open that reads its end (model.StampOpened: its head hashed) and the
// stamp handed to stamp, for LastActiveAll's cache (one open, not two).
func lastActive(fsys fs.FS, f model.TranscriptFile, stamp func(model.FileStamp)) Active {
	mtime := Active{Time: f.ModTime, Clock: ClockMTime}
	file, err := model.OpenRegular(fsys, f.Path)
	if err != nil {
		return mtime
	}
	defer file.Close()
	if stamp != nil {
		if st, err := model.StampOpened(file, f.Path); err == nil {
			stamp(st)
		}
	}
	info, err := model.OpenedInfo(file)
	if err != nil {
		return mtime
	}
	mtime.Time = info.ModTime()
	ra, ok := file.(io.ReaderAt)
	if !ok {
		return mtime
	}
	size := info.Size()
	w := activeWorkers.Get().(*scanWorker)
	defer activeWorkers.Put(w)
	for _, window := range lastActiveWindows {
		start := max(size-window, 0)
		if t := newestRecord(w, f.Path, io.NewSectionReader(ra, start, size-start), start > 0); !t.IsZero() {
			return Active{Time: t, Clock: ClockRecord}
		}
		if start == 0 {
			break
		}
	}
	return mtime
}

// activeWorkers are lastActive's readers of a transcript's end, kept
// with their line reader (its 256 KiB buffer) from one transcript to the
// next: a cold start reads the end of every transcript of the home.
var activeWorkers = sync.Pool{New: func() any { return &scanWorker{ls: newLineScanner(), z: model.NewSummarizer()} }}

// newestRecord is the newest timestamp among the lines of r; cut says r
// starts inside a line, which is skipped.
func newestRecord(w *scanWorker, name string, r io.Reader, cut bool) time.Time {
	w.z.Reset(name)
	if w.lr == nil {
		w.lr = model.NewLineReader(r)
	} else {
		w.lr.Reset(r)
	}
	lr := w.lr
	var out FileScan
	for first := true; ; first = false {
		line, ok := lr.Next()
		if !ok {
			break
		}
		if first && cut {
			continue
		}
		w.line(&out, line)
	}
	return w.z.Summary(0).Last
}

// Newest is the latest of as (a session's transcripts, a project's);
// the zero Active when there is none.
func Newest(as ...Active) Active {
	var out Active
	for _, a := range as {
		if a.Time.After(out.Time) {
			out = a
		}
	}
	return out
}

// lastActiveKind names the last activities kept across runs
// (diskcache.PerFile's rule): bump it when Active changes.
const lastActiveKind = "last-active.1"

// LastActiveAll is LastActive of each of files, by path, with each
// transcript's answer kept in cache (nil: none) for the home at homeDir
// by the rule stat's summaries follow (diskcache.PerFile): a transcript
// whose stamp is the one it was read at is not read again, so opening
// the app reads no unchanged transcript's end for the Projects list.
// Only a time from a record is kept (a time from the mtime costs no
// read).
func LastActiveAll(fsys fs.FS, files []model.TranscriptFile, cache *diskcache.Store, homeDir string) map[string]Active {
	names := make([]string, len(files))
	for i, f := range files {
		names[i] = f.Path
	}
	// A transcript without an entry is stamped from the open that reads
	// its end (diskcache.PerFileStamping), on every CPU as the stamps
	// were taken before.
	compute := func(miss []int, stamp func(j int, st model.FileStamp)) []Active {
		out := make([]Active, len(miss))
		model.ParallelN(len(miss), 0, func(j int) {
			var stampJ func(model.FileStamp)
			if cache != nil { // without one, nothing is kept
				stampJ = func(st model.FileStamp) { stamp(j, st) }
			}
			out[j] = lastActive(fsys, files[miss[j]], stampJ)
		})
		return out
	}
	var kept, next map[string]diskcache.Entry[Active]
	name := diskcache.Name(lastActiveKind, homeDir)
	if cache != nil {
		kept, _ = diskcache.Load[map[string]diskcache.Entry[Active]](cache, lastActiveKind, name)
		next = map[string]diskcache.Entry[Active]{}
	}
	res, hits := diskcache.PerFileStamping(fsys, names, kept, next, compute, func(a Active, _ int64) bool { return a.Clock == ClockRecord })
	if cache != nil && (hits < len(names) || len(next) != len(kept)) {
		// A cache not written costs the next start its time only.
		_ = diskcache.Save(cache, lastActiveKind, name, next)
	}
	out := make(map[string]Active, len(files))
	for i, f := range files {
		out[f.Path] = res[i]
	}
	return out
}

// LastActiveKnown is LastActiveAll's answer for the transcripts of files
// its cache answers for (their stamps are the ones kept), read from
// nothing; the others, pending, are given their modification time (the
// clock LastActive falls back to) until LastActiveFrom says. Nothing is
// written to the cache. For the app's start, whose shared pass reads
// every transcript a moment later (ActiveHandoff).
func LastActiveKnown(fsys fs.FS, files []model.TranscriptFile, cache *diskcache.Store, homeDir string) (out map[string]Active, pending []model.TranscriptFile) {
	names := make([]string, len(files))
	for i, f := range files {
		names[i] = f.Path
	}
	name := diskcache.Name(lastActiveKind, homeDir)
	kept, _ := diskcache.Load[map[string]diskcache.Entry[Active]](cache, lastActiveKind, name)
	compute := func(miss []int, _ func(int, model.FileStamp)) []Active {
		res := make([]Active, len(miss))
		for j, i := range miss {
			pending = append(pending, files[i])
			res[j] = Active{Time: files[i].ModTime, Clock: ClockMTime}
		}
		return res
	}
	res, _ := diskcache.PerFileStamping(fsys, names, kept, map[string]diskcache.Entry[Active]{}, compute, func(Active, int64) bool { return false })
	out = make(map[string]Active, len(files))
	for i, f := range files {
		out[f.Path] = res[i]
	}
	return out, pending
}

// LastActiveFrom is LastActive of each of the pending transcripts
// (LastActiveKnown's), by path: what the pass handed over (from), for a
// transcript listed as the pass read it whole, else its end read now.
// What it read is kept in cache (nil: none) beside what the pass kept.
func LastActiveFrom(fsys fs.FS, pending []model.TranscriptFile, from *ActiveHandoff, cache *diskcache.Store, homeDir string) map[string]Active {
	out := make(map[string]Active, len(pending))
	var read []model.TranscriptFile
	for _, t := range pending {
		if e, ok := from.take(t); ok {
			out[t.Path] = e.Value
			continue
		}
		read = append(read, t)
	}
	add := readEnds(fsys, read, cache != nil, out)
	// A cache not written costs the next start its time only.
	_ = keepActive(cache, homeDir, add)
	return out
}

// readEnds reads the end of each of files (lastActive) into out, by
// path, on every CPU; with keep, the record-clocked answers of files
// stamped from that open and unchanged after it are returned as entries
// for the list's cache.
func readEnds(fsys fs.FS, files []model.TranscriptFile, keep bool, out map[string]Active) map[string]diskcache.Entry[Active] {
	res := make([]Active, len(files))
	entries := make([]*diskcache.Entry[Active], len(files))
	model.ParallelN(len(files), 0, func(j int) {
		var st model.FileStamp
		stamped := false
		res[j] = lastActive(fsys, files[j], func(s model.FileStamp) { st, stamped = s, true })
		if keep && stamped && res[j].Clock == ClockRecord && model.Unchanged(fsys, files[j].Path, st) {
			entries[j] = &diskcache.Entry[Active]{Stamp: st, Value: res[j]}
		}
	})
	add := map[string]diskcache.Entry[Active]{}
	for j, t := range files {
		out[t.Path] = res[j]
		if entries[j] != nil {
			add[t.Path] = *entries[j]
		}
	}
	return add
}

// LastActiveNewest is LastActiveKnown that also reads the ends of the
// transcripts that can be the newest of all: the app's start in no
// project opens the most recently active one, before the shared pass
// (which waits for that project) reads every transcript. Newest
// modification time first, a transcript's end is read while its mtime is
// not before the newest last activity found (from the cache or an end
// read): the client stamps a record as it appends it, so a record is
// never newer than its file's mtime, and a transcript modified before
// that time cannot be more recently active (its mtime, the fallback
// clock, is older too). The others stay pending with their mtime, each
// older than the newest, as LastActiveKnown leaves them. What was read
// is kept in cache (nil: none).
//
// When that does not hold (a file touched into the past, records
// stamped by a clock ahead of the file system's), a pending transcript
// may turn out newer once the pass hands its activity over; the caller
// checks that (ui/feed.Home.Active), so the answer ends as LastActiveAll's.
func LastActiveNewest(fsys fs.FS, files []model.TranscriptFile, cache *diskcache.Store, homeDir string) (out map[string]Active, pending []model.TranscriptFile) {
	out, miss := LastActiveKnown(fsys, files, cache, homeDir)
	isMiss := make(map[string]bool, len(miss))
	for _, t := range miss {
		isMiss[t.Path] = true
	}
	var newest time.Time
	for p, a := range out {
		if !isMiss[p] && a.Time.After(newest) {
			newest = a.Time
		}
	}
	order := slices.Clone(miss)
	slices.SortStableFunc(order, func(a, b model.TranscriptFile) int {
		if c := b.ModTime.Compare(a.ModTime); c != 0 {
			return c
		}
		return strings.Compare(a.Path, b.Path)
	})
	// One at a time: each end read may raise the bound (most often the
	// first, a session's file being written when its record is).
	add := map[string]diskcache.Entry[Active]{}
	i := 0
	for ; i < len(order) && !order[i].ModTime.Before(newest); i++ {
		maps.Copy(add, readEnds(fsys, order[i:i+1], cache != nil, out))
		if a := out[order[i].Path]; a.Time.After(newest) {
			newest = a.Time
		}
	}
	_ = keepActive(cache, homeDir, add) // a cache not written costs the next start its time only
	return out, order[i:]
}

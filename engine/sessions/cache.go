package sessions

import (
	"io/fs"

	"github.com/memscope/memscope/engine/diskcache"
	"github.com/memscope/memscope/model"
)

// cacheKind names and versions the per-file scans the sessions report
// keeps across runs (engine/diskcache, diskcache.PerFile's rule, as stat
// keeps its summaries): bump it when what an entry holds changes.
const cacheKind = "sessions.2"

// savedScan is a FileScan as the cache file holds it (gob: exported
// fields). The usage lines stay packed (usagePack): a few byte slices a
// file, not a struct a line, so a warm report decodes little.
type savedScan struct {
	Sum        model.TranscriptSummary
	Lines      int
	Keys, Data []byte
	Models     []string
	Problems   []model.Problem
	ClientCost map[string]float64
	// Deduped says Dropped is the home-wide dedupe's answer for the file
	// (the lines another file counted), as the last report of the whole
	// home worked it out: a report of the same files, none changed,
	// takes it as it is.
	Deduped bool
	Dropped []int32
}

func saveScan(s FileScan) savedScan {
	u := s.usage
	return savedScan{Sum: s.Sum, Lines: u.n, Keys: u.keys, Data: u.data, Models: u.models, Problems: s.problems, ClientCost: s.clientCost}
}

// scan is s as a FileScan of its own (the report marks its dedupe in
// it).
func (s savedScan) scan() FileScan {
	return FileScan{Sum: s.Sum, usage: usagePack{n: s.Lines, keys: s.Keys, data: s.Data, models: s.Models}, problems: s.Problems, clientCost: s.ClientCost}
}

// scanCached is ScanAll (with ccusage's usage lines) and the home-wide
// dedupe (dedupeLikeCcusage): it takes the scans of unchanged files from
// store and reads the others, then saves what to keep. listed are every
// transcript of the home: entries of those not in files (a report of one
// project) stay for the next run. When files are all of them and none
// changed, the dedupe's answer is the cache's too. A nil store is ScanAll
// and the dedupe.
func scanCached(fsys fs.FS, store *diskcache.Store, homeDir string, files, listed []model.TranscriptFile, workers int) []FileScan {
	if store == nil {
		scans := ScanAll(fsys, files, workers, true)
		dedupeLikeCcusage(files, scans)
		return scans
	}
	name := diskcache.Name(cacheKind, homeDir)
	cache, _ := diskcache.Load[map[string]diskcache.Entry[savedScan]](store, cacheKind, name)
	next := map[string]diskcache.Entry[savedScan]{}
	in := make(map[string]bool, len(files))
	names := make([]string, len(files))
	for i, t := range files {
		names[i], in[t.Path] = t.Path, true
	}
	for _, t := range listed {
		if e, ok := cache[t.Path]; ok && !in[t.Path] {
			next[t.Path] = e
		}
	}
	saved, hits := diskcache.PerFile(fsys, names, cache, next, func(miss []int) []savedScan {
		sub := make([]model.TranscriptFile, len(miss))
		for j, i := range miss {
			sub[j] = files[i]
		}
		scans := ScanAll(fsys, sub, workers, true)
		out := make([]savedScan, len(scans))
		for j := range scans {
			out[j] = saveScan(scans[j])
		}
		return out
	}, func(s savedScan, size int64) bool { return s.Sum.Whole(size) })
	out := make([]FileScan, len(saved))
	for i := range saved {
		out[i] = saved[i].scan()
	}
	// The same files as the cache's entries, every one from it.
	unchanged := hits == len(files) && len(next) == len(cache)
	whole := len(files) == len(listed)
	known := unchanged && whole
	for i := range saved {
		known = known && saved[i].Deduped
	}
	if known {
		for i := range out {
			out[i].usage.dropped = saved[i].Dropped
		}
		return out
	}
	dedupeLikeCcusage(files, out)
	if whole {
		for i, n := range names {
			if e, ok := next[n]; ok {
				e.Value.Deduped, e.Value.Dropped = true, out[i].usage.dropped
				next[n] = e
			}
		}
	} else {
		// A report of one project dedupes its files alone: what it
		// dropped is not the home's answer.
		for n, e := range next {
			if e.Value.Deduped {
				e.Value.Deduped, e.Value.Dropped = false, nil
				next[n] = e
				unchanged = false
			}
		}
	}
	if whole || !unchanged {
		// A cache not written costs the next run its time only.
		_ = diskcache.Save(store, cacheKind, name, next)
	}
	return out
}

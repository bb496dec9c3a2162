package sessions

import (
	"io/fs"

	"github.com/memscope/memscope/engine/diskcache"
	"github.com/memscope/memscope/engine/pricing"
	"github.com/memscope/memscope/model"
)

// cacheKind names and versions the per-file scans the sessions report
// keeps across runs (engine/diskcache, diskcache.PerFile's rule, as stat
// keeps its summaries): bump it when what an entry holds changes.
const cacheKind = "sessions.1"

// savedScan is a FileScan as the cache file holds it (gob: exported
// fields).
type savedScan struct {
	Sum        model.TranscriptSummary
	Usage      []savedUsage
	Problems   []model.Problem
	ClientCost map[string]float64
}

// savedUsage is a usageLine; its usage is Price.Usage.
type savedUsage struct {
	Key   [2]uint64
	Keyed bool
	Price pricing.Response
}

func saveScan(s FileScan) savedScan {
	out := savedScan{Sum: s.Sum, Problems: s.problems, ClientCost: s.clientCost}
	if len(s.Usage) > 0 {
		out.Usage = make([]savedUsage, len(s.Usage))
		for i, u := range s.Usage {
			out.Usage[i] = savedUsage{Key: u.key, Keyed: u.keyed, Price: u.price}
		}
	}
	return out
}

// scan is s as a FileScan of its own (the report dedupes its usage in
// place).
func (s savedScan) scan() FileScan {
	out := FileScan{Sum: s.Sum, problems: s.Problems, clientCost: s.ClientCost}
	if len(s.Usage) > 0 {
		out.Usage = make([]usageLine, len(s.Usage))
		for i, u := range s.Usage {
			out.Usage[i] = usageLine{key: u.Key, keyed: u.Keyed, price: u.Price}
		}
	}
	return out
}

// scanCached is ScanAll (with ccusage's usage lines) that takes the scans
// of unchanged files from store and reads the others, then saves what to
// keep. listed are every transcript of the home: entries of those not in
// files (a report of one project) stay for the next run. A nil store is
// ScanAll.
func scanCached(fsys fs.FS, store *diskcache.Store, homeDir string, files, listed []model.TranscriptFile, workers int) []FileScan {
	if store == nil {
		return ScanAll(fsys, files, workers, true)
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
	if hits < len(files) || len(next) != len(cache) {
		// A cache not written costs the next run its time only.
		_ = diskcache.Save(store, cacheKind, name, next)
	}
	out := make([]FileScan, len(saved))
	for i := range saved {
		out[i] = saved[i].scan()
	}
	return out
}

package ledger

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"runtime"
	"slices"
	"sync"

	"github.com/memscope/memscope/engine/diskcache"
	"github.com/memscope/memscope/internal/jsonscan"
	"github.com/memscope/memscope/model"
)

// Session is the ledger of one transcript of a home.
type Session struct {
	File       model.TranscriptFile `json:"file"`
	Boundaries []Boundary           `json:"boundaries"`
}

// compactMark is in every line that can be a compact boundary: a file
// without it has nothing for the ledger and is not parsed.
var compactMark = []byte(`compact_boundary`)

// cacheKind names the ledger's file in memscope's cache (.2: boundaries
// carry their time; .3: entries kept by diskcache.PerFile's rule).
const cacheKind = "ledger.3"

// cachedLedger is one transcript's ledger as kept across runs
// (diskcache.PerFile: valid while the file's stamp is the same). err, not
// kept, is why the file could not be read.
type cachedLedger struct {
	Boundaries []Boundary      `json:"boundaries"`
	Problems   []model.Problem `json:"problems,omitempty"`
	err        error
}

// Home computes the ledger of every transcript of a home (main sessions
// and subagents) that has a compaction, newest first as model.FindTranscripts
// lists them. A file is first read raw for the boundary's subtype, so a
// home of transcripts that never compacted costs one read of each; a file
// that cannot be read is a problem, not an error. With a cache (nil: none;
// homeDir names the home's file in it), a transcript whose stamp is
// unchanged since the last run is not read at all (diskcache.PerFile, the
// one rule: a file written while it was read is not kept).
func Home(home fs.FS, homeDir string, cache *diskcache.Store) ([]Session, []model.Problem) {
	files, probs := model.FindTranscripts(home)
	return homeOf(home, homeDir, cache, files, probs, nil)
}

// homeOf is Home over files; the cached ledgers of skipped (files not
// read this time) stay in the cache as they are.
func homeOf(home fs.FS, homeDir string, cache *diskcache.Store, files []model.TranscriptFile, probs []model.Problem, skipped []model.TranscriptFile) ([]Session, []model.Problem) {
	// The files to read are each read and built on their own, by one
	// worker per CPU (decoding is the cost, see docs/LEDGER.md).
	res := perFile(home, homeDir, cache, cacheKind, files, skipped, func(name string, scratch *[]byte) cachedLedger {
		var c cachedLedger
		c, c.err = fileLedger(home, name, scratch)
		return c
	}, func(c cachedLedger) bool { return c.err == nil })
	out := []Session{}
	for i, f := range files {
		r := res[i]
		if r.err != nil {
			probs = append(probs, model.EntryProblem(f.Path, r.err))
			continue
		}
		probs = append(probs, r.Problems...)
		if len(r.Boundaries) > 0 {
			out = append(out, Session{File: f, Boundaries: r.Boundaries})
		}
	}
	return out, probs
}

// fileLedger is the ledger of one transcript, read only when it holds a
// compact boundary. The bytes read while looking for one are decoded
// without reading them again.
// scratch is the room for those bytes, kept from one file to the next (a
// worker's own): nothing read keeps a reference to it.
func fileLedger(home fs.FS, name string, scratch *[]byte) (cachedLedger, error) {
	f, err := model.OpenRegular(home, name)
	if err != nil {
		return cachedLedger{}, fmt.Errorf("open transcript %s: %w", name, err)
	}
	defer f.Close()
	read, has, err := findMark(f, name, compactMark, (*scratch)[:0], prefixMax)
	if cap(read) > cap(*scratch) {
		*scratch = read
	}
	if err != nil || !has {
		return cachedLedger{}, err
	}
	var from io.Reader // nil: the prefix was too long to keep
	if read != nil {
		from = io.MultiReader(bytes.NewReader(read), f)
	}
	var size int64
	if fi, err := f.Stat(); err == nil {
		size = fi.Size()
	}
	t, err := readLean(home, name, from, size)
	if err != nil {
		return cachedLedger{}, err
	}
	return cachedLedger{Boundaries: build(t, true).Boundaries, Problems: t.Summary.Problems}, nil
}

// perFile computes one value per file, reading each on one worker per
// CPU, with the values kept in cache under kind (nil: none) by stat's
// rule (diskcache.PerFile; whole says a value may be kept; read gets
// its worker's scratch room, kept from one file to the next); the entries
// of skipped (files not asked this time) stay in the cache as they are.
func perFile[T any](home fs.FS, homeDir string, cache *diskcache.Store, kind string, files, skipped []model.TranscriptFile, read func(name string, scratch *[]byte) T, whole func(T) bool) []T {
	names := make([]string, len(files))
	for i, f := range files {
		names[i] = f.Path
	}
	compute := func(miss []int) []T {
		out := make([]T, len(miss))
		work := make(chan int)
		var wg sync.WaitGroup
		for range min(runtime.GOMAXPROCS(0), len(miss)) {
			wg.Go(func() {
				var scratch []byte // the worker's own room for read
				for j := range work {
					out[j] = read(names[miss[j]], &scratch)
				}
			})
		}
		for _, j := range largestFirst(files, miss) {
			work <- j
		}
		close(work)
		wg.Wait()
		return out
	}
	if cache == nil {
		res, _ := diskcache.PerFile(home, names, nil, nil, compute, nil)
		return res
	}
	name := diskcache.Name(kind, homeDir)
	load := diskcache.Load[map[string]diskcache.Entry[T]]
	if kind == newestKind {
		// Loaded by the shared pass's feed (NewFeed) just before: the
		// value it decoded is handed over.
		load = diskcache.LoadShared[map[string]diskcache.Entry[T]]
	}
	kept, _ := load(cache, kind, name)
	next := map[string]diskcache.Entry[T]{}
	res, hits := diskcache.PerFile(home, names, kept, next, compute, func(v T, _ int64) bool { return whole(v) })
	for _, f := range skipped {
		if e, ok := kept[f.Path]; ok {
			next[f.Path] = e
		}
	}
	if hits < len(files) || len(next) != len(kept) {
		// A cache not written costs the next run its time only.
		_ = diskcache.Save(cache, kind, name, next)
	}
	return res
}

// largestFirst is the order in which perFile hands out the files of
// miss (indexes into files): positions in miss, largest file first, so a
// large transcript does not start last and keep one worker busy after
// the others are done. The results keep their places whatever the order.
func largestFirst(files []model.TranscriptFile, miss []int) []int {
	order := make([]int, len(miss))
	for j := range order {
		order[j] = j
	}
	slices.SortStableFunc(order, func(a, b int) int {
		return cmp.Compare(files[miss[b]].Size, files[miss[a]].Size)
	})
	return order
}

// prefixMax bounds what findMark keeps of a file: a transcript whose
// first boundary comes later is read again from the start.
const prefixMax = 64 << 20

// findChunk is how much findMark reads at a time.
const findChunk = 256 << 10

// findMark reads r (the file name) until mark shows and reports whether
// it did (found across the edge of two reads too), with the bytes read
// up to there, in buf (grown as needed; also returned, grown, when the
// mark is not found). Past limit bytes only the search goes on and no
// bytes come back.
func findMark(r io.Reader, name string, mark []byte, buf []byte, limit int) (read []byte, found bool, err error) {
	fm := jsonscan.NewFinder(string(mark)) // most chunks are passed over at memchr's speed
	buf = buf[:0]
	from := 0 // where the search resumes: a mark may straddle two reads
	for {
		if len(buf) >= limit {
			keep := min(len(buf), len(mark)-1)
			return searchOn(r, name, mark, append(make([]byte, 0, findChunk), buf[len(buf)-keep:]...))
		}
		if len(buf) == cap(buf) {
			buf = slices.Grow(buf, max(len(buf), findChunk))
		}
		n, err := r.Read(buf[len(buf):min(cap(buf), len(buf)+findChunk)])
		buf = buf[:len(buf)+n]
		if fm.In(buf[from:]) {
			return buf, true, nil
		}
		from = max(0, len(buf)-len(mark)+1)
		if err != nil {
			if errors.Is(err, io.EOF) {
				return buf[:0], false, nil
			}
			return buf[:0], false, fmt.Errorf("read transcript %s: %w", name, err)
		}
	}
}

// searchOn is findMark past its limit: buf (the last bytes read, with
// room for a chunk) is reused for each read and nothing is kept.
func searchOn(r io.Reader, name string, mark, buf []byte) ([]byte, bool, error) {
	fm := jsonscan.NewFinder(string(mark))
	keep := len(buf)
	buf = buf[:cap(buf)]
	for {
		n, err := r.Read(buf[keep:])
		total := keep + n
		if fm.In(buf[:total]) {
			return nil, true, nil
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				return nil, false, nil
			}
			return nil, false, fmt.Errorf("read transcript %s: %w", name, err)
		}
		keep = min(total, len(mark)-1)
		copy(buf, buf[total-keep:total])
	}
}

package ledger

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"runtime"
	"sync"

	"github.com/memscope/memscope/engine/diskcache"
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
	names := make([]string, len(files))
	for i, f := range files {
		names[i] = f.Path
	}
	// The files to read are each read and built on their own, by one
	// worker per CPU (decoding is the cost, see docs/LEDGER.md).
	compute := func(miss []int) []cachedLedger {
		out := make([]cachedLedger, len(miss))
		work := make(chan int)
		var wg sync.WaitGroup
		for range min(runtime.GOMAXPROCS(0), len(miss)) {
			wg.Go(func() {
				for j := range work {
					out[j], out[j].err = fileLedger(home, names[miss[j]])
				}
			})
		}
		for j := range miss {
			work <- j
		}
		close(work)
		wg.Wait()
		return out
	}
	var res []cachedLedger
	if cache == nil {
		res, _ = diskcache.PerFile(home, names, nil, nil, compute, nil)
	} else {
		name := diskcache.Name(cacheKind, homeDir)
		kept, _ := diskcache.Load[map[string]diskcache.Entry[cachedLedger]](cache, cacheKind, name)
		next := map[string]diskcache.Entry[cachedLedger]{}
		var hits int
		res, hits = diskcache.PerFile(home, names, kept, next, compute, func(c cachedLedger, _ int64) bool { return c.err == nil })
		if hits < len(files) || len(next) != len(kept) {
			// A cache not written costs the next run its time only.
			_ = diskcache.Save(cache, cacheKind, name, next)
		}
	}
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
// compact boundary.
func fileLedger(home fs.FS, name string) (cachedLedger, error) {
	has, err := contains(home, name, compactMark)
	if err != nil || !has {
		return cachedLedger{}, err
	}
	t, err := readLean(home, name)
	if err != nil {
		return cachedLedger{}, err
	}
	return cachedLedger{Boundaries: Build(t).Boundaries, Problems: t.Summary.Problems}, nil
}

// contains reads the regular file name in fsys in chunks and reports
// whether it holds mark (found across a chunk edge too).
func contains(fsys fs.FS, name string, mark []byte) (bool, error) {
	f, err := model.OpenRegular(fsys, name)
	if err != nil {
		return false, fmt.Errorf("open transcript %s: %w", name, err)
	}
	defer f.Close()
	buf := make([]byte, 256<<10)
	keep := 0
	for {
		n, err := f.Read(buf[keep:])
		total := keep + n
		if bytes.Contains(buf[:total], mark) {
			return true, nil
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				return false, nil
			}
			return false, fmt.Errorf("read transcript %s: %w", name, err)
		}
		keep = min(total, len(mark)-1)
		copy(buf, buf[total-keep:total])
	}
}

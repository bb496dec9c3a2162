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
// carry their time).
const cacheKind = "ledger.2"

// cachedLedger is one transcript's ledger as kept across runs: valid while
// the file's stamp is the same.
type cachedLedger struct {
	Stamp      model.FileStamp `json:"stamp"`
	Boundaries []Boundary      `json:"boundaries"`
	Problems   []model.Problem `json:"problems,omitempty"`
}

// Home computes the ledger of every transcript of a home (main sessions
// and subagents) that has a compaction, newest first as model.FindTranscripts
// lists them. A file is first read raw for the boundary's subtype, so a
// home of transcripts that never compacted costs one read of each; a file
// that cannot be read is a problem, not an error. With a cache (nil: none;
// homeDir names the home's file in it), a transcript whose stamp is
// unchanged since the last run is not read at all.
func Home(home fs.FS, homeDir string, cache *diskcache.Store) ([]Session, []model.Problem) {
	files, probs := model.FindTranscripts(home)
	var kept map[string]cachedLedger
	if cache != nil {
		kept, _ = diskcache.Load[map[string]cachedLedger](cache, cacheKind, diskcache.Name(cacheKind, homeDir))
	}
	// Each transcript is read and its ledger built on its own: the files
	// missing from the cache are done by one worker per CPU (decoding is
	// the cost, see docs/LEDGER.md), then gathered in listing order.
	type result struct {
		c     cachedLedger
		stamp model.FileStamp
		err   error
		ok    bool // stamped
	}
	res := make([]result, len(files))
	var todo []int
	for i, f := range files {
		stamp, stampErr := model.StampFile(home, f.Path)
		res[i].stamp, res[i].ok = stamp, stampErr == nil
		if c, hit := kept[f.Path]; hit && stampErr == nil && c.Stamp.Equal(stamp) {
			res[i].c = c
			continue
		}
		todo = append(todo, i)
	}
	work := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(todo)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				res[i].c, res[i].err = fileLedger(home, files[i].Path)
				res[i].c.Stamp = res[i].stamp
			}
		}()
	}
	for _, i := range todo {
		work <- i
	}
	close(work)
	wg.Wait()
	next := map[string]cachedLedger{}
	out := []Session{}
	for i, f := range files {
		r := res[i]
		if r.err != nil {
			probs = append(probs, model.EntryProblem(f.Path, r.err))
			continue
		}
		if r.ok {
			next[f.Path] = r.c
		}
		probs = append(probs, r.c.Problems...)
		if len(r.c.Boundaries) > 0 {
			out = append(out, Session{File: f, Boundaries: r.c.Boundaries})
		}
	}
	if cache != nil {
		_ = diskcache.Save(cache, cacheKind, diskcache.Name(cacheKind, homeDir), next)
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
	t, err := model.ReadTranscriptWith(home, name, ScanOptions)
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

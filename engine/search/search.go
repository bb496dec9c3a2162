package search

import (
	"context"
	"io/fs"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/memscope/memscope/model"
)

// Options say what to search and where.
type Options struct {
	// Home is the Claude home; HomeDir its absolute folder.
	Home    fs.FS
	HomeDir string
	// Root is the machine's file system from "/" with the home mounted
	// at HomeDir (model.MountFS): CLAUDE.md files, agent memory and
	// memory folders outside the home are read through it. nil reads
	// only the home.
	Root fs.FS
	// UserHome is the user's home folder (for "~/" in imports and
	// settings).
	UserHome string
	// Getenv reads the environment (the memory folder's overrides); nil
	// reads nothing.
	Getenv func(string) string
	Query  *Query
	// Stores are the stores to search; nil is all of them.
	Stores []Store
	// Since drops what is older: records and prompts by their time,
	// files by their modification time.
	Since time.Time
	// Project limits the search to one project; nil searches the home.
	Project *Project
	// ShowSecrets shows secrets in snippets as they are (masked by
	// default).
	ShowSecrets bool
	// Workers is how many files are read at once; 0 is one per CPU.
	Workers int
	// lines bounds the workers' long-line buffers together; nil gets
	// one per Run.
	lines *longLines
}

// Project is the project a search is limited to.
type Project struct {
	// Slug is its projects/ folder's name.
	Slug string
	// Dir is its absolute folder ("" when not known): history lines and
	// CLAUDE.md files are found by it.
	Dir string
}

// has reports whether store st is searched.
func (o *Options) has(st Store) bool {
	return o.Stores == nil || slices.Contains(o.Stores, st)
}

// wantsProject reports whether a history entry belongs to the project
// searched.
func (o *Options) wantsProject(e *model.HistoryEntry) bool {
	return o.Project == nil || o.Project.Dir != "" && e.Project == o.Project.Dir
}

// wantsPrompt reports whether a history entry is searched: the project's
// and not older than Since.
func (o *Options) wantsPrompt(e *model.HistoryEntry) bool {
	return o.wantsProject(e) && (o.Since.IsZero() || e.Timestamp.IsZero() || !e.Timestamp.Before(o.Since))
}

// Batch is what one file gave: its hits, in order, and the problems met
// reading it. Batches come newest file first within a store.
type Batch struct {
	Hits     []Hit
	Problems []model.Problem
}

// Summary is what a search read and found.
type Summary struct {
	Query string `json:"query"`
	Hits  int    `json:"hits"`
	// Files counts the files searched, FilesWithHits those with a hit;
	// Bytes what was read.
	Files         int   `json:"files"`
	FilesWithHits int   `json:"filesWithHits"`
	Bytes         int64 `json:"bytes"`
	// Problems are files that were not read, or read in part.
	Problems []model.Problem `json:"problems"`
	// Cancelled is set when the search stopped before the end.
	Cancelled bool `json:"cancelled,omitempty"`
}

// Add counts o (another part of the same search: the rescue vault's
// after the home's) into s.
func (s *Summary) Add(o Summary) {
	s.Hits += o.Hits
	s.Files += o.Files
	s.FilesWithHits += o.FilesWithHits
	s.Bytes += o.Bytes
	s.Problems = append(s.Problems, o.Problems...)
	s.Cancelled = s.Cancelled || o.Cancelled
}

// queued is units with their place in the order of output: one
// transcript, or a run of small files (a paste cache holds thousands:
// handing each over on its own cost more than reading it).
type queued struct {
	seq   int
	units []*unit
	// probs are a planning step's problems, sent in order as a unit
	// without a file.
	probs []model.Problem
}

type done struct {
	seq int
	res []result
}

// A run of small files handed to a worker at once holds at most
// batchFiles files and batchBytes bytes.
const (
	batchFiles = 64
	batchBytes = 1 << 20
)

// Run searches and hands each file's hits to emit, in order (store by
// store, newest file first), as soon as they and every file before them
// are searched; emit runs on Run's goroutine, and an error it returns
// stops the search and is returned. Cancelling ctx stops the search too
// (the summary says so; the error is nil).
func Run(ctx context.Context, o Options, emit func(Batch) error) (Summary, error) {
	sum := Summary{Query: o.Query.String(), Problems: []model.Problem{}}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	root := o.Root
	if root == nil {
		root = model.MountFS(nil, o.HomeDir, o.Home)
	}
	refs := &pasteRefs{o: &o}
	backups := &backupPaths{by: map[string]map[string]string{}}
	p := &planner{o: &o, root: root, refs: refs}

	work := make(chan queued, 256)
	results := make(chan done, 256)
	go func() {
		defer close(work)
		seq := 0
		send := func(q queued) bool {
			q.seq = seq
			seq++
			select {
			case work <- q:
				return true
			case <-ctx.Done():
				return false
			}
		}
		// sendAll sends the planning's problems, then units.
		sendAll := func(units []*unit) bool {
			if len(p.probs) > 0 {
				if !send(queued{probs: p.probs}) {
					return false
				}
				p.probs = nil
			}
			var run []*unit
			var size int64
			flush := func() bool {
				if len(run) == 0 {
					return true
				}
				ok := send(queued{units: run})
				run, size = nil, 0
				return ok
			}
			for _, u := range units {
				if u.kind == unitText && u.size < batchBytes {
					if len(run) == batchFiles || size+u.size > batchBytes {
						if !flush() {
							return false
						}
					}
					run = append(run, u)
					size += u.size
					continue
				}
				if !flush() || !send(queued{units: []*unit{u}}) {
					return false
				}
			}
			return flush()
		}
		stores := o.Stores
		if stores == nil {
			stores = Stores
		}
		// History is searched with its pastes even alone; transcripts
		// are listed first, as the other stores need the projects.
		wanted := slices.Clone(stores)
		if slices.Contains(wanted, StoreHistory) && !slices.Contains(wanted, StorePastes) {
			wanted = append(wanted, StorePastes)
		}
		if !slices.Contains(wanted, StoreTranscripts) {
			p.noteSessions(p.listProjects())
		}
		for _, st := range Stores {
			if !slices.Contains(wanted, st) {
				continue
			}
			if !sendAll(p.storeUnits(st)) {
				return
			}
			// The files kept beside sessions come after the transcripts:
			// listing them is a second walk the first hits need not wait for.
			if st == StoreTranscripts && !sendAll(p.newestFirst(p.sessionFiles())) {
				return
			}
		}
	}()

	if o.lines == nil {
		o.lines = newLongLines()
	}
	workers := o.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := &worker{q: o.Query, o: &o, refs: refs, backups: backups}
			for q := range work {
				var res []result
				switch {
				case q.units == nil:
					res = []result{{problems: q.probs}}
				case ctx.Err() == nil:
					res = make([]result, 0, len(q.units))
					for _, u := range q.units {
						if ctx.Err() != nil {
							break
						}
						res = append(res, w.search(ctx, u))
					}
				}
				results <- done{seq: q.seq, res: res}
			}
		}()
	}
	go func() {
		wg.Wait()
		close(results)
	}()

	pending := map[int][]result{}
	next := 0
	var emitErr error
	for d := range results {
		pending[d.seq] = d.res
		for {
			rs, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			next++
			for _, res := range rs {
				if emitErr != nil || ctx.Err() != nil {
					break
				}
				if res.bytes > 0 || len(res.hits) > 0 {
					sum.Files++
				}
				sum.Bytes += res.bytes
				sum.Hits += len(res.hits)
				if len(res.hits) > 0 {
					sum.FilesWithHits++
				}
				sum.Problems = append(sum.Problems, res.problems...)
				if len(res.hits) == 0 && len(res.problems) == 0 {
					continue
				}
				if err := emit(Batch{Hits: res.hits, Problems: res.problems}); err != nil {
					emitErr = err
					cancel()
				}
			}
		}
	}
	if emitErr != nil {
		return sum, emitErr
	}
	sum.Cancelled = ctx.Err() != nil
	return sum, nil
}

func itoa(n int) string { return strconv.Itoa(n) }

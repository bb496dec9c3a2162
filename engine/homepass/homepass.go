// Package homepass reads each transcript of a home once for every pass
// that wants it. A cold start of the app computes, per transcript,
// doctor's field scan, the secrets counts, stat's summary, the ledger's
// newest compaction and the provenance first pass; each read the whole
// file on its own, so a byte was read about six times. Here one reader
// hands each line, once, to each pass (a Consumer) whose cache does not
// already answer for the file; each keeps its per-file result in its own
// cache kind, as its own run would, so the run that follows (and every
// warm start) answers from cache.
//
// The package knows no pass: the consumers implement Consumer and File
// (engine/doctor, engine/secrets, engine/inventory, engine/ledger,
// engine/provenance), and the caller (engine/overview) picks them.
package homepass

import (
	"cmp"
	"errors"
	"io/fs"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/memscope/memscope/internal/jsonscan"
	"github.com/memscope/memscope/model"
)

// Consumer is one pass fed by the shared reader.
type Consumer interface {
	// Want returns what reads transcript t (whose stamp, taken before
	// any read, is st) line by line, or nil when the pass has it already
	// (its cache answers for that stamp) or does not read such a file.
	// It may be called from several goroutines at once.
	Want(t model.TranscriptFile, st model.FileStamp) File
	// Done is called once every file was read: the pass keeps what it
	// was handed (its cache file).
	Done() error
}

// Starter is a Consumer told the files first: a pass that others read
// too (provenance's cache, which the app's panes scan at the same time)
// marks them as being read, so those scans wait for this one.
type Starter interface {
	Start(files []model.TranscriptFile)
}

// Firster is a Consumer that others wait for on some files (the loads
// cache, which a project load reads at the same time): the reader reads
// the files it names First before the rest.
type Firster interface {
	First(t model.TranscriptFile) bool
}

// Rider is a Consumer fed only the files another consumer has the
// reader read: it never makes the reader read a file of its own (the
// open project's loads and followers, which their owners read anyway
// when the pass does not). Skip is called, instead of Want, for each
// file the reader does not read.
type Rider interface {
	Skip(t model.TranscriptFile)
}

// File is a pass's reading of one transcript.
type File interface {
	// Line is each line, in order (Bytes is the reader's: not kept past
	// the call).
	Line(l model.Line)
	// End says the file was read: n bytes, err the read error (nil at
	// the end of the file), whole that the file still has the stamp
	// Want was given (it was not written meanwhile), so the result may
	// be kept across runs.
	End(n int64, err error, whole bool)
}

// Verdict is a File that checks each line whole as JSON (stat's
// summary): after its Line, Valid says whether the line was one valid
// JSON object (jsonscan's rule).
type Verdict interface {
	Valid() bool
}

// Trusting is a File that can take a Verdict's word for a line, to walk
// it without checking it again (doctor's field scan).
type Trusting interface {
	LineValid(l model.Line, valid bool)
}

// Walker is a Verdict that keeps the top-level members of each line it
// checked (stat's summary): a Walking reader takes them from it instead
// of walking the line's structure again.
type Walker interface {
	// KeepTop is called before the file's first line: keep says a
	// Walking reader shares the file, so the members are wanted (they
	// cost the Walker some work a line).
	KeepTop(keep bool)
	// Top is the members of the line Line read last (not Valid when it
	// was not one valid JSON object, nil when not kept); valid until the
	// next Line.
	Top() *jsonscan.Top
}

// Walking is a Trusting that reads a Walker's members of each line
// (doctor's field scan): top is not Valid when the line was not one
// valid JSON object.
type Walking interface {
	LineTop(l model.Line, top *jsonscan.Top)
}

// Recorder is a Verdict that reads each line for a transcript summary
// as it checks it (stat's summary): a Recording reader takes what it
// read instead of reading the line again.
type Recorder interface {
	// Record is how the summary counted the line Line read last: a
	// record (ReadRecord: r, valid until the next Line), a blank line
	// or one too long to keep (ReadBlank), or a line it left to the
	// transcript reader (ReadByModel), which is then the Recording
	// reader's to read.
	Record() (r *model.SummaryRecord, how Read)
}

// Read is how a Recorder counted a line.
type Read uint8

const (
	// ReadByModel: left to the transcript reader.
	ReadByModel Read = iota
	// ReadBlank: blank, or too long to keep.
	ReadBlank
	// ReadRecord: a record the Recorder read.
	ReadRecord
)

// Recording is a File that reads each line as a transcript summary
// does (the Projects list's last activity, the Replay list's
// followers): with a Recorder in the file's feeds it is given
// LineRecord, the Recorder's reading, instead of Line.
type Recording interface {
	LineRecord(l model.Line, r *model.SummaryRecord, how Read)
}

// Stats say what a Run read.
type Stats struct {
	// Files were opened and read whole once each; Bytes is what they
	// held.
	Files int
	Bytes int64
}

// Run reads every transcript of files (in home) that a consumer wants,
// once, on workers goroutines (GOMAXPROCS when 0), biggest first (those
// a Firster names before the others), and
// then calls every consumer's Done. A file that cannot be stamped or
// opened is left to the passes' own runs, which report it.
func Run(home fs.FS, files []model.TranscriptFile, workers int, consumers ...Consumer) (Stats, error) {
	order := slices.Clone(files)
	slices.SortStableFunc(order, func(a, b model.TranscriptFile) int { return cmp.Compare(b.Size, a.Size) })
	order = firstOf(order, consumers)
	for _, c := range consumers {
		if st, ok := c.(Starter); ok {
			st.Start(order)
		}
	}
	var nfiles, nbytes atomic.Int64
	var pool sync.Pool
	model.ParallelN(len(order), workers, func(i int) {
		t := order[i]
		skip := func() {
			for _, c := range consumers {
				if r, ok := c.(Rider); ok {
					r.Skip(t)
				}
			}
		}
		st, err := model.StampFile(home, t.Path)
		if err != nil {
			skip()
			return
		}
		var feeds []File
		for _, c := range consumers {
			if _, ok := c.(Rider); ok {
				continue
			}
			if f := c.Want(t, st); f != nil {
				feeds = append(feeds, f)
			}
		}
		if len(feeds) == 0 {
			skip()
			return
		}
		for _, c := range consumers {
			if _, ok := c.(Rider); !ok {
				continue
			}
			if f := c.Want(t, st); f != nil {
				feeds = append(feeds, f)
			}
		}
		lr, _ := pool.Get().(*model.LineReader)
		n, err := read(home, t.Path, &lr, feeds)
		pool.Put(lr)
		whole := err == nil && n == st.Size && model.Unchanged(home, t.Path, st)
		for _, f := range feeds {
			f.End(n, err, whole)
		}
		nfiles.Add(1)
		nbytes.Add(n)
	})
	var errs []error
	for _, c := range consumers {
		if err := c.Done(); err != nil {
			errs = append(errs, err)
		}
	}
	return Stats{Files: int(nfiles.Load()), Bytes: nbytes.Load()}, errors.Join(errs...)
}

// read hands each line of the file name to every feed and returns the
// bytes read; *lr is a line reader to reuse (nil: one is made).
func read(home fs.FS, name string, lr **model.LineReader, feeds []File) (int64, error) {
	f, err := model.OpenRegular(home, name)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	cr := &model.CountingReader{R: f}
	if *lr == nil {
		*lr = model.NewLineReader(cr)
	} else {
		(*lr).Reset(cr)
	}
	r := *lr
	// A Verdict's word goes to the Trusting feeds: it reads each line
	// first.
	var verdict Verdict
	var walker Walker
	var trusting []Trusting
	var walking []Walking
	var recorder Recorder
	var recording []Recording
	var rest []File
	for _, fd := range feeds {
		if v, ok := fd.(Verdict); ok && verdict == nil {
			verdict = v
			rest = append([]File{fd}, rest...)
			continue
		}
		rest = append(rest, fd)
	}
	if verdict != nil {
		walker, _ = verdict.(Walker)
		recorder, _ = verdict.(Recorder)
		others := rest[:1]
		for _, fd := range rest[1:] {
			if r, ok := fd.(Recording); ok && recorder != nil {
				recording = append(recording, r)
			} else if w, ok := fd.(Walking); ok && walker != nil {
				walking = append(walking, w)
			} else if t, ok := fd.(Trusting); ok {
				trusting = append(trusting, t)
			} else {
				others = append(others, fd)
			}
		}
		rest = others
		if walker != nil {
			walker.KeepTop(len(walking) > 0)
		}
	}
	for {
		l, ok := r.Next()
		if !ok {
			break
		}
		for _, fd := range rest {
			fd.Line(l)
		}
		if len(trusting) > 0 {
			valid := verdict.Valid()
			for _, t := range trusting {
				t.LineValid(l, valid)
			}
		}
		if len(walking) > 0 {
			top := walker.Top()
			for _, w := range walking {
				w.LineTop(l, top)
			}
		}
		if len(recording) > 0 {
			rec, how := recorder.Record()
			for _, r := range recording {
				r.LineRecord(l, rec, how)
			}
		}
	}
	return cr.N, r.Err()
}

// firstOf moves the files a Firster among consumers names to the front
// of order, keeping the order within each part.
func firstOf(order []model.TranscriptFile, consumers []Consumer) []model.TranscriptFile {
	var fs []Firster
	for _, c := range consumers {
		if f, ok := c.(Firster); ok {
			fs = append(fs, f)
		}
	}
	if len(fs) == 0 {
		return order
	}
	first := func(t model.TranscriptFile) bool {
		for _, f := range fs {
			if f.First(t) {
				return true
			}
		}
		return false
	}
	out := make([]model.TranscriptFile, 0, len(order))
	for _, t := range order {
		if first(t) {
			out = append(out, t)
		}
	}
	for _, t := range order {
		if !first(t) {
			out = append(out, t)
		}
	}
	return out
}

package sessions

import (
	"fmt"
	"io/fs"
	"maps"
	"slices"
	"time"

	"github.com/memscope/memscope/engine/homepass"
	"github.com/memscope/memscope/model"
)

// Follower keeps one transcript's summary up to date while the client
// appends to it: each Update reads, with the fast scanner, only the
// complete lines written since the last one (model.TailLines), and reads
// the file again whole when it was replaced, truncated or rewritten. The
// summary counts complete lines only (a line being written counts once
// it ends), so its Bytes is the size of those lines. A Follower is used
// by one goroutine at a time.
type Follower struct {
	w     *scanWorker
	tail  model.TailState
	title titler
	// starts counts the reads from the start of the file; attachments
	// the attachment records and unreadable lines the summary counts (see
	// Attachments).
	starts, attachments int
	// scanned counts the lines of the shared pass's read the follower
	// read itself (tests).
	scanned int
}

// NewFollower returns a Follower that has read nothing yet.
func NewFollower() *Follower {
	return &Follower{w: &scanWorker{ls: newLineScanner(), z: model.NewSummarizer()}}
}

// Update reads what was appended to the transcript name in fsys since
// the last call (the whole file the first time) and returns the summary
// of everything read. On an error the next call reads the file whole
// again.
func (f *Follower) Update(fsys fs.FS, name string) (model.TranscriptSummary, error) {
	var out FileScan
	for range 2 {
		if f.tail == (model.TailState{}) {
			f.starts++
			f.w.z.Reset(name)
			f.w.name = name
			f.title = titler{}
		}
		res, err := model.TailLines(fsys, name, f.tail, func(line model.Line) error {
			f.w.line(&out, line)
			f.title.line(line.Bytes)
			return nil
		})
		if err != nil {
			f.tail = model.TailState{}
			return model.TranscriptSummary{Path: name}, fmt.Errorf("read transcript %s: %w", name, err)
		}
		f.tail = res.State
		if res.Reset == "" {
			break
		}
		// Not the file read before: the loop reads it from the start.
	}
	sum := f.w.z.Summary(f.tail.Offset)
	f.attachments = sum.Types[string(model.RecordAttachment)] + len(sum.Problems)
	// The summary goes to other goroutines while the next Update adds
	// to the follower's own maps and problems.
	sum.Types, sum.Subtypes = maps.Clone(sum.Types), maps.Clone(sum.Subtypes)
	sum.Problems = slices.Clone(sum.Problems)
	return sum, nil
}

// Title is the session's title in what was read (Title's rules: custom
// title, else AI title, else first prompt).
func (f *Follower) Title() Title { return f.title.title() }

// Attachments says what the Follower read of the transcript's
// attachment records (the loads a session records are among them): how
// many times it read the file from the start, and how many attachment
// records and unreadable lines (a load line that does not decode is a
// problem of the loads) the summary counts. Neither changed: no such
// line was read since.
func (f *Follower) Attachments() (starts, lines int) { return f.starts, f.attachments }

// Read is how far the Follower has read.
func (f *Follower) Read() model.TailState { return f.tail }

// startFeed begins a read of the transcript name from its start by
// another reader (Handoff's pass), as Update's first read does.
func (f *Follower) startFeed(name string) {
	f.starts++
	f.w.z.Reset(name)
	f.w.name = name
	f.title = titler{}
}

// feedLine is one complete line of that read, as Update reads it.
func (f *Follower) feedLine(l model.Line) {
	f.scanned++
	var out FileScan
	f.w.line(&out, l)
	f.title.line(l.Bytes)
}

// feedRecord is feedLine taking stat's summary's reading of the line
// (homepass.Recorder), so the follower's summary counts it as its own
// reading would: the summary read the same lines before it, so its
// record is the one this reading makes. A line the summary left to the
// transcript reader is read here.
func (f *Follower) feedRecord(l model.Line, r *model.SummaryRecord, how homepass.Read) {
	switch how {
	case homepass.ReadRecord:
		f.w.z.Add(r)
	case homepass.ReadBlank:
		f.w.z.Blank(l)
	default:
		f.scanned++
		var out FileScan
		f.w.line(&out, l)
	}
	f.title.line(l.Bytes)
}

// endFeed ends that read: the file, stamped st before it, was read to
// its end, its last line (number last) ending in a line break. The
// follower stands where Update would have stopped.
func (f *Follower) endFeed(st model.FileStamp, last int) {
	f.tail = model.TailState{Offset: st.Size, Lines: last, Size: st.Size, ModTime: time.Unix(0, st.ModTime), ID: st.ID, Head: st.Head, HeadLen: st.HeadLen}
	sum := f.w.z.Summary(f.tail.Offset)
	f.attachments = sum.Types[string(model.RecordAttachment)] + len(sum.Problems)
}

package model

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"slices"
	"sync"
)

// followPendingMax bounds the unterminated last line a follower decodes
// for its snapshot: a longer one is a write in progress too large to
// re-read on every call, and is taken when its newline arrives.
const followPendingMax = 16 << 20

// TranscriptFollower reads a transcript once and afterwards only the
// lines appended to it (TailLines), for a viewer that follows a session
// while the client writes it. Each Next returns a snapshot that later
// calls never modify, so other goroutines may read it (walk its chains,
// replay a step) while the follower reads on. The records, their order,
// the summary and the problems are what ReadTranscriptWith would give
// for the file as it stands, an unterminated last line included.
//
// A follower is safe for concurrent use; calls are serialised.
type TranscriptFollower struct {
	mu   sync.Mutex
	name string
	opts ScanOptions
	// z counts the complete lines read so far, and t keeps their
	// records. shared says t was handed out as a snapshot, so it is
	// copied before the next change.
	z      *Summarizer
	t      *Transcript
	shared bool
	tail   TailState
	// last is the snapshot Next returned; pending the size of the
	// unterminated line it included (0: none).
	last    *Transcript
	pending int64
}

// FollowResult is what one TranscriptFollower.Next call read.
type FollowResult struct {
	// Transcript is the snapshot of the file as it stands; it is the
	// previous call's when Changed is false.
	Transcript *Transcript
	// Changed says Transcript differs from the previous call's (always
	// true on the first call).
	Changed bool
	// Reset says the file was replaced, truncated or rewritten, and was
	// read again from its start.
	Reset TailReset
	// Appended counts the complete lines read by this call.
	Appended int
	// Read is every byte read from the file.
	Read int64
	// Size is the file's size.
	Size int64
}

// NewTranscriptFollower follows the transcript name in the file system
// Next is given, decoding records with opts (as ReadTranscriptWith).
func NewTranscriptFollower(name string, opts ScanOptions) *TranscriptFollower {
	f := &TranscriptFollower{name: name, opts: opts}
	f.reset()
	return f
}

func (f *TranscriptFollower) reset() {
	f.z = newSummarizer(f.name, f.opts)
	f.t = NewTranscript(f.name)
	f.shared, f.tail, f.last, f.pending = false, TailState{}, nil, 0
}

// Path is the transcript's name.
func (f *TranscriptFollower) Path() string { return f.name }

// Next reads what was appended since the previous call (the whole file on
// the first call, or after a reset) and returns the snapshot.
func (f *TranscriptFollower) Next(fsys fs.FS) (FollowResult, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out FollowResult
	for attempt := 0; ; attempt++ {
		res, err := TailLines(fsys, f.name, f.tail, f.takeLine)
		out.Read += res.Read
		out.Appended += res.Lines
		if err != nil {
			return out, err
		}
		if res.Reset != "" && attempt == 0 {
			out.Reset = res.Reset
			f.reset()
			continue
		}
		f.tail = res.State
		out.Size = res.State.Size
		changed := f.last == nil || res.Lines > 0 || res.Pending != f.pending
		if !changed {
			out.Transcript = f.last
			return out, nil
		}
		snap, n, err := f.snapshot(fsys, res.Pending)
		out.Read += n
		if err != nil {
			return out, err
		}
		f.last, f.pending = snap, res.Pending
		out.Transcript, out.Changed = snap, true
		return out, nil
	}
}

// takeLine adds one complete line, as ScanTranscript would.
func (f *TranscriptFollower) takeLine(line Line) error {
	if f.shared {
		f.t, f.shared = f.t.followCopy(), false
	}
	addLine(f.z, f.t, line)
	return nil
}

// addLine counts line in z and keeps its record in t.
func addLine(z *Summarizer, t *Transcript, line Line) {
	if z.Blank(line) {
		return
	}
	if rec := new(Record); z.line(line, rec) {
		t.Add(rec)
	}
}

// snapshot hands out the lines read so far, plus the unterminated last
// line of pending bytes when there is one (which stays out of f.z and
// f.t: it is read again, whole, once its newline is written). It
// returns the bytes it read.
func (f *TranscriptFollower) snapshot(fsys fs.FS, pending int64) (*Transcript, int64, error) {
	if pending == 0 || pending > followPendingMax {
		f.t.Summary = f.z.summaryCopy(f.tail.Offset)
		f.shared = true
		return f.t, 0, nil
	}
	data, err := readSection(fsys, f.name, f.tail.Offset, pending)
	if err != nil {
		return nil, int64(len(data)), err
	}
	snap := f.t.followCopy()
	// The snapshot's own append must not land in f.t's spare capacity,
	// where f.t's next line goes.
	snap.Records = slices.Clip(snap.Records)
	snap.DuplicateUUIDs = slices.Clip(snap.DuplicateUUIDs)
	for k, v := range snap.children {
		snap.children[k] = slices.Clip(v)
	}
	line := Line{Bytes: data, Number: f.tail.Lines + 1, Offset: f.tail.Offset}
	if f.tail.Lines == 0 {
		line.Bytes = bytes.TrimPrefix(line.Bytes, utf8BOM)
	}
	z := f.z.fork()
	addLine(z, snap, line)
	snap.Summary = z.Summary(f.tail.Offset + int64(len(data)))
	return snap, int64(len(data)), nil
}

// readSection reads n bytes at off from the regular file name.
func readSection(fsys fs.FS, name string, off, n int64) ([]byte, error) {
	if info, err := fs.Stat(fsys, name); err != nil {
		return nil, err
	} else if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", name)
	}
	file, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	buf := make([]byte, n)
	got, err := readerAt(file).ReadAt(buf, off)
	if err != nil && !errors.Is(err, io.EOF) {
		return buf[:got], fmt.Errorf("read %s: %w", name, err)
	}
	return buf[:got], nil
}

// followCopy copies what a follower appends to, sharing the records
// themselves (which are never modified once added). The copy's slices
// share their arrays with t's: appending to the copy writes past the
// lengths t's readers see.
func (t *Transcript) followCopy() *Transcript {
	c := *t
	c.byUUID = maps.Clone(t.byUUID)
	c.children = maps.Clone(t.children)
	return &c
}

// summaryCopy is the summary so far (n bytes read) with maps of its own,
// for a snapshot z goes on counting past.
func (z *Summarizer) summaryCopy(n int64) TranscriptSummary {
	s := z.Summary(n)
	s.Types, s.Subtypes = maps.Clone(s.Types), maps.Clone(s.Subtypes)
	s.Problems = slices.Clip(s.Problems)
	return s
}

// fork is a copy of z that counts on without changing z: its maps are
// its own, and its problems go past the length z's summary hands out.
// The decoder is shared (calls are serialised by the follower).
func (z *Summarizer) fork() *Summarizer {
	c := *z
	c.sum.Types = maps.Clone(z.sum.Types)
	c.sum.Subtypes = maps.Clone(z.sum.Subtypes)
	c.sum.Problems = slices.Clip(z.sum.Problems)
	c.seen = maps.Clone(z.seen)
	c.key = nil
	return &c
}

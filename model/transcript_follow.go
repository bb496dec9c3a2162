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
	ld   *LineDecoder
	// t holds the complete lines read so far. shared says it was handed
	// out as a snapshot, so it is copied before the next change.
	t      *Transcript
	shared bool
	seen   map[string]struct{}
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
	f.ld = NewLineDecoder(f.name, f.opts)
	f.t = newFollowed(f.name)
	f.shared, f.seen, f.tail, f.last, f.pending = false, map[string]struct{}{}, TailState{}, nil, 0
}

func newFollowed(name string) *Transcript {
	t := NewTranscript(name)
	t.Summary = TranscriptSummary{Path: name, Types: map[string]int{}, Subtypes: map[string]int{}}
	return t
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
	if len(bytes.TrimSpace(line.Bytes)) == 0 {
		f.t.Summary.BlankLines++
		return nil
	}
	f.addLine(f.t, line)
	return nil
}

func (f *TranscriptFollower) addLine(t *Transcript, line Line) {
	s := &t.Summary
	s.Lines++
	rec := new(Record)
	probs, ok := f.ld.Decode(line, rec)
	s.Problems = append(s.Problems, probs...)
	if !ok {
		return
	}
	s.add(rec, f.seen)
	t.Add(rec)
}

// snapshot hands out the lines read so far, plus the unterminated last
// line of pending bytes when there is one (which stays out of f.t: it is
// read again, whole, once its newline is written). It returns the bytes
// it read.
func (f *TranscriptFollower) snapshot(fsys fs.FS, pending int64) (*Transcript, int64, error) {
	f.t.Summary.Bytes = f.tail.Offset
	if pending == 0 || pending > followPendingMax {
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
	snap.Summary.Problems = slices.Clip(snap.Summary.Problems)
	for k, v := range snap.children {
		snap.children[k] = slices.Clip(v)
	}
	// The line decoder's seen set is the follower's: keep it unchanged.
	seen := f.seen
	f.seen = maps.Clone(seen)
	line := Line{Bytes: data, Number: f.tail.Lines + 1, Offset: f.tail.Offset}
	if f.tail.Lines == 0 {
		line.Bytes = bytes.TrimPrefix(line.Bytes, utf8BOM)
	}
	if len(bytes.TrimSpace(line.Bytes)) > 0 {
		f.addLine(snap, line)
	} else {
		snap.Summary.BlankLines++
	}
	f.seen = seen
	snap.Summary.Bytes = f.tail.Offset + int64(len(data))
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
	c.Summary.Types = maps.Clone(t.Summary.Types)
	c.Summary.Subtypes = maps.Clone(t.Summary.Subtypes)
	return &c
}

package vault

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"sync"
	"time"

	"github.com/memscope/memscope/model"
)

// writebackStep is how many bytes of a pack are written to its
// temporary file before their writeback is started (startWriteback).
const writebackStep = 1 << 20

// errStreamAborted is a pack stream's error when its pack is dropped
// (the sync failed before it was sealed): its temporary file is removed.
var errStreamAborted = errors.New("pack dropped")

// packStream is a pack being written to its temporary file, through the
// one writer (model.CreateFileAtomicWith), while it fills: each part is
// written as it is appended, and its writeback started every
// writebackStep bytes, so the pack's fsync, once it is sealed, has
// little left to wait for. Before, a pack was written and synced whole
// once sealed, and a sync's last pack (up to 8 MiB) was the one serial
// step at its end. The pack takes its name only once sealed and synced,
// as before; a sync killed before leaves a temporary file, as a kill
// during a write always could (verify reports it, a sync ignores it).
type packStream struct {
	name string
	base string
	// mu guards queue, sealed, aborted, w, writing and werr; more
	// signals a change.
	mu      sync.Mutex
	more    *sync.Cond
	queue   [][]byte
	sealed  bool
	aborted bool
	// w is the pack's temporary file once created (nil before, and once
	// the stream's goroutine is done with it). writing says a goroutine
	// is writing queued parts to it, one at a time and in order: the
	// stream's own, or one that pushed a part (pump); werr is a failed
	// write's error.
	w       io.Writer
	writing bool
	werr    error
	// bufs takes the written parts back; batch, off and from are the
	// writing goroutine's (writeQueued).
	bufs      *bufList
	batch     [][]byte
	off, from int64
	// done is closed once the pack is written, synced and named (or
	// failed: err).
	done chan struct{}
	err  error
}

// startStream begins a pack's stream: its temporary file is created and
// written by a goroutine of its own, parts given back to p.partBufs
// once written.
func (p *packWriter) startStream() *packStream {
	var rnd [4]byte
	_, _ = rand.Read(rnd[:])
	name := fmt.Sprintf("%d-%x", p.now().UnixMilli(), rnd)
	s := &packStream{name: name, base: filepath.Join(p.v.Dir, packsDir, name), done: make(chan struct{})}
	s.more = sync.NewCond(&s.mu)
	go func() {
		defer close(s.done)
		s.err = model.CreateFileAtomicWith(p.v.w, s.base+".pack", 0o600, time.Time{}, s.writeTo(&p.partBufs))
	}()
	return s
}

// push queues b, the pack's next part (the caller keeps the parts'
// order).
func (s *packStream) push(b []byte) {
	s.mu.Lock()
	s.queue = append(s.queue, b)
	s.mu.Unlock()
	s.more.Signal()
}

// seal says no part follows: the pack is synced and named once its
// queue is written.
func (s *packStream) seal() {
	s.mu.Lock()
	s.sealed = true
	s.mu.Unlock()
	s.more.Signal()
}

// abort drops the pack (its temporary file is removed) and waits for
// its writer.
func (s *packStream) abort() {
	s.mu.Lock()
	s.aborted = true
	s.mu.Unlock()
	s.more.Signal()
	<-s.done
}

// wait is the pack's write's error, once it is synced and named.
func (s *packStream) wait() error {
	<-s.done
	return s.err
}

// pump writes the parts queued so far on the calling goroutine, which
// pushed one (its lock of the pack writer let go), unless another
// goroutine is writing them or the file is not created yet. Before, the
// stream's goroutine alone wrote them: woken while both cores were busy
// compressing and cutting, it waited its turn, and a first sync held six
// to nine compressed frames (4 MiB of room each) queued, up to 27 in a
// test (docs/VAULT.md, "i31m").
func (s *packStream) pump() {
	s.mu.Lock()
	ready := s.w != nil
	if ready {
		s.writeQueued()
	}
	early := !ready && !s.sealed && !s.aborted
	s.mu.Unlock()
	if early {
		// The stream's goroutine has not created the file yet: it
		// waits to run behind the caller (both cores busy), and every
		// part would queue until the caller is preempted. It runs now.
		runtime.Gosched()
	}
}

// writeQueued writes the queued parts (mu held, let go while writing)
// unless another goroutine is writing them (it writes these too), and
// returns with mu held once the queue is written, the pack dropped or a
// write failed (werr).
func (s *packStream) writeQueued() {
	if s.writing {
		return
	}
	s.writing = true
	for len(s.queue) > 0 && s.werr == nil && !s.aborted {
		s.batch = append(s.batch[:0], s.queue...)
		clear(s.queue)
		s.queue = s.queue[:0]
		s.mu.Unlock()
		err := s.write(s.batch)
		clear(s.batch)
		s.mu.Lock()
		if err != nil {
			s.werr = err
		}
	}
	s.writing = false
	s.more.Broadcast()
}

// write writes batch to the pack's file (writing held), giving the
// header's followers back to bufs, and starts their writeback every
// writebackStep bytes.
func (s *packStream) write(batch [][]byte) error {
	for _, b := range batch {
		if _, err := s.w.Write(b); err != nil {
			return err
		}
		if s.off > 0 {
			s.bufs.put(b)
		}
		s.off += int64(len(b))
	}
	if s.off-s.from >= writebackStep {
		startWriteback(s.w, s.from, s.off-s.from)
		s.from = s.off
	}
	return nil
}

// writeTo is the stream's goroutine: it writes the queued parts to w
// that no pusher wrote (pump) until the pack is sealed, its parts
// given back to bufs; after a failed write it waits for the pack to be
// sealed or dropped, its parts let go.
func (s *packStream) writeTo(bufs *bufList) func(io.Writer) error {
	return func(w io.Writer) error {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.w, s.bufs = w, bufs
		defer func() { s.w = nil }()
		for {
			switch {
			case s.writing:
				s.more.Wait()
			case s.aborted:
				s.queue = nil
				return errStreamAborted
			case s.werr != nil:
				for !s.sealed && !s.aborted {
					s.queue = s.queue[:0]
					s.more.Wait()
				}
				s.queue = nil
				return s.werr
			case len(s.queue) > 0:
				s.writeQueued()
			case s.sealed:
				return nil
			default:
				s.more.Wait()
			}
		}
	}
}

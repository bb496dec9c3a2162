package vault

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"path/filepath"
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
	// mu guards queue, sealed and aborted; more signals a change.
	mu      sync.Mutex
	more    *sync.Cond
	queue   [][]byte
	sealed  bool
	aborted bool
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

// writeTo writes the queued parts to w until the pack is sealed, giving
// the header's followers back to bufs, and starts their writeback
// every writebackStep bytes.
func (s *packStream) writeTo(bufs *bufList) func(io.Writer) error {
	return func(w io.Writer) error {
		var off, from int64
		first := true
		var batch [][]byte
		for {
			s.mu.Lock()
			for len(s.queue) == 0 && !s.sealed && !s.aborted {
				s.more.Wait()
			}
			batch = append(batch[:0], s.queue...)
			clear(s.queue)
			s.queue = s.queue[:0]
			sealed, aborted := s.sealed, s.aborted
			s.mu.Unlock()
			if aborted {
				return errStreamAborted
			}
			for _, b := range batch {
				if _, err := w.Write(b); err != nil {
					s.drain()
					return err
				}
				off += int64(len(b))
				if !first {
					bufs.put(b)
				}
				first = false
			}
			if off-from >= writebackStep {
				startWriteback(w, from, off-from)
				from = off
			}
			if sealed && len(batch) == 0 {
				return nil
			}
		}
	}
}

// drain waits, after a failed write, for the pack to be sealed or
// dropped, its parts let go.
func (s *packStream) drain() {
	s.mu.Lock()
	for !s.sealed && !s.aborted {
		s.queue = s.queue[:0]
		s.more.Wait()
	}
	s.queue = nil
	s.mu.Unlock()
}

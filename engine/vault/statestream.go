package vault

import (
	"bufio"
	"errors"
	"io"
	"path/filepath"
	"time"

	"github.com/memscope/memscope/model"
)

// stateStream is a sync's new state file being written to its temporary
// file, through the one writer (model.WriteFileAtomicFrom), while the
// files are synced: each file's state line is written once the files
// before it in the state's order are, and let go. Before, every line
// was held until the sync's end and written then (18 MB on W, live heap
// that the collector's target multiplies: docs/VAULT.md, "i31r"). The
// file is created at the first line (a sync that changes nothing
// creates none), synced once the last line is written, and renamed
// into place only once ready returns (after the packs: syncThenWait); a
// failed sync's (finish with an error) is removed, as the writer's
// temporary files are.
type stateStream struct {
	v   *Vault
	st  *state
	now time.Time
	// lines carries the lines to the writing goroutine, once started.
	lines chan []byte
	// ready and fail are set before lines is closed: what the rename
	// waits for, and the error that drops the file.
	ready func() error
	fail  error
	done  chan error
}

// stateStreamLines is how many lines wait for the writing goroutine
// before a sender waits.
const stateStreamLines = 64

func (v *Vault) newStateStream(st *state, now time.Time) *stateStream {
	return &stateStream{v: v, st: st, now: now}
}

// write hands line (the state's next) to the file.
func (s *stateStream) write(line []byte) {
	if s.lines == nil {
		s.start()
	}
	s.lines <- line
}

func (s *stateStream) start() {
	s.lines = make(chan []byte, stateStreamLines)
	s.done = make(chan error, 1)
	name, err := s.v.nextStateName(s.st, s.now)
	go func() {
		if err != nil {
			for range s.lines {
			}
			s.done <- err
			return
		}
		err := model.WriteFileAtomicFrom(syncOnce(s.v.w), filepath.Join(s.v.Dir, stateDir, name), 0o600, func(w io.Writer) error {
			bw := bufio.NewWriterSize(w, stateWriteBuf)
			var err error
			for b := range s.lines {
				if err == nil {
					_, err = bw.Write(b)
				}
			}
			if err == nil {
				err = s.fail
			}
			if err == nil {
				err = bw.Flush()
			}
			if err != nil {
				return err
			}
			return syncThenWait(w, s.ready)
		})
		for range s.lines {
			// the file could not be created: the lines are let go
		}
		if err == nil {
			s.st.files = append(s.st.files, name)
		}
		s.done <- err
	}()
}

// errStateDropped is a dropped state stream's error.
var errStateDropped = errors.New("state file dropped")

// finish ends the file: with fail nil, it is synced and renamed into
// place once ready returns (its error drops it), and the state files
// merged when there are too many; else it is dropped. It returns the
// write's error (nil when no line was written).
func (s *stateStream) finish(ready func() error, fail error) error {
	if s.lines == nil {
		return nil
	}
	if ready == nil {
		ready = func() error { return nil }
	}
	s.ready, s.fail = ready, fail
	close(s.lines)
	err := <-s.done
	if err != nil || fail != nil {
		return err
	}
	if len(s.st.files) > maxStateFiles {
		// The records this sync wrote are held as their heads only
		// (keepHead): the state files are read again, the new one
		// with them.
		st, err := s.v.loadState()
		if err != nil {
			return err
		}
		if err := s.v.mergeState(st, s.now); err != nil {
			return err
		}
		s.st.files = st.files
	}
	return nil
}

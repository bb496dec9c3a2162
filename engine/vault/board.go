package vault

import "sync"

// resultBoard is where a sync's workers post each file's result, and
// the sync takes them in the files' order (a result is held only until
// taken). pause makes the early files' workers step aside (syncAll)
// while the rest of the home is synced.
type resultBoard struct {
	mu     sync.Mutex
	cond   *sync.Cond
	res    map[string]fileResult
	closed bool
	halt   bool
}

func newResultBoard() *resultBoard {
	b := &resultBoard{res: map[string]fileResult{}}
	b.cond = sync.NewCond(&b.mu)
	return b
}

// post gives rel's result.
func (b *resultBoard) post(rel string, r fileResult) {
	b.mu.Lock()
	b.res[rel] = r
	b.mu.Unlock()
	b.cond.Broadcast()
}

// close says no result follows.
func (b *resultBoard) close() {
	b.mu.Lock()
	b.closed = true
	b.mu.Unlock()
	b.cond.Broadcast()
}

// take waits for rel's result and removes it; false when the board was
// closed without it (a write error stopped the workers).
func (b *resultBoard) take(rel string) (fileResult, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for {
		if r, ok := b.res[rel]; ok {
			delete(b.res, rel)
			return r, true
		}
		if b.closed {
			return fileResult{}, false
		}
		b.cond.Wait()
	}
}

// pause and resume bracket the rest's sync.
func (b *resultBoard) pause() {
	b.mu.Lock()
	b.halt = true
	b.mu.Unlock()
}

func (b *resultBoard) resume() {
	b.mu.Lock()
	b.halt = false
	b.mu.Unlock()
	b.cond.Broadcast()
}

// paused reports whether the early files' workers are to step aside.
func (b *resultBoard) paused() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.halt
}

// waitResume waits until the rest is synced.
func (b *resultBoard) waitResume() {
	b.mu.Lock()
	for b.halt {
		b.cond.Wait()
	}
	b.mu.Unlock()
}

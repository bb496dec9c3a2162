package model

import (
	"io"
	"sync"
)

// lineReaders keeps the line readers of finished scans, so a reader of
// many transcripts (the loss ledger of a home, a file after another on
// each worker) does not allocate and clear a fresh 256 KiB buffer for
// every file: on a home of 300 transcripts that was 75 MB of a cold
// `replay --lost --all`'s 465 MB of allocation.
var lineReaders sync.Pool

// longKeep is the largest long-line buffer a pooled reader keeps; a
// reader that assembled a longer line gives that memory back.
const longKeep = 1 << 20

// getLineReader is NewLineReader(r), with a pooled reader when there is one.
func getLineReader(r io.Reader) *LineReader {
	if lr, ok := lineReaders.Get().(*LineReader); ok {
		lr.Reset(r)
		return lr
	}
	return NewLineReader(r)
}

// putLineReader gives lr, whose lines are no longer used, back to the
// pool, without its input and with its default line limit.
func putLineReader(lr *LineReader) {
	lr.Reset(nil)
	lr.err, lr.MaxLine = nil, 0
	if cap(lr.long) > longKeep {
		lr.long = nil
	}
	lineReaders.Put(lr)
}

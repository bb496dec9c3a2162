package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"
)

// readClientJSON reads the first JSON value Claude Code pipes to a
// command it runs (the status line, a hook): at most max bytes, within
// wait. It answers as soon as the value is complete, without waiting for
// the pipe to close (a client, or `sleep 30 | memscope …`, may keep it
// open), and after wait when it never completes, never a hang.
func readClientJSON(r io.Reader, max int, wait time.Duration) ([]byte, error) {
	if r == nil {
		return nil, errors.New("no stdin: the input is read from it")
	}
	type read struct {
		data []byte
		err  error
	}
	done := make(chan read, 1)
	go func() {
		// Left blocked on a pipe nobody closes when the wait runs out;
		// the process answers and exits anyway. A panic here would end
		// the process past a caller's recover.
		defer func() {
			if p := recover(); p != nil {
				done <- read{err: fmt.Errorf("internal error: %v", p)}
			}
		}()
		data, err := readFirstValue(r, max)
		done <- read{data, err}
	}()
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case got := <-done:
		return got.data, got.err
	case <-timer.C:
		return nil, fmt.Errorf("no complete JSON object on stdin after %s (the pipe is still open)", wait)
	}
}

// readFirstValue reads r until it holds one complete JSON value (without
// waiting for r to end), r ends, or more than max bytes came. What is
// not a complete value is returned as read, for the parser to say what
// is wrong with it.
func readFirstValue(r io.Reader, max int) ([]byte, error) {
	var seen bytes.Buffer
	dec := json.NewDecoder(io.TeeReader(io.LimitReader(r, int64(max)+1), &seen))
	var value json.RawMessage
	err := dec.Decode(&value)
	var syntax *json.SyntaxError
	switch {
	case err == nil:
		return value, nil
	case seen.Len() > max:
		if max%(1<<20) == 0 && max >= 4<<20 {
			return nil, fmt.Errorf("the input on stdin is over %d MiB", max>>20)
		}
		return nil, fmt.Errorf("the input on stdin is over %d bytes", max)
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF), errors.As(err, &syntax):
		return seen.Bytes(), nil
	default:
		return nil, fmt.Errorf("reading stdin: %w", err)
	}
}

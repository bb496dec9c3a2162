package cli

import (
	"bytes"
	"io"
	"runtime"
	"sync"

	"github.com/memscope/memscope/engine/ledger"
	"github.com/memscope/memscope/model"
)

// lostSessionPrefix is the indentation writeJSON gives an element of
// lostAllOut's "sessions".
const lostSessionPrefix = "    "

// lostAllJSON is out as writeJSON prints it, byte for byte, with each
// session's JSON made ahead (lostAppender, else encoding/json) by one
// worker per CPU: on a home of hundreds of compacted transcripts the
// encoding is a run's last, single-threaded step.
func lostAllJSON(out lostAllOut) jsonPart {
	if len(out.Sessions) == 0 {
		return jsonValue(out)
	}
	parts := make([][]byte, len(out.Sessions))
	errs := make([]error, len(out.Sessions))
	var next sync.Mutex
	i := 0
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(parts)) {
		wg.Go(func() {
			var buf bytes.Buffer
			w := lostAppender{prefix: lostSessionPrefix}
			for {
				next.Lock()
				j := i
				i++
				next.Unlock()
				if j >= len(parts) {
					return
				}
				w.b = w.b[:0]
				if w.session(out.Sessions[j]) {
					parts[j] = bytes.Clone(escapeTerminalRunes(w.b))
					continue
				}
				buf.Reset()
				errs[j] = jsonValue(out.Sessions[j])(&buf, lostSessionPrefix)
				parts[j] = bytes.Clone(buf.Bytes())
			}
		})
	}
	wg.Wait()
	head := lostAllOut{Sessions: []ledger.Session{{File: model.TranscriptFile{Path: streamToken}}}, Problems: out.Problems}
	return jsonStream(head, func(yield func(jsonPart) error) error {
		for j, p := range parts {
			s := out.Sessions[j]
			err := yield(func(w io.Writer, prefix string) error {
				if errs[j] != nil || prefix != lostSessionPrefix {
					return jsonValue(s)(w, prefix)
				}
				_, err := w.Write(p)
				return err
			})
			if err != nil {
				return err
			}
		}
		return nil
	})
}

package engine

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
)

// benchSession is a long working session: n exchanges, each a prompt (one
// in ten asks to remember something), an answer with a Read call and its
// result of a few kilobytes.
func benchSession(n int) string {
	c := newConvo("b0b0b0b0-1111-4222-8333-444455556666", time.Date(2026, 4, 1, 8, 0, 0, 0, time.UTC))
	for i := 0; i < n; i++ {
		if i%10 == 0 {
			c.user(fmt.Sprintf("Remember that service %d owns its own schema, because shared tables broke two releases.", i))
		} else {
			c.user(fmt.Sprintf("look at handler %d and tell me why the retry count is %d", i, i%7))
		}
		id := c.assistant("Reading the handler first.", "Read")
		c.result(id, strings.Repeat(fmt.Sprintf("func handle%d(ctx context.Context) error { return nil }\n", i), 60))
		c.assistant("The retry count comes from the config default.", "")
	}
	return c.b.String()
}

// BenchmarkExtractFromTranscript reads a 2000-exchange session (about
// 10 MB) and extracts from its prompts; bytes/s is transcript bytes.
func BenchmarkExtractFromTranscript(b *testing.B) {
	data := benchSession(2000)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		tr := readConvo(b, data, withText)
		res, p, err := ExtractFromTranscript(context.Background(), tr, nil, nil, nil)
		if err != nil || len(p.Inputs) != 2000 || len(res.Candidates) == 0 {
			b.Fatalf("err %v, %d inputs, %d candidates", err, len(p.Inputs), len(res.Candidates))
		}
	}
}

// BenchmarkFlush hands 4000 messages to a fresh flush hook: the cost the
// pre-compaction flush adds to one autocompact.
func BenchmarkFlush(b *testing.B) {
	tr := readConvo(b, benchSession(1000), withText)
	msgs := InputFromResume(tr, ResumeTranscript(tr, ResumeOptions{})).Messages
	b.ReportAllocs()
	for b.Loop() {
		hook := NewFlushExtractor(FlushConfig{Transcript: tr})
		if err := hook.BeforeCompact(msgs); err != nil || len(hook.Result().Candidates) == 0 {
			b.Fatalf("err %v, %d candidates", err, len(hook.Result().Candidates))
		}
	}
}

package extract

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/memscope/memscope/engine/compact"
	"github.com/memscope/memscope/engine/internal/enginetest"
	"github.com/memscope/memscope/engine/timeline"
)

// benchSession is a long working session: n exchanges, each a prompt (one
// in ten asks to remember something), an answer with a Read call and its
// result of a few kilobytes.
func benchSession(n int) string {
	c := enginetest.NewConvo("b0b0b0b0-1111-4222-8333-444455556666", time.Date(2026, 4, 1, 8, 0, 0, 0, time.UTC))
	for i := 0; i < n; i++ {
		if i%10 == 0 {
			c.User(fmt.Sprintf("Remember that service %d owns its own schema, because shared tables broke two releases.", i))
		} else {
			c.User(fmt.Sprintf("look at handler %d and tell me why the retry count is %d", i, i%7))
		}
		id := c.Assistant("Reading the handler first.", "Read")
		c.Result(id, strings.Repeat(fmt.Sprintf("func handle%d(ctx context.Context) error { return nil }\n", i), 60))
		c.Assistant("The retry count comes from the config default.", "")
	}
	return c.B.String()
}

// BenchmarkExtractFromTranscript reads a 2000-exchange session (about
// 10 MB) and extracts from its prompts; bytes/s is transcript bytes.
func BenchmarkExtractFromTranscript(b *testing.B) {
	data := benchSession(2000)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		tr := enginetest.ReadConvo(b, data, enginetest.WithText)
		res, p, err := FromTranscript(context.Background(), tr, nil, nil, nil)
		if err != nil || len(p.Inputs) != 2000 || len(res.Candidates) == 0 {
			b.Fatalf("err %v, %d inputs, %d candidates", err, len(p.Inputs), len(res.Candidates))
		}
	}
}

// BenchmarkFlush hands 4000 messages to a fresh flush hook: the cost the
// pre-compaction flush adds to one autocompact.
func BenchmarkFlush(b *testing.B) {
	tr := enginetest.ReadConvo(b, benchSession(1000), enginetest.WithText)
	msgs := compact.InputFromResume(tr, timeline.ResumeTranscript(tr, timeline.ResumeOptions{})).Messages
	b.ReportAllocs()
	for b.Loop() {
		hook := NewFlushExtractor(FlushConfig{Transcript: tr})
		if err := hook.BeforeCompact(msgs); err != nil || len(hook.Result().Candidates) == 0 {
			b.Fatalf("err %v, %d candidates", err, len(hook.Result().Candidates))
		}
	}
}

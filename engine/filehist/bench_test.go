package filehist

import (
	"io/fs"
	"testing"

	"github.com/memscope/memscope/engine/internal/enginetest"
)

// BenchmarkReadSessionFileHistory reads every session of the generated
// bench home that has file history: transcript, backup folder, turns,
// versions. Bytes are the transcripts read.
func BenchmarkReadSessionFileHistory(b *testing.B) {
	h := enginetest.BenchHome(b)
	sessions, _ := Sessions(h.FS)
	var n int64
	for _, s := range sessions {
		if s.Transcript != "" {
			if st, err := fs.Stat(h.FS, s.Transcript); err == nil {
				n += st.Size()
			}
		}
	}
	if n == 0 {
		b.Skip("the bench home has no file history")
	}
	b.SetBytes(n)
	b.ReportAllocs()
	for b.Loop() {
		for _, s := range sessions {
			if _, err := ReadSessionFileHistory(h.FS, s.SessionID, s.Transcript); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkFileHistorySessions lists the sessions with file history.
func BenchmarkFileHistorySessions(b *testing.B) {
	h := enginetest.BenchHome(b)
	b.ReportAllocs()
	for b.Loop() {
		Sessions(h.FS)
	}
}

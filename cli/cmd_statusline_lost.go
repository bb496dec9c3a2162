package cli

import (
	"time"

	"github.com/memscope/memscope/engine/ledger"
	"github.com/memscope/memscope/engine/live"
	"github.com/memscope/memscope/internal/format"
	"github.com/memscope/memscope/model"
)

// lostShownFor is how long after a compaction the status line says what
// it dropped of the user's rules (issue 32).
const lostShownFor = time.Minute

// addLostRules adds "lost N rules" to the status line for lostShownFor
// after the session's last compaction, from that boundary's loss ledger.
// Only then is the whole transcript read; a compaction that dropped no
// rule, or a transcript that cannot be read, adds nothing.
func addLostRules(e *env, st *live.Status) {
	c := st.LastCompaction
	if c == nil || c.Time.IsZero() || st.Transcript == "" {
		return
	}
	if age := e.now().Sub(c.Time); age < 0 || age > lostShownFor {
		return
	}
	t, err := model.ReadTranscriptWith(e.root, st.Transcript, ledger.ScanOptions)
	if err != nil {
		return
	}
	b, ok := ledger.Of(t, c.UUID, 0)
	if !ok {
		return
	}
	st.LostRules = b.Count(ledger.KindRule)
	if st.LostRules == 0 {
		return
	}
	lost := "lost " + format.Count(st.LostRules, "rule", "rules")
	if st.Line == "" {
		st.Line = lost
	} else {
		st.Line += " · " + lost
	}
}

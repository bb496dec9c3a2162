package cli

import (
	"github.com/memscope/memscope/engine/ledger"
	"github.com/memscope/memscope/model"
)

// keepLost writes the items --keep names (filled in by the keep step).
func keepLost(e *env, opts replayOptions, sf *sessionFile, tr *model.Transcript, l ledger.Ledger) ([]keptOut, error) {
	return nil, usageError("--keep: not yet")
}

package msgs

import "github.com/memscope/memscope/engine/ledger"

// KeepLost asks the shell to keep a rule a compaction lost as a feedback
// memory of the open project (ledger.Keep, through the project's store,
// undone with u).
type KeepLost struct {
	Item ledger.Item
	// Session is the session the rule came from.
	Session string
}

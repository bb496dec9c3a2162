package msgs

import "github.com/memscope/memscope/engine/ledger"

// KeepLost asks the shell to keep a rule a compaction lost where the
// client re-reads it every turn: a feedback memory of the open project, a
// rules file or its CLAUDE.md (ledger.Keep, through the store, undone
// with u).
type KeepLost struct {
	Item ledger.Item
	// Session is the session the rule came from.
	Session string
	// To is where to keep it (the CLI's --to): a memory, a line of a
	// rules file, or a line of CLAUDE.md.
	To ledger.Target
}

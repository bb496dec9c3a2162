// Package gate judges a Write, Edit or MultiEdit the client is about to
// make to memory (MEMORY.md, a topic file, agent or team memory) or to an
// instruction file (CLAUDE.md, CLAUDE.local.md, a rule), before it runs:
// the client's PreToolUse hook calls `memscope hook pre-tool-use`, which
// hands the event here. The file is judged as it would be after the call,
// by the lint package's own checks (never a copy of them); each rule that
// fires maps to allow, ask or deny through a Policy, and every decision is
// recorded (Record) for `memscope gate log` and the panes.
package gate

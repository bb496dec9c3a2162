package model

// How much memscope reads of one file at most. A file past its limit is
// reported as a problem (file and size) and skipped, never read into
// memory: a hostile or damaged home (a 1 GB MEMORY.md, a power loss's
// run of NUL bytes, a link to /dev/zero) must not make a command grow
// without bound. Each limit is far above what the client itself makes or
// uses, so real homes never meet them.
const (
	// MaxLineBytes bounds one line of a JSONL file (transcript, history,
	// journal). The client's largest lines are tool results and pasted
	// images, a few MB; a longer line is skipped with its size.
	MaxLineBytes = 32 << 20
	// MaxDocumentBytes bounds a file read whole as text: a memory file,
	// MEMORY.md, CLAUDE.md and its imports, a rule. The client loads
	// 25 000 characters of MEMORY.md and a few of a memory file.
	MaxDocumentBytes = 16 << 20
	// MaxIndexHeadBytes is how much of a MEMORY.md larger than
	// MaxDocumentBytes is read: the client loads 25 000 characters (at
	// most 100 000 bytes of UTF-8) of it, and a margin shows what follows.
	MaxIndexHeadBytes = 128 << 10
	// MaxFrontmatterBytes bounds the YAML block of a memory file that is
	// parsed: a memory's frontmatter is a few lines (name, description,
	// type, metadata), and a nested block costs the parser time and
	// memory out of all proportion.
	MaxFrontmatterBytes = 64 << 10
	// MaxConfigBytes bounds a settings file or ~/.claude.json (which
	// keeps per-project state and grows with use).
	MaxConfigBytes = 64 << 20
	// MaxSmallBytes bounds small records: a live session's <pid>.json,
	// a git pointer file.
	MaxSmallBytes = 1 << 20
	// MaxJournalBytes bounds an undo or restore journal (100 entries with
	// the files' previous content).
	MaxJournalBytes = 64 << 20
	// MaxBackupBytes bounds a file-history backup or a project file
	// read to compare or restore it.
	MaxBackupBytes = 64 << 20
)

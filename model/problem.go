package model

import "fmt"

// ProblemKind classifies a Problem so reports can group them.
type ProblemKind string

// The kinds of problem a reader reports.
const (
	// ProblemMalformed is a line or file that could not be parsed; it was skipped.
	ProblemMalformed ProblemKind = "malformed"
	// ProblemIncompleteTail is a last line without a newline that does not
	// parse: most likely a writer is mid-append, so it is not corruption.
	ProblemIncompleteTail ProblemKind = "incomplete-tail"
	// ProblemInvalidFrontmatter is a memory file whose YAML frontmatter is bad.
	ProblemInvalidFrontmatter ProblemKind = "invalid-frontmatter"
	// ProblemUnreadable is a file or folder that could not be opened or read.
	ProblemUnreadable ProblemKind = "unreadable"
	// ProblemEncoding is text that is not valid UTF-8 (kept, but reported).
	ProblemEncoding ProblemKind = "encoding"
	// ProblemTooLarge is a line or file longer than memscope reads (see
	// the limits in limits.go); it was skipped without being kept.
	ProblemTooLarge ProblemKind = "too-large"
)

// Problem is one piece of bad input: where it is and why it was skipped.
// Line is 1-based; 0 means the whole file.
type Problem struct {
	File   string      `json:"file"`
	Line   int         `json:"line"`
	Kind   ProblemKind `json:"kind"`
	Reason string      `json:"reason"`
}

// Error formats the problem as "file:line: reason".
func (p Problem) Error() string {
	if p.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", p.File, p.Line, p.Reason)
	}
	return fmt.Sprintf("%s: %s", p.File, p.Reason)
}

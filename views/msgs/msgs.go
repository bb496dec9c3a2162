// Package msgs holds the requests panes send to the root model. A pane
// never does I/O: it returns a Cmd that emits one of these, and the root
// runs the work (in a Cmd of its own) and routes the result back.
package msgs

// SelectProject asks the root to load and show another project.
type SelectProject struct {
	// Slug is the project's folder name under projects/.
	Slug string
}

// OpenEditor asks the root to open Path in $VISUAL/$EDITOR and reload
// afterwards.
type OpenEditor struct {
	Path string
}

// Status shows a one-line message in the status bar.
type Status struct {
	Text  string
	Error bool
}

// CreateMemory asks the root to create a typed memory file.
type CreateMemory struct {
	Name        string
	Type        string
	Description string
	Body        string
	// Force writes even when the security scan finds a high-severity issue.
	Force bool
}

// RetypeMemory asks the root to change a memory's type.
type RetypeMemory struct {
	Path string
	Type string
}

// RenameMemory asks the root to rename a memory (file, name and links).
type RenameMemory struct {
	Path    string
	NewName string
}

// DeleteMemory asks the root to move a memory to the trash.
type DeleteMemory struct {
	Path string
}

// ApplyPlan asks the root to apply the selected prune actions.
type ApplyPlan struct {
	// Actions are the ids of the selected actions.
	Actions []string
}

// Undo asks the root to revert the last journaled change.
type Undo struct{}

// RemoveLeftovers asks the root to remove the leftovers of interrupted
// memscope writes it found (the Health pane's leftover-copy rows).
type RemoveLeftovers struct{}

// ReplaySession asks the root to load a session for the replay pane.
type ReplaySession struct {
	// Path is the transcript's path inside the home.
	Path string
}

// RecallQuery asks the root to recompute the prompt preview with a query.
type RecallQuery struct {
	Query string
}

// SwitchPane asks the root to focus another pane (by its index).
type SwitchPane struct {
	Index int
}

// ResolvePaste asks the root to read a paste's text from the paste cache.
type ResolvePaste struct {
	Hash string
}

// PasteResolved carries a paste's text (or why it could not be read) back
// to the pane that asked.
type PasteResolved struct {
	Hash    string
	Status  string
	Content string
	Reason  string
}

// ExportSession asks the root to export a session's transcript (Path,
// inside the home) as a readable document in Format ("md" or "html")
// into the export folder.
type ExportSession struct {
	Path   string
	Format string
}

// ExportMemory asks the root to export the open project's memory as one
// document in Format ("md" or "json") into the export folder.
type ExportMemory struct {
	Format string
}

// ReplayAt asks the root to open a session in the Replay pane (loading its
// project when another one is open) and to select a step there.
type ReplayAt struct {
	// Path is the transcript's path inside the home.
	Path string
	// Boundary is the uuid of the compaction to select; "" selects the
	// last step. Line is the boundary's line, for a boundary without a
	// uuid.
	Boundary string
	Line     int
	// Message is the uuid of a record to step to (the turn holding it);
	// MessageLine its line, when the uuid is not a step's. Both zero
	// with Boundary: the last step.
	Message     string
	MessageLine int
	// Hit, when set, is a search hit in the session: the turn holding it
	// is selected (not a boundary) and the hit is shown marked.
	Hit *Highlight
}

// Highlight is a search hit for a pane to select and show marked: the
// record's uuid and line, what text it is, and the snippet with the
// match's byte range in it.
type Highlight struct {
	UUID    string
	Line    int
	Where   string
	Seeing  string
	Snippet string
	Match   [2]int
}

// AcceptReview asks the root to mark a memory reviewed as Content (the
// bytes the Review pane showed).
type AcceptReview struct {
	// Path is relative to the open project's memory folder.
	Path    string
	Content []byte
}

// NextMemoryStore asks the root to show the open project's next memory
// store in the Memories and Index panes: its auto memory, then each
// agent's memory.
type NextMemoryStore struct{}

// Package memindex owns the rules of the MEMORY.md index and the memory
// folder as the client applies them: the 200-line / 25 000-character cap
// and its WARNING (and which lines load), the backfill of a missing index,
// a memory's age, freshness and staleness by type (Age), safe memory file
// names, wiki links, and the one normalizer of an index line's link target
// (TargetPath, with Resolver for both entry forms) that lint, export, the
// store and every pane share.
package memindex

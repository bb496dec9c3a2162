// Package memindex owns the rules of the MEMORY.md index and the memory
// folder as the client applies them: the 200-line / 25 000-character cap
// and its WARNING, the backfill of a missing index, freshness and staleness
// by type, safe memory file names, wiki links, and the one normalizer of
// an index line's link target (TargetPath) that every reader shares.
package memindex

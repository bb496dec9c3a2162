// Package memrows says, for every topic file of a memory folder, what the
// Memories pane shows on its row and what `memscope export --memory`
// prints for it: whether MEMORY.md links it (by memindex's one link
// normalizer) and whether that line loads, its age and staleness, and the
// flags lint raised on it. The pane and the CLI both call Build, so they
// cannot answer differently.
package memrows

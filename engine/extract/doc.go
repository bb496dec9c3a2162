// Package extract proposes memories from a session's prompts with fixed
// rules, deduplicates them against existing memory, and runs extraction
// at flush time through a coalescing coordinator, as the client does.
package extract

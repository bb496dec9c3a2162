// Package preview assembles what enters the next session's prompt:
// CLAUDE.md files in load order with their @imports, rules, the capped
// MEMORY.md, and the recalled memory files, as ordered layers with tokens.
package preview

// Package journal is the undo journal of memory changes
// (memory/.memscope/journal.jsonl): its entries, parsing, size cap and the
// lock that serializes writers between processes.
package journal

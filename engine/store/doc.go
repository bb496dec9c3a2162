// Package store is the one way memscope changes memory: the memory store
// with its operations (create, edit, retype, rename, delete to the trash,
// index edits), prune plans and their application, trash restore and undo.
// Every change is scanned, checked against the disk, written atomically
// through model's writer and journaled.
package store

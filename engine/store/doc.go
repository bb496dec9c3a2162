// Package store is the one way memscope changes memory: the memory store
// with its operations (create, edit, retype, rename, delete to the trash,
// index edits), prune plans and their application, trash restore and undo.
// Every change is scanned, checked against the disk, written atomically
// through model's writer and journaled. The files the client reads
// beside memory (a CLAUDE.md, a rule) are changed the same way through a
// document store (OpenDocument), whose journal lives in the Claude home;
// UndoNewest takes back the newest change among several journals.
package store

// Package filehist reads the client's /rewind file history: sessions,
// turns, tracked files and their versions, diffs, and restores of a version
// or a whole turn, journaled so they can be undone byte for byte.
package filehist

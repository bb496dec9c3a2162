// Package vault is memscope's rescue vault: a content-addressed,
// deduplicated, compressed copy of every session the Claude home holds
// (transcripts, subagents and their meta files, tool results,
// before-cleanup copies, file-history backups, pastes) and of every
// version of the memory folders, kept outside the home so the client's
// retention sweep cannot reach it, and put back byte for byte where the
// client looks for it.
//
// Layout of a vault folder:
//
//	VAULT                  format line ("memscope vault 4" when new; 1 and 2 are read and become 3 at a sync, 3 stays 3)
//	packs/<name>.pack      a codec line, then frames of chunks compressed together (s2; zstd and flate chunks alone before)
//	packs/<name>.idx       one line per chunk: its name, offset, stored and raw length (and where it starts in its frame)
//	state/<seq>.jsonl      the records a sync changed, one JSON line per file
//	state/folders.json     the write-once folders as the last sync left them (a cache)
//	state.lock             taken around a sync, a restore and a prune
//	restores/<id>.json     what a restore created (its undo)
//	trash/<id>/            what a prune took out (its undo)
//
// A file is cut into chunks at line ends chosen by the line's own hash
// (content-defined chunking on lines): two files that share a run of
// lines share the chunks inside that run whatever comes before it, which
// is how a resumed or forked session stores only what it added. In a
// transcript the session's own id is replaced by a marker before hashing
// (and put back on restore), so a fork whose lines differ only by their
// sessionId dedupes too. A file's bytes are hashed once, as chunks: a
// version is named by its chunk list (Version.Sum), each chunk by the
// hash of what is stored: BLAKE3 in a vault of format 4, SHA-256 in one
// of format 1-3 (chunkHash). docs/VAULT.md gives the figures behind these
// choices.
//
// Writes go through model.WriteFS (the one writer and its fault seam):
// a pack and its index are written whole and synced before the state
// file that refers to them, so a kill at any point leaves a vault whose
// state refers only to complete packs; a pack without its index is a
// leftover the next verify reports and the next sync ignores.
package vault

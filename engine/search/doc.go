// Package search finds where something was said or stored in a Claude
// home: in transcripts (the text a person would mean: prompts, replies,
// thinking, tool calls' inputs and results, compaction summaries), in
// history.jsonl and its pastes, in memory files, in the CLAUDE.md files
// and rules of a project, and in file-history backups.
//
// It is a streaming, parallel scan, with the discipline of the sessions
// scanner: the bytes of the query are looked for first, in the raw line,
// accounting for JSON's escaping (Query.candidate); only a line that can
// match is decoded, and only the human text fields of its record are
// matched, so a string that exists only in JSON syntax (a key name, an
// escape) is never a hit. Files are read one per CPU, newest first, and
// the hits come back file by file in that order (Run), so a caller can
// show the first ones while the rest is read.
//
// There is no index: a scan of a whole home costs well under a second of
// CPU per GB and its first hits come while the rest is read
// (docs/PERFORMANCE.md has the measurements, pattern by pattern beside
// ripgrep), and it is exact under live appends because it reads what is
// on disk. A regular expression is looked for by the literals it
// requires (literals.go) and run only near them.
package search

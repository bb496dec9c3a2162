// Package compact runs the client's five-stage context pipeline on a
// session: tool-result budget, snip, microcompact, collapse and
// autocompact (or a manual compaction), with an extractive summary and the
// boundary and summary records the client would write.
package compact

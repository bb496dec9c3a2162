// Package provenance answers who wrote each memory file, and when: from
// the transcripts on disk (main sessions and their subagents), every
// Write, Edit and MultiEdit tool call whose file_path is inside a memory
// folder — project auto memory (team/ included) and agent memory in its
// three scopes — with its session, message, time, the agent that made it
// (main, or which subagent), the user prompt that led to it and whether
// the call succeeded (its tool_result). Origins then cross-checks each
// file against the client's frontmatter stamps (metadata.originSessionId,
// metadata.modified) and memscope's own undo journal.
//
// The scan is byte-first: a line is decoded only when its bytes name a
// memory folder and a tool_use, and a transcript is read a second time
// (for the message chain and the tool results) only when it holds such a
// call, or is the parent of a subagent that does. Most transcripts of a
// home are read once, without decoding a line.
package provenance

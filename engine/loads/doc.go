// Package loads says what Claude Code actually loaded, from the
// transcripts: the session-start "instructions" attachment lists every
// CLAUDE.md, rule, import and MEMORY.md a process put in the prompt, and a
// "nested_memory" attachment records a path-scoped rule or nested CLAUDE.md
// joining mid-session. Per file it counts the sessions that loaded it and
// when; per memory file, the sessions whose loaded MEMORY.md listed it
// (and, for index lines past the cut, when the model last saw them); and
// it gives lint the facts for rules that never load and imports that
// never resolve, and prune the last load of each memory.
//
// Transcripts written before the client recorded these attachments say
// nothing either way: such sessions are counted apart, never as "not
// loaded".
package loads

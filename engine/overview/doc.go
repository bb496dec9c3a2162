// Package overview answers "what needs me?" for the open project and the
// whole home: one Line per question, each a count, a one-line why, and the
// pane (with a filter) that fixes it.
//
// Every count is computed by the engine function the matching command
// prints (`memscope stat`, `lint`, `review`, `secrets`, `cleanup
// --forecast`, `prompt`, `watch`), called with the same inputs
// (engine/projectmem assembles the project's), so the Overview can never
// say a number the command does not. Each line is computed on its own
// (Compute), so a caller can show every line as "counting…" and fill it in
// as it comes, never waiting for the slowest store.
package overview

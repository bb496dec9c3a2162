// Package secrets finds secrets at rest in a whole Claude home
// (transcripts, history, pastes, file-history backups, tool results,
// memory, CLAUDE.md and settings files) with engine/scan's rules, and
// scrubs them: each secret becomes a marker such as
// "[REDACTED:aws-access-key-id]" inside the JSON string (or text) that
// held it, every other byte unchanged. A scrub is planned and
// fingerprinted first, refuses files Claude Code may be writing, writes
// each file atomically (checked against the disk at the rename), verifies
// it, and keeps the bytes it replaced in <home>/.memscope/scrub/<id>/
// so Restore puts them back; Forget deletes that copy.
//
// Scrubs are not in the memory undo journal (engine/journal): that
// journal keeps whole files per memory folder, drops its oldest entries
// past 100, and `u` undoes its newest entry with one key. A scrub's copy
// holds exactly the secrets it removed, so it must be a thing the user
// sees, names and deletes on purpose (--forget), never something an
// unrelated undo brings back or a cap silently drops.
package secrets

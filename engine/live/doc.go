// Package live answers "what is happening now" in a Claude home: which
// sessions are running (interactive clients by their sessions/<pid>.json,
// -p runs by recently appended transcripts), how full each one's context
// is against the client's warning, autocompact and blocking levels, how
// many turns are left before autocompact, how fast it spends tokens, the
// current 5-hour usage block as ccusage's `blocks` computes it, and which
// memory files it wrote. State is built incrementally from appended
// transcript lines (model.TailTranscript), so following a home costs what
// was appended, not what is stored. Diff turns two snapshots into the
// events `memscope watch` prints, and Statusline answers Claude Code's
// statusLine command from the tail of one transcript.
package live

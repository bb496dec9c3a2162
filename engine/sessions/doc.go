// Package sessions summarizes session transcripts for usage reports:
// per-session tokens deduplicated the way ccusage does, times, models,
// and a fast parallel scan of a whole home.
package sessions

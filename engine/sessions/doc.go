// Package sessions summarizes session transcripts for usage reports:
// per-session tokens deduplicated the way ccusage does, times, models,
// and a fast parallel scan of a whole home.
//
// Its scanner reads each line once, with internal/jsonscan, for both of
// its answers: the usage ccusage would count (usage.go, whose rules are
// ccusage's) and the transcript summary, whose definition is
// model.Summarizer's; lines it cannot read cheaply go to the model's own
// reader.
package sessions

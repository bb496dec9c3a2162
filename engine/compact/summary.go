package compact

import (
	"fmt"
	"strings"

	"github.com/memscope/memscope/engine/internal/jsstr"
	"github.com/memscope/memscope/engine/scan"
	"github.com/memscope/memscope/model"
)

// Summarizer turns the messages autocompact drops into the summary the
// model sees instead. The client forks a model call; memscope's default is
// ExtractiveSummarizer, which is deterministic and needs no network.
type Summarizer interface {
	Summarize(msgs []Msg) (string, error)
}

// FlushHook is handed the messages autocompact is about to summarize, so
// what is worth remembering can be saved first (the pre-compaction flush).
// An error is reported but does not stop the compaction.
type FlushHook interface {
	BeforeCompact(msgs []Msg) error
}

// SummaryPreamble opens every compact summary, as in the client's.
const SummaryPreamble = "This session is being continued from a previous conversation that ran out of context. " +
	"The summary below covers the earlier portion of the conversation.\n\n"

// ExtractiveSummarizer keeps the user's requests, the assistant's
// decisions and the errors, in order, up to MaxBytes (8000 when 0). It
// only sees text the transcript was read with (ScanOptions.KeepText).
type ExtractiveSummarizer struct {
	MaxBytes int
}

// extractLineMax bounds each kept line.
const extractLineMax = 200

// decisionWords mark assistant sentences worth keeping.
var decisionWords = []string{"decid", "will ", "going to", "instead", "chose", "plan", "fix", "use "}

// errorWords mark tool output worth keeping.
var errorWords = []string{"error", "failed", "panic", "exception", "denied", "not found"}

// Extract builds an extractive summary of msgs of at most maxBytes:
// sections of user requests, decisions and errors, each line cut to 200
// bytes, duplicates dropped. Messages without text are counted only.
func Extract(msgs []Msg, maxBytes int) string {
	var requests, decisions, errs []string
	seen := map[string]bool{}
	add := func(list *[]string, s string) {
		s = firstLine(s)
		if s == "" || seen[s] {
			return
		}
		seen[s] = true
		*list = append(*list, s)
	}
	for _, m := range msgs {
		for _, b := range m.Blocks {
			switch {
			case m.Kind == MsgPrompt && b.Type == model.BlockText:
				add(&requests, b.Text)
			case m.Kind == MsgSummary || m.Kind == MsgCollapsed:
				add(&decisions, b.Text)
			case m.Kind == MsgAnswer && b.Type == model.BlockText:
				for _, sent := range splitSentences(b.Text) {
					if scan.ContainsAny(strings.ToLower(sent), decisionWords) {
						add(&decisions, sent)
					}
				}
			case b.Type == model.BlockToolResult && (b.IsError || scan.ContainsAny(strings.ToLower(b.Text), errorWords)):
				add(&errs, errorLine(b.Text))
			}
		}
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "%d messages summarized.", len(msgs))
	for _, sec := range []struct {
		title string
		lines []string
	}{{"User requests", requests}, {"Decisions", decisions}, {"Errors", errs}} {
		if len(sec.lines) == 0 {
			continue
		}
		fmt.Fprintf(&sb, "\n%s:", sec.title)
		for _, l := range sec.lines {
			sb.WriteString("\n- ")
			sb.WriteString(l)
		}
	}
	return jsstr.TruncateUTF8(sb.String(), maxBytes)
}

// firstLine trims s to its first non-empty line of at most extractLineMax bytes.
func firstLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			return jsstr.TruncateUTF8(l, extractLineMax)
		}
	}
	return ""
}

// errorLine picks the first line of a tool output that names an error.
func errorLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if scan.ContainsAny(strings.ToLower(l), errorWords) {
			return l
		}
	}
	return s
}

func splitSentences(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == '.' || r == '\n' || r == '!' || r == '?' })
}

// Summarize implements Summarizer.
func (s ExtractiveSummarizer) Summarize(msgs []Msg) (string, error) {
	n := s.MaxBytes
	if n <= 0 {
		n = 8000
	}
	return Extract(msgs, n), nil
}

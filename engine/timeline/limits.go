package timeline

import (
	"github.com/memscope/memscope/engine/window"
	"github.com/memscope/memscope/model"
)

// Limits resolves the window and thresholds of the session t holds
// (window.Resolve): in is what the caller can see (environment, settings,
// status line); the model, the largest context and the preTokens of the
// automatic compactions come from the main conversation of t.
func Limits(t *model.Transcript, in window.Input) window.Resolved {
	for _, r := range t.Records {
		switch {
		case r.IsSidechain:
			continue
		case r.IsCompactBoundary():
			if m := r.Compact; m != nil && m.Trigger == model.TriggerAuto && m.PreTokens != nil {
				in.AutoPreTokens = append(in.AutoPreTokens, window.Tokens(*m.PreTokens))
			}
		case IsTurn(r):
			if m := r.Message.Model; m != "" && m != "<synthetic>" {
				in.Model = m
			}
			in.MaxContext = max(in.MaxContext, window.Tokens(r.Message.Usage.ContextTokens()))
		}
	}
	return window.Resolve(in)
}

// BuildResolved replays t against the window r resolved, and keeps r
// with the timeline so viewers can say where each level came from.
func BuildResolved(t *model.Transcript, r window.Resolved, fileSize int64) Timeline {
	tl := Build(t, r.Config, fileSize)
	tl.Limits = &r
	return tl
}

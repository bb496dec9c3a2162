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
	var l limitsScan
	for _, r := range t.Records {
		l.add(r)
	}
	return l.resolve(in)
}

// Limits is Limits on the indexed transcript.
func (ix *Index) Limits(in window.Input) window.Resolved { return ix.limits.resolve(in) }

// limitsScan gathers what Limits reads from a transcript, record by record.
type limitsScan struct {
	auto       []window.Tokens
	model      string
	maxContext window.Tokens
}

func (l *limitsScan) add(r *model.Record) {
	switch {
	case r.IsSidechain:
	case r.IsCompactBoundary():
		if m := r.Compact; m != nil && m.Trigger == model.TriggerAuto && m.PreTokens != nil {
			l.auto = append(l.auto, window.Tokens(*m.PreTokens))
		}
	case IsTurn(r):
		if m := r.Message.Model; m != "" && m != "<synthetic>" {
			l.model = m
		}
		l.maxContext = max(l.maxContext, window.Tokens(r.Message.Usage.ContextTokens()))
	}
}

func (l *limitsScan) resolve(in window.Input) window.Resolved {
	in.AutoPreTokens = append(in.AutoPreTokens, l.auto...)
	if l.model != "" {
		in.Model = l.model
	}
	in.MaxContext = max(in.MaxContext, l.maxContext)
	return window.Resolve(in)
}

// BuildResolved replays t against the window r resolved, and keeps r
// with the timeline so viewers can say where each level came from.
func BuildResolved(t *model.Transcript, r window.Resolved, fileSize int64) Timeline {
	tl := Build(t, r.Config, fileSize)
	tl.Limits = &r
	return tl
}

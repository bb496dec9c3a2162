package export

import (
	"github.com/memscope/memscope/engine/timeline"
	"github.com/memscope/memscope/model"
)

// ScanOptions are the options to read a transcript's records for an
// export with: text to show, and the raw lines for tool inputs (which
// the model sizes but does not keep).
var ScanOptions = model.ScanOptions{Content: true, KeepText: true, KeepRaw: true}

// PasteResolver finds the text of a paste hash.
type PasteResolver interface {
	Resolve(h model.PasteHash) model.PasteResolution
}

func containsString(ss []string, s string) bool {
	for _, v := range ss {
		if v == s {
			return true
		}
	}
	return false
}

// usageCounter sums usage once per message.id+requestId (by their
// model.KeyHash).
type usageCounter struct {
	seen    map[[16]byte]struct{}
	total   Usage
	byModel map[string]*ModelUsage
	models  []string
}

func newUsageCounter() *usageCounter {
	return &usageCounter{seen: map[[16]byte]struct{}{}, byModel: map[string]*ModelUsage{}, models: []string{}}
}

// add counts kept record r (in file order).
func (u *usageCounter) add(r *model.Record) {
	if r.Type != model.RecordAssistant || r.Message == nil {
		return
	}
	m := r.Message
	if m.Model != "" && u.byModel[m.Model] == nil {
		u.byModel[m.Model] = &ModelUsage{Model: m.Model}
		u.models = append(u.models, m.Model)
	}
	if m.Usage == nil {
		return
	}
	// Like the transcript summary: a response without ids counts every
	// time, since nothing says two lines are the same one.
	if key, ok := timeline.TurnKey(r); ok {
		h := model.KeyHash([]byte(key))
		if _, dup := u.seen[h]; dup {
			return
		}
		u.seen[h] = struct{}{}
	}
	u.total.Responses++
	u.total.Tokens = u.total.Tokens.Add(*m.Usage)
	if mu := u.byModel[m.Model]; mu != nil {
		mu.Responses++
		mu.Tokens = mu.Tokens.Add(*m.Usage)
	}
}

func (u *usageCounter) result() Usage {
	out := Usage{Responses: u.total.Responses, Tokens: u.total.Tokens, ByModel: []ModelUsage{}}
	for _, m := range u.models {
		out.ByModel = append(out.ByModel, *u.byModel[m])
	}
	return out
}

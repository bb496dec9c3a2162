package sessions

import (
	"math"
	"os"
	"testing"
	"testing/fstest"

	"github.com/memscope/memscope/engine/pricing"
	"github.com/memscope/memscope/model"
)

func realSession(t *testing.T, name string) Report {
	t.Helper()
	data, err := os.ReadFile("../../model/testdata/transcripts/" + name)
	if err != nil {
		t.Fatal(err)
	}
	fsys := fstest.MapFS{"projects/-x/s.jsonl": {Data: data}}
	return Summarize(Options{Home: &model.Home{Dir: "/h", FS: fsys}})
}

// On the real client's transcripts, the cost memscope computes from the
// usage lines and the price table equals the client's own cost-state
// figure when every call is in the transcript (the interactive session),
// and is below it when compaction calls are not (the client wrote their
// cost, not their usage): the report keeps both.
func TestCostMatchesTheClientsOwnFigure(t *testing.T) {
	rep := realSession(t, "transcript-interactive-pastes.jsonl")
	if got := rep.Totals.CostUSD; math.Abs(got-0.258492) > 1e-9 {
		t.Errorf("interactive session: computed $%.6f, the client's cost-state says $0.258492", got)
	}
	if got := rep.Totals.ClientCostUSD; math.Abs(got-0.258492) > 1e-9 {
		t.Errorf("interactive session: client cost $%.6f, want the cost-state's $0.258492", got)
	}
	if len(rep.Totals.Models) != 1 || rep.Totals.Models[0].Model != "claude-opus-5-5" || !rep.Totals.Models[0].Priced {
		t.Errorf("models %+v", rep.Totals.Models)
	}
	rep = realSession(t, "transcript-partial-compactions.jsonl")
	// Two manual compactions: their summary calls are in the client's
	// figure (the last cost-state: $0.481052) but not in the usage lines.
	if got := rep.Totals.ClientCostUSD; math.Abs(got-0.481052) > 1e-9 {
		t.Errorf("partial session: client cost $%.6f, want $0.481052", got)
	}
	if rep.Totals.CostUSD <= 0 || rep.Totals.CostUSD >= rep.Totals.ClientCostUSD {
		t.Errorf("partial session: computed $%.6f, want more than 0 and less than the client's $%.6f", rep.Totals.CostUSD, rep.Totals.ClientCostUSD)
	}
	tab := pricing.Embedded()
	want, _ := tab.Cost(pricing.Response{Model: "claude-opus-5-5", Usage: rep.Totals.Usage})
	if math.Abs(rep.Totals.CostUSD-want) > 1e-9 {
		t.Errorf("partial session: computed $%.6f, the table gives $%.6f for its usage", rep.Totals.CostUSD, want)
	}
}

// Cost reads each line's model, 1-hour cache writes, speed and recorded
// costUSD; a response copied into two files is priced once; an unknown
// model's tokens are unpriced, not $0.
func TestCostPerLine(t *testing.T) {
	line := func(id, req, model, usage, extra string) string {
		return `{"type":"assistant","timestamp":"2026-11-11T10:00:00.000Z","sessionId":"x","requestId":"` + req + `"` + extra +
			`,"message":{"id":"` + id + `","model":"` + model + `","role":"assistant","content":[],"usage":` + usage + "}}\n"
	}
	fsys := fstest.MapFS{
		"projects/-a/s1.jsonl": {Data: []byte(
			line("m1", "r1", "claude-opus-4-5", `{"input_tokens":1000000,"output_tokens":0}`, "") +
				line("m1", "r1", "claude-opus-4-5", `{"input_tokens":1000000,"output_tokens":0}`, "") +
				line("m2", "r2", "claude-opus-4-5-20251101", `{"input_tokens":0,"output_tokens":0,"cache_creation_input_tokens":1000000,"cache_creation":{"ephemeral_1h_input_tokens":1000000,"ephemeral_5m_input_tokens":0}}`, "") +
				line("m3", "r3", "claude-opus-4-6", `{"input_tokens":100000,"output_tokens":0,"speed":"fast"}`, "") +
				line("m4", "r4", "claude-opus-4-5", `{"input_tokens":1,"output_tokens":0}`, `,"costUSD":2.5`) +
				line("m5", "r5", "mystery-9", `{"input_tokens":40,"output_tokens":2}`, ""))},
		// s2 copies m1 (already counted in s1, which starts at the same
		// time but sorts first by path).
		"projects/-a/s2.jsonl": {Data: []byte(line("m1", "r1", "claude-opus-4-5", `{"input_tokens":1000000,"output_tokens":0}`, ""))},
	}
	rep := Summarize(Options{Home: &model.Home{Dir: "/h", FS: fsys}})
	// $5 (m1) + $10 (m2, 1h writes) + 6 × $0.50 (m3, fast) + $2.50 (m4,
	// recorded).
	if got := rep.Totals.CostUSD; math.Abs(got-20.5) > 1e-9 {
		t.Errorf("total $%v, want $20.50: %+v", got, rep.Totals.Models)
	}
	if rep.Totals.UnpricedUsage != (model.Usage{InputTokens: 40, OutputTokens: 2}) || len(rep.Totals.UnpricedModels) != 1 || rep.Totals.UnpricedModels[0] != "mystery-9" {
		t.Errorf("unpriced %+v %v", rep.Totals.UnpricedUsage, rep.Totals.UnpricedModels)
	}
	for _, r := range rep.Sessions {
		if r.SessionID == "s2" && r.CostUSD != 0 {
			t.Errorf("s2 is charged $%v for a response s1 already counted", r.CostUSD)
		}
	}
	if rep.Pricing.Date == "" || rep.Pricing.Date != pricing.Embedded().Date {
		t.Errorf("report names price table %+v", rep.Pricing)
	}
}

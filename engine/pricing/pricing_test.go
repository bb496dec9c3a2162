package pricing

import (
	"math"
	"strings"
	"testing"

	"github.com/memscope/memscope/model"
)

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

func TestLookupNormalizesNames(t *testing.T) {
	tab := Embedded()
	cases := map[string]string{
		"claude-opus-4-5":                            "claude-opus-4-5",
		"claude-opus-4-5-20251101":                   "claude-opus-4-5",
		"claude-sonnet-4-5-20250929":                 "claude-sonnet-4-5",
		"anthropic.claude-sonnet-4-5-20250929-v1:0":  "claude-sonnet-4-5",
		"us.anthropic.claude-opus-4-1-20250805-v1:0": "claude-opus-4-1",
		"claude-opus-4-20250514":                     "claude-opus-4",
		"claude-4-opus-20250514":                     "claude-opus-4",
		"claude-haiku-4-5@20251001":                  "claude-haiku-4-5",
		"CLAUDE-OPUS-5-5":                            "claude-opus-5-5",
		"claude-3-5-haiku-20241022":                  "claude-3-5-haiku",
	}
	for name, want := range cases {
		m, ok := tab.Lookup(name)
		if !ok || m.ID != want {
			t.Errorf("Lookup(%q) = %q, %v; want %q", name, m.ID, ok, want)
		}
	}
	for _, name := range []string{"<synthetic>", "", "gpt-5", "claude-opus-45", "claude-opus"} {
		if m, ok := tab.Lookup(name); ok {
			t.Errorf("Lookup(%q) = %q, want no price", name, m.ID)
		}
	}
}

func TestCost(t *testing.T) {
	tab := Embedded()
	u := model.Usage{InputTokens: 1000, OutputTokens: 500, CacheCreationInputTokens: 2000, CacheReadInputTokens: 10000}
	// Opus 4.5: $5 in, $25 out, $6.25 5m writes, $10 1h writes, $0.50 reads.
	cases := []struct {
		name string
		r    Response
		want float64
	}{
		{"5m writes", Response{Model: "claude-opus-4-5", Usage: u}, (1000*5 + 500*25 + 2000*6.25 + 10000*0.5) / 1e6},
		{"1h writes", Response{Model: "claude-opus-4-5", Usage: u, CacheWrite1h: 1500}, (1000*5 + 500*25 + 500*6.25 + 1500*10 + 10000*0.5) / 1e6},
		{"1h writes beyond the total are capped", Response{Model: "claude-opus-4-5", Usage: u, CacheWrite1h: 9999}, (1000*5 + 500*25 + 2000*10 + 10000*0.5) / 1e6},
		{"recorded costUSD wins", Response{Model: "claude-opus-4-5", Usage: u, Recorded: 1.23, HasRecorded: true}, 1.23},
		{"fast", Response{Model: "claude-opus-4-6", Usage: u, Fast: true}, 6 * (1000*5 + 500*25 + 2000*6.25 + 10000*0.5) / 1e6},
		{"fast on a model without a fast rate", Response{Model: "claude-opus-4-5", Usage: u, Fast: true}, (1000*5 + 500*25 + 2000*6.25 + 10000*0.5) / 1e6},
		// Sonnet 4.5 at 200 000 input tokens: still the base rates.
		{"at the threshold", Response{Model: "claude-sonnet-4-5", Usage: model.Usage{InputTokens: 190_000, CacheReadInputTokens: 10_000, OutputTokens: 1000}}, (190_000*3 + 10_000*0.3 + 1000*15) / 1e6},
		// One token above: the whole request at the long-context rates.
		{"above the threshold", Response{Model: "claude-sonnet-4-5", Usage: model.Usage{InputTokens: 190_001, CacheReadInputTokens: 10_000, OutputTokens: 1000}}, (190_001*6 + 10_000*0.6 + 1000*22.5) / 1e6},
		// The 2.1.330 client's own cost-state record: 64 458 input and 33
		// output tokens of claude-opus-5-5 cost $0.258492.
		{"the client's figure", Response{Model: "claude-opus-5-5", Usage: model.Usage{InputTokens: 64458, OutputTokens: 33}}, 0.258492},
	}
	for _, c := range cases {
		got, ok := tab.Cost(c.r)
		if !ok || !near(got, c.want) {
			t.Errorf("%s: cost %.9f (%v), want %.9f", c.name, got, ok, c.want)
		}
	}
	if _, ok := tab.Cost(Response{Model: "gpt-5", Usage: u}); ok {
		t.Error("an unknown model was priced")
	}
}

func TestSumKeepsUnpricedApart(t *testing.T) {
	tab := Embedded()
	var s Sum
	s.Add(&tab, Response{Model: "claude-haiku-4-5", Usage: model.Usage{InputTokens: 1_000_000}})
	s.Add(&tab, Response{Model: "mystery-1", Usage: model.Usage{InputTokens: 7, OutputTokens: 3}})
	s.Add(&tab, Response{Model: "<synthetic>"})
	var o Sum
	o.Add(&tab, Response{Model: "claude-haiku-4-5", Usage: model.Usage{OutputTokens: 1_000_000}})
	s.Merge(o)
	usd, unpriced, models := s.Total()
	if !near(usd, 1+5) {
		t.Errorf("total $%v, want $6", usd)
	}
	if unpriced != (model.Usage{InputTokens: 7, OutputTokens: 3}) || strings.Join(models, ",") != "mystery-1" {
		t.Errorf("unpriced %+v %v, want mystery-1's 7+3 tokens (and <synthetic>, with none, left out)", unpriced, models)
	}
	ms := s.Models()
	if len(ms) != 3 || ms[0].Model != "claude-haiku-4-5" || ms[0].Responses != 2 || !ms[0].Priced {
		t.Errorf("models %+v", ms)
	}
}

func TestParseAndMerge(t *testing.T) {
	over, err := Parse([]byte(`{"date":"2027-01-01","models":[
  {"id":"claude-opus-4-5","input":1,"output":2,"cacheWrite5m":3,"cacheWrite1h":4,"cacheRead":5},
  {"id":"claude-next-1","input":9,"output":9}
]}`), "my-prices.json")
	if err != nil {
		t.Fatal(err)
	}
	m := Merge(Embedded(), over)
	if m.Date != "2027-01-01" || m.File != "my-prices.json" || m.Base != Embedded().Date {
		t.Errorf("merged table is dated %q from %q over %q", m.Date, m.File, m.Base)
	}
	if p, _ := m.Lookup("claude-opus-4-5"); p.Input != 1 {
		t.Errorf("override not applied: %+v", p)
	}
	if _, ok := m.Lookup("claude-next-1-20270101"); !ok {
		t.Error("added model not found")
	}
	if p, _ := m.Lookup("claude-haiku-4-5"); p.Input != 1 || p.Output != 5 {
		t.Errorf("embedded model lost: %+v", p)
	}
	for _, bad := range []struct{ data, want string }{
		{"{\"date\":\"x\",\n\"models\":[{\"id\":\"a\",\"input\":1,\"output\":1,\"colour\":2}]}", "my.json:2"},
		{"{\"models\":[\n{\"input\":1}]}", "no id"},
		{"{\"models\":[{\"id\":\"a\",\"input\":-1,\"output\":1}]}", "negative"},
		{"{\"models\":[{\"id\":\"a\",\"input\":1,\"output\":1},{\"id\":\"a\",\"input\":1,\"output\":1}]}", "twice"},
		{"{\n\n\"models\": [}", "my.json:3"},
	} {
		if _, err := Parse([]byte(bad.data), "my.json"); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("Parse(%q) = %v, want an error with %q", bad.data, err, bad.want)
		}
	}
}

package live

import (
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/memscope/memscope/engine/pricing"
	"github.com/memscope/memscope/engine/sessions"
	"github.com/memscope/memscope/model"
)

// The Live pane's cost so far is the sessions command's cost of the same
// transcript: responses with 1-hour cache writes and the fast speed are
// priced at their rates by both (one pricing rule, engine/pricing).
func TestSessionCostAgreesWithSessions(t *testing.T) {
	s := newScript("c0ffee00-0000-4000-8000-000000000001", "/w/app", now.Add(-10*time.Minute))
	s.user("go")
	for i, u := range []string{
		`{"input_tokens":10,"cache_creation_input_tokens":40000,"cache_read_input_tokens":0,"output_tokens":300,"cache_creation":{"ephemeral_1h_input_tokens":30000,"ephemeral_5m_input_tokens":10000},"speed":"standard"}`,
		`{"input_tokens":5,"cache_creation_input_tokens":2000,"cache_read_input_tokens":40000,"output_tokens":900,"cache_creation":{"ephemeral_1h_input_tokens":2000,"ephemeral_5m_input_tokens":0},"speed":"fast"}`,
	} {
		s.line("assistant", fmt.Sprintf(`,"requestId":"req_%d","message":{"id":"msg_%d","role":"assistant","model":"claude-opus-4-6","content":[{"type":"text","text":"ok"}],"usage":%s}`, i, i, u))
	}
	sess := NewSession("s.jsonl", SessionOptions{})
	feed(t, sess, s.String())
	got := sess.Status(now).CostUSD

	home := t.TempDir()
	writeFile(t, home, "projects/-w-app/c0ffee00-0000-4000-8000-000000000001.jsonl", s.String())
	h, err := model.OpenHome(home, model.HomeFromFlag)
	if err != nil {
		t.Fatal(err)
	}
	rep := sessions.Summarize(sessions.Options{Home: h})
	if len(rep.Sessions) != 1 {
		t.Fatalf("sessions found %d sessions, want 1", len(rep.Sessions))
	}
	want := rep.Sessions[0].CostUSD
	if want == 0 || math.Abs(got-want) > 1e-9 {
		t.Errorf("Live's cost so far $%.6f, sessions' $%.6f: they must be equal (and not 0)", got, want)
	}
	// Priced as if every write were a 5-minute one, at the standard speed,
	// the figure is lower: the test tells the two apart.
	tab := pricing.Embedded()
	plain := 0.0
	for _, u := range []model.Usage{
		{InputTokens: 10, CacheCreationInputTokens: 40000, OutputTokens: 300},
		{InputTokens: 5, CacheCreationInputTokens: 2000, CacheReadInputTokens: 40000, OutputTokens: 900},
	} {
		c, _ := tab.Cost(pricing.Response{Model: "claude-opus-4-6", Usage: u})
		plain += c
	}
	if math.Abs(got-plain) < 1e-6 {
		t.Errorf("Live's cost $%.6f ignores the 1-hour writes and the fast speed", got)
	}
}

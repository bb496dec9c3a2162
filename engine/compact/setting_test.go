package compact

import (
	"reflect"
	"testing"

	"github.com/memscope/memscope/engine/internal/enginetest"
	"github.com/memscope/memscope/engine/window"
	"github.com/memscope/memscope/model"
)

// With autoCompactEnabled: false the client never autocompacts: stage 5
// says so and changes nothing, does not count as a failure, and hands
// nothing to the flush hook; the cheaper stages still run.
func TestAutocompactOff(t *testing.T) {
	cfg := SmallConfig()
	cfg.CollapseProtectTail = 100 // leave it to autocompact
	cfg.AutocompactOff = true
	hook := &recordingHook{}
	cfg.FlushHook = hook
	in := Input{Messages: BigConversation(8), Session: SessionInfo{Leaf: "a7"}}
	st := &State{ConsecutiveFailures: 1}
	res, err := Run(in, cfg, st, enginetest.Now)
	if err != nil {
		t.Fatal(err)
	}
	last := res.Stages[len(res.Stages)-1]
	if last.Stage != StageAutocompact || last.Acted || last.Detail != "autocompact is off (autoCompactEnabled: false)" || last.Freed != 0 {
		t.Errorf("stage 5: %+v", last)
	}
	if res.Fits || len(res.Records) != 0 || !reflect.DeepEqual(res.Messages, in.Messages) || st.ConsecutiveFailures != 1 || hook.got != nil {
		t.Errorf("fits %v records %d failures %d hook %d messages", res.Fits, len(res.Records), st.ConsecutiveFailures, len(hook.got))
	}
	// The same input with the setting on compacts.
	cfg.AutocompactOff = false
	if res, _ := Run(in, cfg, &State{}, enginetest.Now); !res.Fits || StageNames(res) != "tool-result-budget snip microcompact context-collapse autocompact*" {
		t.Errorf("setting on: stages %q fits %v", StageNames(res), res.Fits)
	}
}

// The manual path (/compact) compacts whatever the setting, the circuit
// breaker and the threshold say, and writes trigger "manual".
func TestManualCompact(t *testing.T) {
	cases := []struct {
		name     string
		msgs     []Msg
		failures int
	}{
		{"over the threshold, autocompact off", BigConversation(8), 0},
		{"under the threshold", BigConversation(3), 0},
		{"circuit breaker open", BigConversation(8), window.MaxConsecutiveCompactFailures},
	}
	for _, c := range cases {
		cfg := SmallConfig()
		cfg.AutocompactOff = true
		cfg.PreserveRecent = 2
		in := Input{Messages: c.msgs, Session: SessionInfo{SessionID: "s", Leaf: c.msgs[len(c.msgs)-1].UUID}}
		st := &State{ConsecutiveFailures: c.failures}
		res, err := RunManual(in, cfg, st, enginetest.Now)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if len(res.Stages) != 1 || res.Stages[0].Stage != StageManualCompact || !res.Stages[0].Acted {
			t.Fatalf("%s: stages %+v", c.name, res.Stages)
		}
		s := res.Stages[0]
		if s.Before != in.Tokens() || s.After >= s.Before || s.Freed != s.Before-s.After || res.After != s.After ||
			res.Fits != (res.After < cfg.Window.AutocompactAt()) || !res.Fits {
			t.Errorf("%s: figures %+v, result after %d fits %v", c.name, s, res.After, res.Fits)
		}
		if len(res.Messages) != 3 || res.Messages[0].Kind != MsgSummary {
			t.Errorf("%s: %d messages after, first %s", c.name, len(res.Messages), res.Messages[0].Kind)
		}
		if st.ConsecutiveFailures != c.failures {
			t.Errorf("%s: failures %d, want %d (manual compactions leave the breaker alone)", c.name, st.ConsecutiveFailures, c.failures)
		}
		recs := scanRecords(t, res.Records)
		if len(recs) == 0 || !recs[0].IsCompactBoundary() || recs[0].Compact.Trigger != model.TriggerManual {
			t.Errorf("%s: boundary %+v", c.name, recs)
		}
	}
}

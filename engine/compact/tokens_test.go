package compact

import (
	"strings"
	"testing"

	"github.com/memscope/memscope/engine/internal/enginetest"
	"github.com/memscope/memscope/engine/timeline"
	"github.com/memscope/memscope/engine/window"
)

func TestWindowThresholds(t *testing.T) {
	cases := []struct {
		name                                 string
		w                                    window.Config
		effective, warning, compact, blocked window.Tokens
	}{
		// 200000 − min(32000, 20000) = 180000; −13000; −20000; −3000.
		{"200k", window.Size200k(), 180000, 147000, 167000, 177000},
		{"1M", window.Size1M(), 980000, 947000, 967000, 977000},
		// A small max output reserves only itself.
		{"small output", window.Config{ContextWindow: 100000, MaxOutputTokens: 8000}, 92000, 59000, 79000, 89000},
		// The override lowers the threshold: 180000 × 50 / 100.
		{"pct 50", window.Config{ContextWindow: 200000, MaxOutputTokens: 32000, AutocompactPct: 50}, 180000, 70000, 90000, 177000},
		// It cannot raise it.
		{"pct 99", window.Config{ContextWindow: 200000, MaxOutputTokens: 32000, AutocompactPct: 99}, 180000, 147000, 167000, 177000},
	}
	for _, c := range cases {
		w := c.w
		if w.Effective() != c.effective || w.WarningAt() != c.warning || w.AutocompactAt() != c.compact || w.BlockedAt() != c.blocked {
			t.Errorf("%s: effective %d warning %d autocompact %d blocked %d", c.name, w.Effective(), w.WarningAt(), w.AutocompactAt(), w.BlockedAt())
		}
	}
	w := window.Size200k()
	for tokens, want := range map[window.Tokens]window.Level{0: window.LevelOK, 146999: window.LevelOK, 147000: window.LevelWarning, 167000: window.LevelAutocompact, 177000: window.LevelBlocked, 500000: window.LevelBlocked} {
		if got := w.Level(tokens); got != want {
			t.Errorf("Level(%d) = %s, want %s", tokens, got, want)
		}
	}
	if (window.Config{ContextWindow: 30000, MaxOutputTokens: 1000}).Validate() == nil {
		t.Error("a 30k window leaves no room below the warning threshold; Validate accepted it")
	}
	if window.Size200k().Validate() != nil {
		t.Error("200k preset rejected")
	}
}

func TestEstimateTokens(t *testing.T) {
	for n, want := range map[int]window.Tokens{-5: 0, 0: 0, 1: 1, 4: 1, 5: 2, 857: 215, 1080: 270} {
		if got := window.EstimateTokens(n); got != want {
			t.Errorf("EstimateTokens(%d) = %d, want %d", n, got, want)
		}
	}
}

// The estimate is 4 characters a token, characters being what the
// client's String.length counts (UTF-16 code units), not UTF-8 bytes: a
// CJK character is 3 bytes but one character, an emoji 4 bytes but two.
func TestEstimateTextTokensCountsCharacters(t *testing.T) {
	cases := []struct {
		text string
		want window.Tokens
	}{
		{"", 0},
		{"abcd", 1},
		{"abcde", 2},
		{"日本語の", 1},                       // 4 characters, 12 bytes
		{"日本語のテキスト", 2},                   // 8 characters, 24 bytes
		{"😀😀", 1},                         // 4 units, 8 bytes
		{"😀😀😀", 2},                        // 6 units
		{"café", 1},                       // 4 characters, 5 bytes
		{strings.Repeat("中", 4000), 1000}, // 12000 bytes would be 3000
	}
	for _, c := range cases {
		if got := window.EstimateTextTokens(c.text); got != c.want {
			t.Errorf("EstimateTextTokens(%.12q) = %d, want %d", c.text, got, c.want)
		}
	}
}

// Blocks built from a transcript carry the model's character count, and
// every estimate of the replay and the pipeline uses it.
func TestTokenEstimatesOfNonASCIITranscript(t *testing.T) {
	cjk := strings.Repeat("中文", 2000)  // 4000 characters, 12000 bytes
	emoji := strings.Repeat("😀", 1000) // 2000 units, 4000 bytes
	mem := strings.Repeat("记忆", 400)   // 800 characters, 2400 bytes
	src := enginetest.Line("user", "u1", "", `,"message":{"role":"user","content":"`+cjk+`"}`) +
		enginetest.Line("assistant", "a1", "u1", `,"message":{"role":"assistant","content":[{"type":"text","text":"`+emoji+`"},{"type":"tool_use","id":"t1","name":"Read","input":{}}]}`) +
		enginetest.Line("user", "r1", "a1", `,"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"`+cjk+`"}]}`) +
		enginetest.Line("attachment", "m1", "r1", `,"attachment":{"type":"instructions","files":[{"path":"/m/MEMORY.md","type":"AutoMem","content":"`+mem+`"}]}`)
	tr := enginetest.BuildTranscript(t, src)
	var got timeline.Context
	for _, r := range tr.Records {
		got = got.Add(timeline.RecordContext(r))
	}
	// 1000 (prompt) + 500 (emoji) + 1 ("{}" input) conversation, 1000 results, 200 memory.
	want := timeline.Context{Conversation: 1501, ToolResults: 1000, Memory: 200}
	if got != want {
		t.Errorf("replay context %+v, want %+v", got, want)
	}
	in := InputFromResume(tr, timeline.ResumeTranscript(tr, timeline.ResumeOptions{}))
	if in.Tokens() != want.Total() {
		t.Errorf("pipeline input %d tokens, replay %d", in.Tokens(), want.Total())
	}
}

package engine

import (
	"strings"
	"testing"
)

func TestWindowThresholds(t *testing.T) {
	cases := []struct {
		name                                 string
		w                                    WindowConfig
		effective, warning, compact, blocked Tokens
	}{
		// 200000 − min(32000, 20000) = 180000; −13000; −20000; −3000.
		{"200k", Window200k(), 180000, 147000, 167000, 177000},
		{"1M", Window1M(), 980000, 947000, 967000, 977000},
		// A small max output reserves only itself.
		{"small output", WindowConfig{ContextWindow: 100000, MaxOutputTokens: 8000}, 92000, 59000, 79000, 89000},
		// The override lowers the threshold: 180000 × 50 / 100.
		{"pct 50", WindowConfig{ContextWindow: 200000, MaxOutputTokens: 32000, AutocompactPct: 50}, 180000, 70000, 90000, 177000},
		// It cannot raise it.
		{"pct 99", WindowConfig{ContextWindow: 200000, MaxOutputTokens: 32000, AutocompactPct: 99}, 180000, 147000, 167000, 177000},
	}
	for _, c := range cases {
		w := c.w
		if w.Effective() != c.effective || w.WarningAt() != c.warning || w.AutocompactAt() != c.compact || w.BlockedAt() != c.blocked {
			t.Errorf("%s: effective %d warning %d autocompact %d blocked %d", c.name, w.Effective(), w.WarningAt(), w.AutocompactAt(), w.BlockedAt())
		}
	}
	w := Window200k()
	for tokens, want := range map[Tokens]Level{0: LevelOK, 146999: LevelOK, 147000: LevelWarning, 167000: LevelAutocompact, 177000: LevelBlocked, 500000: LevelBlocked} {
		if got := w.Level(tokens); got != want {
			t.Errorf("Level(%d) = %s, want %s", tokens, got, want)
		}
	}
	if (WindowConfig{ContextWindow: 30000, MaxOutputTokens: 1000}).Validate() == nil {
		t.Error("a 30k window leaves no room below the warning threshold; Validate accepted it")
	}
	if Window200k().Validate() != nil {
		t.Error("200k preset rejected")
	}
}

func TestEstimateTokens(t *testing.T) {
	for n, want := range map[int]Tokens{-5: 0, 0: 0, 1: 1, 4: 1, 5: 2, 857: 215, 1080: 270} {
		if got := EstimateTokens(n); got != want {
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
		want Tokens
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
		if got := EstimateTextTokens(c.text); got != c.want {
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
	src := line("user", "u1", "", `,"message":{"role":"user","content":"`+cjk+`"}`) +
		line("assistant", "a1", "u1", `,"message":{"role":"assistant","content":[{"type":"text","text":"`+emoji+`"},{"type":"tool_use","id":"t1","name":"Read","input":{}}]}`) +
		line("user", "r1", "a1", `,"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"`+cjk+`"}]}`) +
		line("attachment", "m1", "r1", `,"attachment":{"type":"instructions","files":[{"path":"/m/MEMORY.md","type":"AutoMem","content":"`+mem+`"}]}`)
	tr := build(t, src)
	var got Context
	for _, r := range tr.Records {
		got = got.add(RecordContext(r))
	}
	// 1000 (prompt) + 500 (emoji) + 1 ("{}" input) conversation, 1000 results, 200 memory.
	want := Context{Conversation: 1501, ToolResults: 1000, Memory: 200}
	if got != want {
		t.Errorf("replay context %+v, want %+v", got, want)
	}
	in := InputFromResume(tr, ResumeTranscript(tr, ResumeOptions{}))
	if in.Tokens() != want.Total() {
		t.Errorf("pipeline input %d tokens, replay %d", in.Tokens(), want.Total())
	}
}

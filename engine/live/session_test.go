package live

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/memscope/memscope/engine/timeline"
	"github.com/memscope/memscope/engine/window"
	"github.com/memscope/memscope/model"
)

func env(kv ...string) func(string) string {
	return func(k string) string {
		for i := 0; i+1 < len(kv); i += 2 {
			if kv[i] == k {
				return kv[i+1]
			}
		}
		return ""
	}
}

func TestSessionContextLevelsAndForecast(t *testing.T) {
	tests := []struct {
		name     string
		opts     SessionOptions
		contexts []int64
		context  window.Tokens
		level    window.Level
		forecast string // "turns@target", or "none"
		window   window.Tokens
	}{
		// 200k: effective 180000; autocompact 167000; warning 147000;
		// blocked 177000.
		{"growing", SessionOptions{}, []int64{100000, 110000, 120000}, 120000, window.LevelOK, "5@autocompact", 200000},
		{"warning", SessionOptions{}, []int64{140000, 150000}, 150000, window.LevelWarning, "2@autocompact", 200000},
		{"at autocompact", SessionOptions{}, []int64{160000, 170000}, 170000, window.LevelAutocompact, "0@autocompact", 200000},
		{"blocked", SessionOptions{}, []int64{170000, 178000}, 178000, window.LevelBlocked, "0@autocompact", 200000},
		// Past the autocompact threshold with autocompact off nothing
		// happens until the blocking level: the level stays warning.
		{"autocompact off runs to blocking", SessionOptions{AutocompactOff: true}, []int64{160000, 170000}, 170000, window.LevelWarning, "1@blocked", 200000},
		// The override lowers autocompact to 50 % of 180000.
		{"env override", SessionOptions{Getenv: env(window.EnvAutocompactPct, "50")}, []int64{60000, 80000}, 80000, window.LevelWarning, "1@autocompact", 200000},
		{"shrinking has no forecast", SessionOptions{}, []int64{120000, 110000}, 110000, window.LevelOK, "none", 200000},
		// A turn over 200k tokens: the window must be 1M.
		{"guessed 1M", SessionOptions{}, []int64{150000, 250000}, 250000, window.LevelOK, "8@autocompact", 1000000}, // (967000 - 250000) / 100000, rounded up,
		{"given window", SessionOptions{Window: window.Size1M()}, []int64{100000}, 100000, window.LevelOK, "none", 1000000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newScript("s1", "/w/app", now.Add(-time.Hour))
			for i, c := range tt.contexts {
				s.user("go on")
				s.answer(string(rune('a'+i)), c)
			}
			sess := NewSession("projects/-w-app/s1.jsonl", tt.opts)
			feed(t, sess, s.String())
			st := sess.Status(now)
			f := "none"
			if st.Forecast.OK {
				f = strings.Join([]string{strconv.Itoa(st.Forecast.Turns), string(st.Forecast.Target)}, "@")
			}
			if st.Context != tt.context || !st.ContextKnown || st.Level != tt.level || f != tt.forecast || st.Window.ContextWindow != tt.window {
				t.Errorf("context %d known %v level %s forecast %s window %d; want %d %s %s %d",
					st.Context, st.ContextKnown, st.Level, f, st.Window.ContextWindow, tt.context, tt.level, tt.forecast, tt.window)
			}
			if st.Turns != len(tt.contexts) || st.TurnsSinceCompaction != len(tt.contexts) {
				t.Errorf("turns %d since %d, want %d", st.Turns, st.TurnsSinceCompaction, len(tt.contexts))
			}
			if st.Thresholds.Autocompact != st.Window.AutocompactAt() || st.Fill != float64(tt.context)/float64(tt.window) {
				t.Errorf("thresholds %+v fill %v", st.Thresholds, st.Fill)
			}
			if st.SessionID != "s1" || st.Project != "/w/app" || st.Model != "claude-opus-5-5" || st.WindowGuessed != (tt.opts.Window == window.Config{}) {
				t.Errorf("status %+v", st)
			}
		})
	}
}

func TestSessionCompactions(t *testing.T) {
	s := newScript("s1", "/w/app", now.Add(-time.Hour))
	s.user("one")
	// A response written as three lines (text, then two tool calls) is
	// one turn.
	s.answer("a", 100000, `{"type":"text","text":"x"}`, `{"type":"tool_use","id":"t1","name":"Read","input":{}}`, `{"type":"tool_use","id":"t2","name":"Read","input":{}}`)
	s.answer("b", 160000)
	b1 := s.compact("auto", 167020, 9000)
	s.user("two")
	s.answer("c", 12000)

	sess := NewSession("s.jsonl", SessionOptions{})
	feed(t, sess, s.String())
	st := sess.Status(now)
	if st.Turns != 3 || st.TurnsSinceCompaction != 1 || st.Context != 12000 || st.Forecast.OK {
		t.Errorf("after a compaction and one turn: %+v", st)
	}
	if len(st.Compactions) != 1 {
		t.Fatalf("compactions %+v", st.Compactions)
	}
	c := st.Compactions[0]
	if c.UUID != b1 || c.Line != 6 || c.Trigger != model.TriggerAuto || *c.PreTokens != 167020 || *c.PostTokens != 9000 || c.Kind != timeline.BoundaryCompact {
		t.Errorf("compaction %+v", c)
	}

	// Right after a compaction the context is the client's postTokens.
	s.compact("manual", 13000, 2500)
	sess2 := NewSession("s.jsonl", SessionOptions{})
	feed(t, sess2, s.String())
	st = sess2.Status(now)
	if st.Context != 2500 || !st.ContextKnown || st.TurnsSinceCompaction != 0 || len(st.Compactions) != 2 {
		t.Errorf("right after a compaction: %+v", st)
	}

	// Without postTokens nothing is known until the next response.
	s.compact("auto", 170000, -1)
	sess3 := NewSession("s.jsonl", SessionOptions{})
	feed(t, sess3, s.String())
	st = sess3.Status(now)
	if st.ContextKnown || st.Level != window.LevelOK || st.Forecast.OK || st.Forecast.Reason == "" {
		t.Errorf("after a compaction without postTokens: %+v", st)
	}
}

func TestSessionMemoryWrites(t *testing.T) {
	mem := "/h/projects/-w-app/memory"
	var asked []string
	opts := SessionOptions{MemoryDir: func(cwd string) string {
		asked = append(asked, cwd)
		return mem + "/"
	}}
	s := newScript("s1", "/w/app", now.Add(-time.Hour))
	s.user("remember this")
	s.answer("a", 1000, writeBlock("t1", "Write", mem+"/feedback_tests.md"), writeBlock("t2", "Edit", "/w/app/main.go"))
	s.result("t1", false)
	s.result("t2", false)
	s.answer("b", 2000, writeBlock("t3", "MultiEdit", mem+"/team/shared.md"))
	s.result("t3", false)
	s.answer("c", 3000, writeBlock("t4", "Edit", mem+"/feedback_tests.md"))
	s.result("t4", true)
	// A Read of a memory file and a write next to (not inside) the folder
	// are not memory writes.
	s.answer("d", 4000, `{"type":"tool_use","id":"t5","name":"Read","input":{"file_path":"`+mem+`/MEMORY.md"}}`, writeBlock("t6", "Write", mem+"-old/x.md"))

	sess := NewSession("s.jsonl", opts)
	feed(t, sess, s.String())
	st := sess.Status(now)
	if len(asked) != 1 || asked[0] != "/w/app" || st.MemoryDir != mem {
		t.Errorf("memory folder asked for %v, got %q", asked, st.MemoryDir)
	}
	var got []string
	for _, w := range st.MemoryWrites {
		got = append(got, w.Name+":"+w.Tool+":"+strconv.Itoa(w.Count)+":"+map[bool]string{true: "failed", false: "ok"}[w.Failed])
	}
	if strings.Join(got, " ") != "feedback_tests.md:Edit:2:failed team/shared.md:MultiEdit:1:ok" {
		t.Errorf("writes %v", got)
	}
	if st.MemoryWrites[0].Path != mem+"/feedback_tests.md" || st.MemoryWrites[0].Line != 8 {
		t.Errorf("first write %+v", st.MemoryWrites[0])
	}

	// Without a memory folder nothing is tracked.
	none := NewSession("s.jsonl", SessionOptions{})
	feed(t, none, s.String())
	if st := none.Status(now); len(st.MemoryWrites) != 0 || st.MemoryDir != "" {
		t.Errorf("writes without a folder %+v", st.MemoryWrites)
	}
}

func TestSessionTokensPerMinute(t *testing.T) {
	s := newScript("s1", "/w/app", now.Add(-15*time.Minute))
	s.answer("old", 50000) // outside the 10-minute window
	s.at(now.Add(-5*time.Minute)).answer("a", 20000)
	s.at(now.Add(-1*time.Minute)).answer("b", 30000)
	s.at(now.Add(-1*time.Minute)).answer("b", 30000) // the same response again
	sess := NewSession("s.jsonl", SessionOptions{})
	feed(t, sess, s.String())
	// A subagent's response counts in the rate, not in the turns.
	sub := newScript("s1", "/w/app", now.Add(-2*time.Minute))
	sub.answer("sub", 10000)
	ld := model.NewLineDecoder("agent.jsonl", ScanOptions)
	var rec model.Record
	if _, ok := ld.Decode(model.Line{Bytes: []byte(strings.TrimSpace(sub.String())), Number: 1, Terminated: true}, &rec); !ok {
		t.Fatal("subagent line")
	}
	sess.AddUsage(&rec)
	st := sess.Status(now)
	// Each response's tokens: its context plus 100 output.
	want := float64(20100+30100+10100) / 10
	if st.TokensPerMinute != want || st.Turns != 3 {
		t.Errorf("rate %v turns %d, want %v and 3", st.TokensPerMinute, st.Turns, want)
	}
	if st := sess.Status(now.Add(time.Hour)); st.TokensPerMinute != 0 {
		t.Errorf("an hour later the rate is %v", st.TokensPerMinute)
	}
}

// On real transcripts the session counts what the Replay timeline counts.
func TestSessionAgreesWithTimeline(t *testing.T) {
	dir := filepath.Join("..", "..", "model", "testdata", "transcripts")
	for _, name := range []string{"transcript-partial-compactions.jsonl", "transcript-interactive-pastes.jsonl"} {
		t.Run(name, func(t *testing.T) {
			tr, err := model.ReadTranscriptWith(os.DirFS(dir), name, ScanOptions)
			if err != nil {
				t.Fatal(err)
			}
			tl := timeline.Build(tr, window.Size200k(), 0)
			sess := NewSession(name, SessionOptions{})
			res, err := model.TailTranscript(os.DirFS(dir), name, model.TailState{}, ScanOptions, func(r *model.Record, line []byte) error {
				sess.Add(r, line)
				return nil
			})
			if err != nil || res.Records == 0 {
				t.Fatal(res, err)
			}
			st := sess.Status(now)
			if st.Turns != len(tl.Turns) || len(st.Compactions) != len(tl.Boundaries) {
				t.Errorf("turns %d compactions %d; timeline %d and %d", st.Turns, len(st.Compactions), len(tl.Turns), len(tl.Boundaries))
			}
			last := tl.Steps[len(tl.Steps)-1]
			since, lastBoundary := 0, 0
			for _, b := range tl.Boundaries {
				lastBoundary = b.Line
			}
			for _, tu := range tl.Turns {
				if tu.Line > lastBoundary {
					since++
				}
			}
			if st.Context != last.Measured || st.TurnsSinceCompaction != since || st.Level != tl.Turns[len(tl.Turns)-1].Level {
				t.Errorf("context %d since %d level %s; timeline's last step measured %d, %d turns since, level %s",
					st.Context, st.TurnsSinceCompaction, st.Level, last.Measured, since, tl.Turns[len(tl.Turns)-1].Level)
			}
		})
	}
}

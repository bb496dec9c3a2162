package compact

import (
	"fmt"
	"strings"
	"testing"

	"github.com/memscope/memscope/engine/internal/enginetest"
	"github.com/memscope/memscope/engine/timeline"
	"github.com/memscope/memscope/engine/window"
)

// The client decides on its own count: the newest response's usage plus
// an estimate of what came after it (FORMATS.md: 4 characters per token
// only where no usage figure exists). A transcript whose estimate is
// under the threshold while its usage is over it must still compact.
func TestInputFromResumeStartsFromTheNewestUsage(t *testing.T) {
	usage := `"usage":{"input_tokens":100000,"cache_read_input_tokens":50000,"cache_creation_input_tokens":20000,"output_tokens":300}`
	in := enginetest.Line("user", "u1", "", `,"message":{"role":"user","content":"fix it"}`) +
		// One response written on two lines (text, then tool_use).
		enginetest.Line("assistant", "a1", "u1", `,"requestId":"r1","message":{"id":"m1","role":"assistant","content":[{"type":"text","text":"ok"}],`+usage+`}`) +
		enginetest.Line("assistant", "a1b", "a1", `,"requestId":"r1","message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Read","input":{}}],`+usage+`}`) +
		enginetest.Line("user", "t1r", "a1b", `,"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"`+strings.Repeat("x", 1000)+`"}]}`) +
		enginetest.LastPrompt("t1r")
	tr := enginetest.BuildTranscript(t, in)
	got := InputFromResume(tr, timeline.ResumeTranscript(tr, timeline.ResumeOptions{}))
	// 100000 + 50000 + 20000 input, 300 output, 250 for the 1000-byte result.
	if got.Measured != 170550 {
		t.Errorf("measured %d, want 170550 (estimate alone: %d)", got.Measured, got.Tokens())
	}
	cfg := DefaultConfig(window.Size200k()) // autocompact at 167000
	res, err := Run(got, cfg, &State{}, enginetest.Now)
	if err != nil || res.Before != 170550 || len(res.Stages) == 0 {
		t.Errorf("before %d, %d stages (err %v): the pipeline must start from the measured count", res.Before, len(res.Stages), err)
	}
	// Without any response there is nothing measured: all estimate.
	tr = enginetest.BuildTranscript(t, enginetest.Line("user", "u1", "", `,"message":{"role":"user","content":"fix it"}`))
	if got := InputFromResume(tr, timeline.ResumeTranscript(tr, timeline.ResumeOptions{})); got.Measured != 0 {
		t.Errorf("no usage, measured %d", got.Measured)
	}
}

// Each stage's freed tokens come off the measured figure: the next
// threshold check sees measured − freed, not a fresh estimate.
func TestPipelineFreedTokensComeOffTheMeasuredCount(t *testing.T) {
	cfg := SmallConfig() // autocompact at 39000
	cfg.SnipProtectHead, cfg.SnipProtectTail = 0, 1
	msgs := []Msg{Prompt("u", "go"), result("r1", "Bash", "t1", 8000), result("r2", "Bash", "t2", 8000), Answer("a", "done")}
	in := Input{Messages: msgs, Measured: 45000} // the estimate is about 4000
	res, err := Run(in, cfg, &State{}, enginetest.Now)
	if err != nil || len(res.Stages) < 2 {
		t.Fatalf("stages %q err %v", StageNames(res), err)
	}
	snip := res.Stages[1]
	if res.Before != 45000 || snip.Stage != StageSnip || snip.Before != 45000 || snip.Freed < 3900 || snip.After != 45000-snip.Freed {
		t.Errorf("before %d, snip %+v", res.Before, snip)
	}
	if res.After != res.Stages[len(res.Stages)-1].After || res.Fits != (res.After < cfg.Window.AutocompactAt()) {
		t.Errorf("after %d fits %v stages %+v", res.After, res.Fits, res.Stages)
	}
}

// A preserved segment relinked after a partial compaction keeps its old
// records, usage included; that usage measured the context before the
// compaction and says nothing about the context after it.
func TestInputFromResumeIgnoresUsageFromBeforeTheBoundary(t *testing.T) {
	usage := func(n int) string {
		return fmt.Sprintf(`"usage":{"input_tokens":%d,"output_tokens":10}`, n)
	}
	src := enginetest.Line("user", "u1", "", `,"message":{"role":"user","content":"one"}`) +
		enginetest.Line("assistant", "a1", "u1", `,"requestId":"r1","message":{"id":"m1","role":"assistant","content":[{"type":"text","text":"ok"}],`+usage(150000)+`}`) +
		enginetest.Boundary("B", "a1", enginetest.Segment("u1", "S", "a1")) +
		enginetest.Line("user", "S", "B", `,"isCompactSummary":true,"message":{"role":"user","content":"summary"}`) +
		enginetest.LastPrompt("S")
	tr := enginetest.BuildTranscript(t, src)
	res := timeline.ResumeTranscript(tr, timeline.ResumeOptions{})
	if len(res.Preserved) != 2 || res.Fallback {
		t.Fatalf("setup: preserved %d fallback %v", len(res.Preserved), res.Fallback)
	}
	if in := InputFromResume(tr, res); in.Measured != 0 {
		t.Errorf("measured %d from a response before the boundary; want the estimate (%d)", in.Measured, in.Tokens())
	}
	// A response after the boundary is measured again.
	src += enginetest.Line("user", "u2", "S", `,"message":{"role":"user","content":"two"}`) +
		enginetest.Line("assistant", "a2", "u2", `,"requestId":"r2","message":{"id":"m2","role":"assistant","content":[{"type":"text","text":"ok"}],`+usage(20000)+`}`) +
		enginetest.LastPrompt("a2")
	tr = enginetest.BuildTranscript(t, src)
	if in := InputFromResume(tr, timeline.ResumeTranscript(tr, timeline.ResumeOptions{})); in.Measured != 20010 {
		t.Errorf("measured %d, want 20010", in.Measured)
	}
}

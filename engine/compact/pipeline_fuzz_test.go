package compact

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/memscope/memscope/engine/internal/enginetest"
	"github.com/memscope/memscope/engine/timeline"
	"github.com/memscope/memscope/engine/window"
	"github.com/memscope/memscope/model"
)

// fuzzMsgs turns fuzz bytes into a conversation, four bytes a message:
// the first picks the kind, the others its size, tool and shape. Every
// tool_result follows its tool_use (alone or several to a message, as the
// client writes them); a tool_use may stay unanswered, as the last one of
// a live session does.
// maxFuzzChars bounds the text fuzzMsgs writes.
const maxFuzzChars = 1_500_000

func fuzzMsgs(data []byte) []Msg {
	tools := []string{"Read", "Bash", "Grep", "Edit", "WebFetch", "Task", "NotebookRead"}
	var msgs []Msg
	t := 0
	// chars caps the text of a conversation at a few times the budgets
	// (50 000 per result, 200 000 per turn): every stage is still reached,
	// and one run stays well under a second, so a loaded machine does not
	// make the fuzzer report a slow input as a hung worker.
	chars := 0
	for i := 0; i+4 <= len(data) && len(msgs) < 300 && chars < maxFuzzChars; i += 4 {
		op, a, b, c := data[i]%6, int(data[i+1]), int(data[i+2]), data[i+3]
		chars += a * b * 2
		unit := "w "
		switch {
		case c&1 != 0:
			unit = "é"
		case c&2 != 0:
			unit = "😀" // two UTF-16 units
		}
		id := fmt.Sprint("m", len(msgs))
		switch op {
		case 0:
			msgs = append(msgs, Prompt(id, strings.Repeat(unit, a*b)))
		case 1:
			msgs = append(msgs, Answer(id, strings.Repeat(unit, a*b)))
		case 2, 3:
			k := 1 + int(c>>2)%3
			var ids []string
			for range k {
				t++
				ids = append(ids, fmt.Sprint("toolu_", t))
			}
			together := c&16 != 0
			if together {
				msgs = append(msgs, toolUse(id+"c", ids...))
			} else {
				for j, tid := range ids {
					msgs = append(msgs, toolUse(fmt.Sprintf("%sc%d", id, j), tid))
				}
			}
			res := Msg{UUID: id + "r", Kind: MsgToolResult, Line: 1}
			for j, tid := range ids {
				bl := TextBlock(model.BlockToolResult, strings.Repeat(unit, (a*b*(j+1))%70000))
				bl.ToolUseID, bl.ToolName = tid, tools[(a+j)%len(tools)]
				bl.IsError = c&32 != 0
				if c&64 != 0 {
					bl.Images = 1
				}
				res.Blocks = append(res.Blocks, bl)
			}
			msgs = append(msgs, res)
		case 4:
			msgs = append(msgs, Msg{UUID: id, Kind: MsgAttachment, Line: 1, Attached: timeline.Context{Instructions: window.Tokens(a * b)}})
		default:
			t++
			msgs = append(msgs, toolUse(id, fmt.Sprint("toolu_", t)))
		}
	}
	return msgs
}

// FuzzPipeline runs the compaction pipeline on fuzzed conversations and
// configurations and checks what must hold whatever the input: no stage
// grows the context and the figures add up, the input is never modified,
// every visible tool_result keeps its tool_use (after each stage, after
// prompt-too-long recovery and after a manual compaction), and the
// tool-result budget and microcompact are idempotent.
func FuzzPipeline(f *testing.F) {
	f.Add([]byte{0, 20, 20, 0, 2, 200, 200, 0, 1, 10, 10, 1, 3, 255, 255, 16, 5, 0, 0, 0}, uint64(1), uint16(1000))
	f.Add([]byte(strings.Repeat("\x02\xff\xff\x00\x03\xfe\xfe\x10\x00\x40\x40\x02", 12)), uint64(7), uint16(20000))
	f.Fuzz(func(t *testing.T, data []byte, knobs uint64, system uint16) {
		cfg := randomConfig(rand.New(rand.NewPCG(knobs, knobs>>7)))
		in := Input{System: window.Tokens(system), Messages: fuzzMsgs(data), Session: SessionInfo{Leaf: "leaf"}}
		orig := cloneMsgs(in.Messages)

		res, err := Run(in, cfg, &State{}, enginetest.Now)
		if err != nil {
			t.Fatalf("RunPipeline: %v", err)
		}
		prev := res.Before
		for _, s := range res.Stages {
			if s.After > s.Before || s.Freed != s.Before-s.After || s.Before != prev {
				t.Fatalf("stage %s went %d → %d (freed %d, previous figure %d)", s.Stage, s.Before, s.After, s.Freed, prev)
			}
			prev = s.After
		}
		if got := in.System + msgTokens(res.Messages); got != res.After {
			t.Fatalf("result says %d tokens, its messages hold %d", res.After, got)
		}
		if res.Fits != (res.After < cfg.Window.AutocompactAt()) {
			t.Fatalf("fits = %v with %d tokens against %d", res.Fits, res.After, cfg.Window.AutocompactAt())
		}
		for k := 1; k <= len(pipelineStages()); k++ {
			c := cfg
			c.NewUUID = seqUUIDs()
			part := pipelineStagesFor(in, c, &State{}, k)
			checkPairs(t, fmt.Sprintf("after %d stages (%s)", k, StageNames(part)), in.Messages, part.Messages)
		}

		p := newRun(in, cfg, &State{}, enginetest.Now, cfg.Window.AutocompactAt())
		once, _ := p.budget(in.Messages)
		twice, sr := p.budget(once)
		if sr.Acted || !reflect.DeepEqual(once, twice) {
			t.Fatalf("the tool-result budget acted again on its own output (%s)", sr.Detail)
		}
		once, _ = p.microcompact(in.Messages)
		twice, sr = p.microcompact(once)
		if sr.Acted || !reflect.DeepEqual(once, twice) {
			t.Fatalf("microcompact acted again on its own output (%s)", sr.Detail)
		}

		st := &State{}
		st.Collapse.stage(in.Messages, cfg)
		rec, err := RecoverPromptTooLong(in, cfg, st, enginetest.Now)
		if err != nil && !errors.Is(err, ErrPromptTooLong) {
			t.Fatalf("recovery: %v", err)
		}
		checkPairs(t, "recovery ("+StageNames(rec)+")", in.Messages, rec.Messages)

		man, err := RunManual(in, cfg, &State{}, enginetest.Now)
		if err != nil {
			t.Fatalf("manual compact: %v", err)
		}
		if man.After > man.Before {
			t.Fatalf("manual compact grew the context %d → %d", man.Before, man.After)
		}
		checkPairs(t, "manual compact", in.Messages, man.Messages)

		if len(orig) > 0 && !reflect.DeepEqual(in.Messages, orig) {
			t.Fatal("the input messages were modified")
		}
	})
}

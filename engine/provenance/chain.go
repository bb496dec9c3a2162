package provenance

import (
	"fmt"
	"io/fs"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/memscope/memscope/engine/extract"
	"github.com/memscope/memscope/model"
)

// node is one chain record, as much as a walk to a prompt needs.
type node struct {
	parent string
	line   int
	time   time.Time
	// prompt is set on a real user prompt (the text's first line); task
	// on a subagent's prompt from the main agent.
	prompt, task string
	isPrompt     bool
	isTask       bool
}

// use is the record holding a tool_use.
type use struct {
	uuid, session string
	line          int
	time          time.Time
	// agent is the record's agentId when it is a sidechain turn written
	// into the main transcript (older clients); "" otherwise.
	agent     string
	sidechain bool
}

// result is a tool_result.
type result struct {
	outcome Outcome
	text    string
	time    time.Time
}

// chain is one transcript's message chain and the tool calls asked for.
type chain struct {
	nodes   map[string]node
	uses    map[string]use
	results map[string]result
}

// readChain reads t with content and text, keeping every chain record's
// link and prompt, the records holding the tool_use ids in wanted, and
// those ids' results.
func readChain(home fs.FS, t model.TranscriptFile, wanted map[string]bool) (*chain, []model.Problem) {
	// sub: a subagent's own transcript, whose every turn is a sidechain.
	c := &chain{nodes: map[string]node{}, uses: map[string]use{}, results: map[string]result{}}
	f, err := model.OpenRegular(home, t.Path)
	if err != nil {
		return nil, []model.Problem{{File: t.Path, Kind: model.ProblemUnreadable, Reason: err.Error()}}
	}
	defer f.Close()
	sub := t.Kind == model.TranscriptSubagent
	_, err = model.ScanTranscript(f, t.Path, model.ScanOptions{Content: true, KeepText: true}, func(r *model.Record) error {
		c.add(r, sub, wanted)
		return nil
	})
	if err != nil {
		return c, []model.Problem{{File: t.Path, Kind: model.ProblemUnreadable, Reason: fmt.Sprintf("read: %v", err)}}
	}
	return c, nil
}

// link is what the second pass found of one tool_use id: the record
// holding the call, its result, and the prompt and task up the chain
// from that record. A transcript's links are all Scan keeps of it (the
// chain itself is dropped), so a cache can hold them.
type link struct {
	use   use
	found bool
	// answered says a tool_result names the call.
	result   result
	answered bool
	prompt   *Prompt
	task     string
}

// promptCopy is the link's prompt, a copy each write owns.
func (l link) promptCopy() *Prompt {
	if l.prompt == nil {
		return nil
	}
	p := *l.prompt
	return &p
}

// readLinks reads t's chain and answers each id of wanted (an id not in
// the transcript answers with found false); nil when t cannot be opened.
func readLinks(home fs.FS, t model.TranscriptFile, wanted map[string]bool) (map[string]link, []model.Problem) {
	c, probs := readChain(home, t, wanted)
	if c == nil {
		return nil, probs
	}
	out := make(map[string]link, len(wanted))
	for id := range wanted {
		var l link
		l.use, l.found = c.uses[id]
		l.result, l.answered = c.results[id]
		if l.found {
			l.prompt, l.task = c.promptOf(l.use.uuid), c.taskOf(l.use.uuid)
		}
		out[id] = l
	}
	return out, probs
}

func (c *chain) add(r *model.Record, sub bool, wanted map[string]bool) {
	if r.UUID == "" {
		return
	}
	n := node{parent: r.ParentUUID, line: r.Line, time: r.Timestamp}
	if n.parent == "" {
		// A compact boundary starts a new chain; the turn it cut goes on
		// from the old leaf.
		n.parent = r.LogicalParentUUID
	}
	if r.Type == model.RecordUser && r.Message != nil {
		text, skip := extract.PromptText(r)
		switch {
		case skip == "":
			n.isPrompt, n.prompt = true, firstLine(text)
		case skip == extract.SkipSidechain:
			// In a subagent's turns the "user" is the main agent: its
			// prompt is the subagent's task, read by the same rule.
			cp := *r
			cp.IsSidechain = false
			if text, skip := extract.PromptText(&cp); skip == "" {
				n.isTask, n.task = true, firstLine(text)
			}
		}
		for _, b := range r.Message.Content {
			if b.Type != model.BlockToolResult || !wanted[b.ToolUseID] {
				continue
			}
			res := result{outcome: OutcomeOK, time: r.Timestamp}
			if b.IsError {
				res.outcome, res.text = OutcomeError, errorText(b.Text)
			}
			c.results[b.ToolUseID] = res
		}
	}
	if r.Type == model.RecordAssistant && r.Message != nil {
		for _, b := range r.Message.Content {
			if b.Type == model.BlockToolUse && wanted[b.ID] {
				c.uses[b.ID] = use{uuid: r.UUID, session: r.SessionID, line: r.Line, time: r.Timestamp, agent: r.AgentID, sidechain: r.IsSidechain && !sub}
			}
		}
	}
	if _, dup := c.nodes[r.UUID]; !dup {
		c.nodes[r.UUID] = n
	}
}

// walk follows the chain up from uuid to the first node ok accepts.
func (c *chain) walk(uuid string, ok func(node) bool) (string, node, bool) {
	for steps := 0; uuid != "" && steps <= len(c.nodes); steps++ {
		n, found := c.nodes[uuid]
		if !found {
			return "", node{}, false
		}
		if ok(n) {
			return uuid, n, true
		}
		uuid = n.parent
	}
	return "", node{}, false
}

// promptOf is the nearest real user prompt up the chain from uuid.
func (c *chain) promptOf(uuid string) *Prompt {
	id, n, ok := c.walk(uuid, func(n node) bool { return n.isPrompt })
	if !ok {
		return nil
	}
	return &Prompt{UUID: id, Line: n.line, Time: n.time, Text: n.prompt}
}

// taskOf is the subagent's task prompt up the chain from uuid.
func (c *chain) taskOf(uuid string) string {
	_, n, _ := c.walk(uuid, func(n node) bool { return n.isTask })
	return n.task
}

// firstLine is the first non-blank line of s, at most PromptMax
// characters (cut with …).
func firstLine(s string) string {
	for l := range strings.SplitSeq(s, "\n") {
		l = strings.TrimSpace(strings.ToValidUTF8(l, "\uFFFD"))
		if l == "" {
			continue
		}
		if utf8.RuneCountInString(l) > PromptMax {
			l = string([]rune(l)[:PromptMax-1]) + "…"
		}
		return l
	}
	return ""
}

// errorText is a failed call's message without the client's
// <tool_use_error> wrapper.
func errorText(s string) string {
	s = strings.TrimSpace(s)
	s = strings.TrimPrefix(s, "<tool_use_error>")
	s = strings.TrimSuffix(s, "</tool_use_error>")
	return firstLine(s)
}

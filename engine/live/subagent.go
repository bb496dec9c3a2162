package live

import (
	"encoding/json"
	"io/fs"
	"slices"
	"strings"
	"time"

	"github.com/memscope/memscope/engine/window"
	"github.com/memscope/memscope/model"
)

// SubagentQuiet is how long a subagent without a meta file (older
// clients write none) counts as running after its transcript was last
// written.
const SubagentQuiet = 2 * time.Minute

// maxMetaBytes bounds the agent-<id>.meta.json read.
const maxMetaBytes = 64 << 10

// Subagent is one subagent of a running session: its transcript
// (projects/<slug>/<session>/subagents/agent-<id>.jsonl) and what the
// agent-<id>.meta.json the client writes beside it says.
type Subagent struct {
	AgentID    string `json:"agentId"`
	Transcript string `json:"transcript"`
	// AgentType, Description and Model are the meta file's ("" when it
	// has none; Model then comes from the responses).
	AgentType   string `json:"agentType,omitempty"`
	Description string `json:"description,omitempty"`
	Model       string `json:"model,omitempty"`
	// Running says the subagent is still at work: its meta file does not
	// say finished (without a meta file: its transcript was written in
	// the last SubagentQuiet). Finished is the meta file's word.
	Running  bool `json:"running"`
	Finished bool `json:"finished,omitempty"`
	// Responses counts its responses; Context is what its last request
	// put in its own context window; Tokens sums every token of its
	// responses.
	Records   int           `json:"records"`
	Responses int           `json:"responses"`
	Context   window.Tokens `json:"context"`
	Tokens    int64         `json:"tokens"`
	Started   time.Time     `json:"started,omitzero"`
	// LastWrite is the transcript's mtime; LastActivity its latest record.
	LastWrite    time.Time `json:"lastWrite,omitzero"`
	LastActivity time.Time `json:"lastActivity,omitzero"`
}

// agentState is a subagent built record by record from its transcript,
// and its meta file as last read.
type agentState struct {
	records, responses int
	lastKey            string
	context            window.Tokens
	tokens             int64
	model              string
	started, last      time.Time
	// meta is the meta file as read when its size and mtime were
	// metaSize and metaTime; metaRead says it was read (or found
	// missing) at least once.
	meta              agentMeta
	metaSize          int64
	metaTime          time.Time
	metaRead, hasMeta bool
}

// agentMeta is what memscope reads of agent-<id>.meta.json.
type agentMeta struct {
	AgentType   string          `json:"agentType"`
	Description string          `json:"description"`
	Model       string          `json:"model"`
	Finished    json.RawMessage `json:"finished"`
}

// finished says the meta file marks the agent done: true, or any value
// that is not false or null (a time).
func (m agentMeta) finished() bool {
	v := strings.TrimSpace(string(m.Finished))
	return v != "" && v != "false" && v != "null" && v != `""` && v != "0"
}

// add takes the next record of the subagent's transcript.
func (a *agentState) add(rec *model.Record) {
	a.records++
	if t := rec.Timestamp; !t.IsZero() {
		if a.started.IsZero() || t.Before(a.started) {
			a.started = t
		}
		if t.After(a.last) {
			a.last = t
		}
	}
	m := rec.Message
	if rec.Type != model.RecordAssistant || m == nil || m.Usage == nil {
		return
	}
	// A response written as several lines (one per content block) is
	// one response.
	key := m.ID + "\x00" + rec.RequestID
	if key != "\x00" && key == a.lastKey {
		return
	}
	a.lastKey = key
	a.responses++
	a.context = window.Tokens(m.Usage.ContextTokens())
	a.tokens += TotalTokens(*m.Usage)
	if m.Model != "" {
		a.model = m.Model
	}
}

// metaPath is the meta file beside a subagent transcript.
func metaPath(transcript string) string {
	return strings.TrimSuffix(transcript, ".jsonl") + ".meta.json"
}

// readMeta reads the subagent's meta file again when its size or mtime
// changed (a finished agent's is final and not looked at again).
func (a *agentState) readMeta(fsys fs.FS, transcript string) {
	if a.hasMeta && a.meta.finished() {
		return
	}
	p := metaPath(transcript)
	info, err := fs.Stat(fsys, p)
	if err != nil {
		a.metaRead, a.hasMeta, a.meta = true, false, agentMeta{}
		return
	}
	if a.metaRead && a.hasMeta && info.Size() == a.metaSize && info.ModTime().Equal(a.metaTime) {
		return
	}
	a.metaRead, a.metaSize, a.metaTime = true, info.Size(), info.ModTime()
	data, err := model.ReadFileBounded(fsys, p, maxMetaBytes)
	var m agentMeta
	if err != nil || json.Unmarshal(data, &m) != nil {
		// Being written, or not the client's: read again when it changes.
		a.hasMeta, a.meta = false, agentMeta{}
		return
	}
	a.hasMeta, a.meta = true, m
}

// status is the subagent at now; f is its transcript as listed.
func (a *agentState) status(f model.TranscriptFile, now time.Time) Subagent {
	s := Subagent{
		AgentID: f.AgentID, Transcript: f.Path, Model: a.model,
		Records: a.records, Responses: a.responses, Context: a.context, Tokens: a.tokens,
		Started: a.started, LastWrite: f.ModTime, LastActivity: a.last,
	}
	if a.hasMeta {
		s.AgentType, s.Description = a.meta.AgentType, a.meta.Description
		if a.meta.Model != "" {
			s.Model = a.meta.Model
		}
		s.Finished = a.meta.finished()
		s.Running = !s.Finished
	} else {
		s.Running = now.Sub(f.ModTime) < SubagentQuiet
	}
	return s
}

// sortSubagents puts running subagents first, then the latest written.
func sortSubagents(subs []Subagent) {
	slices.SortFunc(subs, func(a, b Subagent) int {
		if a.Running != b.Running {
			if a.Running {
				return -1
			}
			return 1
		}
		if c := b.LastWrite.Compare(a.LastWrite); c != 0 {
			return c
		}
		return strings.Compare(a.AgentID, b.AgentID)
	})
}

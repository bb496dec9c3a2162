package live

import (
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
	meta              model.SubagentMeta
	metaSize          int64
	metaTime          time.Time
	metaRead, hasMeta bool
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

// metaPath is the meta file beside a subagent transcript (looked for
// on every read: the client may write it after the transcript was
// listed).
func metaPath(transcript string) string {
	return strings.TrimSuffix(transcript, ".jsonl") + model.SubagentMetaSuffix
}

// finished says a meta file marks its agent done.
func finished(m model.SubagentMeta) bool { return m.Finished != nil && *m.Finished }

// readMeta reads the subagent's meta file again when its size or mtime
// changed (a finished agent's is final and not looked at again).
func (a *agentState) readMeta(fsys fs.FS, transcript string) {
	if a.hasMeta && finished(a.meta) {
		return
	}
	p := metaPath(transcript)
	info, err := fs.Stat(fsys, p)
	if err != nil {
		a.metaRead, a.hasMeta, a.meta = true, false, model.SubagentMeta{}
		return
	}
	if a.metaRead && a.hasMeta && info.Size() == a.metaSize && info.ModTime().Equal(a.metaTime) {
		return
	}
	a.metaRead, a.metaSize, a.metaTime = true, info.Size(), info.ModTime()
	m, err := model.ReadSubagentMeta(fsys, p)
	if err != nil {
		// Being written, or not the client's: read again when it changes.
		a.hasMeta, a.meta = false, model.SubagentMeta{}
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
		s.Finished = finished(a.meta)
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

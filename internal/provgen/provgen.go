// Package provgen writes a Claude home in which the model writes memory
// through Write, Edit and MultiEdit tool calls, the way the real client
// records them: in main sessions and in a subagent (with its
// agent-<id>.meta.json), one call failing with is_error, one after a
// compaction, and agent memory of project scope; beside them a memory
// written by hand (no origin) and one whose stamped session was swept.
// Tests of provenance and the review inbox read it; gen/ writes it for a
// person or the tmux end-to-end test.
package provgen

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/memscope/memscope/model"
)

// Session ids of the home.
const (
	// SessionTerse writes feedback_terse.md and its index line, and
	// tries project_deploy.md with a Write that fails (not read first).
	SessionTerse = "1a000000-0000-4000-8000-000000000001"
	// SessionDeploy spawns a subagent (AgentID) that writes
	// project_deploy.md and its own agent memory.
	SessionDeploy = "2b000000-0000-4000-8000-000000000002"
	// SessionEdit compacts, then edits feedback_terse.md.
	SessionEdit = "3c000000-0000-4000-8000-000000000003"
	// SessionSwept is named by swept_stamp.md's originSessionId; its
	// transcript is not on disk.
	SessionSwept = "4d000000-0000-4000-8000-000000000004"
	// AgentID is the subagent of SessionDeploy; AgentType its type.
	AgentID   = "a7f3c21e9b"
	AgentType = "memory-keeper"
)

// Prompts the writes come from.
const (
	PromptTerse  = "Remember that I prefer terse answers, no recap at the end."
	PromptDeploy = "We deploy on Fridays after the 14:00 freeze; have the memory keeper record that."
	PromptRecap  = "Also remember: never a recap, even after long tasks."
	TaskDeploy   = "Record in memory that deploys happen on Fridays after the 14:00 freeze."
	FailError    = "File has not been read yet. Read it first before writing to it."
)

// Layout is where the home's parts are.
type Layout struct {
	Root    string
	Home    string
	Project string
	// MemoryDir is the project's auto memory; AgentDir the subagent's
	// agent memory (project scope).
	MemoryDir string
	AgentDir  string
	// Now is the clock the home was written for.
	Now time.Time
}

// Write writes the home under dir (made absolute): dir/home and the
// project at dir/project. now is the present the times are relative to.
func Write(dir string, now time.Time) (Layout, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return Layout{}, err
	}
	l := Layout{Root: dir, Home: filepath.Join(dir, "home"), Project: filepath.Join(dir, "project"), Now: now.UTC()}
	slug := model.Slug(l.Project)
	l.MemoryDir = filepath.Join(l.Home, "projects", slug, "memory")
	l.AgentDir = filepath.Join(l.Project, ".claude", "agent-memory", AgentType)
	g := &gen{l: l}
	g.mkdir(l.Project)
	g.file(filepath.Join(l.Project, "README.md"), "# app\n", now.AddDate(0, 0, -30))
	g.sessions()
	return l, g.err
}

type gen struct {
	l   Layout
	err error
	seq int
}

func (g *gen) mkdir(d string) {
	if g.err == nil {
		g.err = os.MkdirAll(d, 0o755)
	}
}

func (g *gen) file(p, text string, mtime time.Time) {
	g.mkdir(filepath.Dir(p))
	if g.err == nil {
		g.err = os.WriteFile(p, []byte(text), 0o644)
	}
	if g.err == nil {
		g.err = os.Chtimes(p, mtime, mtime)
	}
}

func (g *gen) id(prefix string) string {
	g.seq++
	return fmt.Sprintf("%s%04d-0000-4000-8000-%012d", prefix, g.seq, g.seq)
}

// transcript builds one JSONL transcript.
type transcript struct {
	g         *gen
	session   string
	agent     string // set in a subagent's transcript
	cwd       string
	t         time.Time
	parent    string
	lines     []string
	sidechain bool
}

func (g *gen) transcript(session string, start time.Time) *transcript {
	return &transcript{g: g, session: session, cwd: g.l.Project, t: start}
}

func (t *transcript) tick(d time.Duration) time.Time {
	t.t = t.t.Add(d)
	return t.t
}

func (t *transcript) record(typ string, fields map[string]any) string {
	uuid := t.g.id("e0")
	rec := map[string]any{
		"parentUuid": nil, "isSidechain": t.sidechain, "userType": "external", "cwd": t.cwd,
		"sessionId": t.session, "version": "2.1.331", "gitBranch": "main", "type": typ,
		"uuid": uuid, "timestamp": t.tick(2 * time.Second).Format("2006-01-02T15:04:05.000Z"),
	}
	if t.parent != "" {
		rec["parentUuid"] = t.parent
	}
	if t.agent != "" {
		rec["agentId"] = t.agent
	}
	for k, v := range fields {
		rec[k] = v
	}
	// The client writes JSON.stringify's form: no HTML escapes.
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(rec)
	t.lines = append(t.lines, strings.TrimSuffix(b.String(), "\n"))
	t.parent = uuid
	return uuid
}

func (t *transcript) prompt(text string) string {
	return t.record("user", map[string]any{"message": map[string]any{"role": "user", "content": text}})
}

func (t *transcript) usage() map[string]any {
	return map[string]any{"input_tokens": 12, "cache_creation_input_tokens": 2100, "cache_read_input_tokens": 11800, "output_tokens": 180}
}

func (t *transcript) say(text string) string {
	return t.record("assistant", map[string]any{"requestId": t.g.id("req_"), "message": map[string]any{
		"id": t.g.id("msg_"), "type": "message", "role": "assistant", "model": "claude-opus-4-5",
		"content": []any{map[string]any{"type": "text", "text": text}}, "stop_reason": "end_turn", "usage": t.usage()}})
}

// call writes an assistant record with one tool_use and its result;
// it returns the tool_use id, the assistant record's uuid and the
// result's time.
func (t *transcript) call(tool string, input map[string]any, result string, isError bool, extra map[string]any) (string, string, time.Time) {
	id := "toolu_" + strings.ReplaceAll(t.g.id("01"), "-", "")[:24]
	uuid := t.record("assistant", map[string]any{"requestId": t.g.id("req_"), "message": map[string]any{
		"id": t.g.id("msg_"), "type": "message", "role": "assistant", "model": "claude-opus-4-5",
		"content":     []any{map[string]any{"type": "tool_use", "id": id, "name": tool, "input": input}},
		"stop_reason": "tool_use", "usage": t.usage()}})
	block := map[string]any{"tool_use_id": id, "type": "tool_result", "content": result}
	fields := map[string]any{"message": map[string]any{"role": "user", "content": []any{block}}, "sourceToolAssistantUUID": uuid}
	if isError {
		block["is_error"] = true
		block["content"] = "<tool_use_error>" + result + "</tool_use_error>"
		fields["toolUseResult"] = "Error: " + result
	}
	for k, v := range extra {
		fields[k] = v
	}
	t.record("user", fields)
	return id, uuid, t.t
}

func (t *transcript) write(p string) {
	t.g.file(p, strings.Join(t.lines, "\n")+"\n", t.t)
}

// stamped is a memory file as the client leaves it after a Write: the
// frontmatter normalized and stamped.
func stamped(name, desc, typ, session string, modified time.Time, body string) string {
	return fmt.Sprintf("---\nname: %s\ndescription: %s\nmetadata:\n  node_type: memory\n  type: %s\n  originSessionId: %s\n  modified: %s\n---\n\n%s",
		name, desc, typ, session, modified.Format("2006-01-02T15:04:05.000Z"), body)
}

// written is the same file as the model's Write call carries it.
func written(name, desc, typ, body string) string {
	return fmt.Sprintf("---\nname: %s\ndescription: %s\nmetadata:\n  type: %s\n---\n\n%s", name, desc, typ, body)
}

func (g *gen) sessions() {
	l := g.l
	mem := func(name string) string { return filepath.Join(l.MemoryDir, name) }
	projDir := filepath.Dir(l.MemoryDir)
	terseBody := "Be terse.\n\n**Why:** the user reads answers on a phone.\n**How to apply:** no recap at the end.\n"
	terseEdited := strings.Replace(terseBody, "Be terse.", "Be terse. Never a recap, even after long tasks.", 1)
	deployBody := "Deploys happen on Fridays after the 14:00 freeze.\n"
	index := "- [Prefers terse](feedback_terse.md) — terse answers, no recap\n"
	indexAfter := index + "- [Deploy day](project_deploy.md) — Fridays after the 14:00 freeze\n"

	// Session 1: a Write and an index Edit that succeed, and a Write that
	// fails because the file was not read first.
	s1 := g.transcript(SessionTerse, l.Now.AddDate(0, 0, -5))
	s1.prompt(PromptTerse)
	s1.say("Saving that as a feedback memory.")
	_, _, terseAt := s1.call("Write", map[string]any{"file_path": mem("feedback_terse.md"), "content": written("prefers-terse", "User prefers terse answers", "feedback", terseBody)},
		"File created successfully at: "+mem("feedback_terse.md"), false, nil)
	s1.call("Write", map[string]any{"file_path": mem("MEMORY.md"), "content": index}, "File created successfully at: "+mem("MEMORY.md"), false, nil)
	s1.prompt("And the dashboards live at grafana.internal/d/shop.")
	s1.call("Write", map[string]any{"file_path": mem("reference_dashboards.md"), "content": written("dashboards", "Where the dashboards are", "reference", "grafana.internal/d/shop\n")},
		FailError, true, nil)
	s1.say("I could not save that one.")
	s1.write(filepath.Join(projDir, SessionTerse+".jsonl"))
	_ = terseAt

	// Session 2: the main agent spawns a subagent that writes the deploy
	// memory, the index line and its own agent memory.
	s2 := g.transcript(SessionDeploy, l.Now.AddDate(0, 0, -3))
	s2.prompt(PromptDeploy)
	taskID, _, _ := func() (string, string, time.Time) {
		// The Task call's result comes after the subagent's work.
		id := "toolu_" + strings.ReplaceAll(g.id("01"), "-", "")[:24]
		s2.record("assistant", map[string]any{"requestId": g.id("req_"), "message": map[string]any{
			"id": g.id("msg_"), "type": "message", "role": "assistant", "model": "claude-opus-4-5",
			"content":     []any{map[string]any{"type": "tool_use", "id": id, "name": "Task", "input": map[string]any{"description": "Record deploy day", "prompt": TaskDeploy, "subagent_type": AgentType}}},
			"stop_reason": "tool_use", "usage": s2.usage()}})
		return id, "", time.Time{}
	}()
	sub := g.transcript(SessionDeploy, s2.t)
	sub.agent, sub.sidechain = AgentID, true
	sub.prompt(TaskDeploy)
	_, _, deployAt := sub.call("Write", map[string]any{"file_path": mem("project_deploy.md"), "content": written("deploy-day", "Deploys happen on Fridays after the freeze", "project", deployBody)},
		"File created successfully at: "+mem("project_deploy.md"), false, nil)
	_, _, indexAt := sub.call("Edit", map[string]any{"file_path": mem("MEMORY.md"), "old_string": index, "new_string": indexAfter},
		"The file "+mem("MEMORY.md")+" has been updated.", false, nil)
	agentIndex := "- [Deploy day](deploy.md) — Fridays after the 14:00 freeze\n"
	agentBody := "---\nname: deploy\ndescription: Deploy day\n---\n\nFridays after the 14:00 freeze.\n"
	sub.call("Write", map[string]any{"file_path": filepath.Join(l.AgentDir, "deploy.md"), "content": agentBody}, "File created successfully at: "+filepath.Join(l.AgentDir, "deploy.md"), false, nil)
	_, _, agentAt := sub.call("Write", map[string]any{"file_path": filepath.Join(l.AgentDir, "MEMORY.md"), "content": agentIndex}, "File created successfully at: "+filepath.Join(l.AgentDir, "MEMORY.md"), false, nil)
	sub.say("Recorded the deploy day.")
	sub.write(filepath.Join(projDir, SessionDeploy, "subagents", "agent-"+AgentID+".jsonl"))
	meta, _ := json.Marshal(map[string]any{"agentType": AgentType, "isBuiltIn": false, "description": "Record deploy day",
		"toolUseId": taskID, "spawnDepth": 1, "model": "claude-opus-4-5", "finished": true})
	g.file(filepath.Join(projDir, SessionDeploy, "subagents", "agent-"+AgentID+".meta.json"), string(meta), sub.t)
	s2.t = sub.t
	s2.record("user", map[string]any{"message": map[string]any{"role": "user", "content": []any{map[string]any{"tool_use_id": taskID, "type": "tool_result", "content": []any{map[string]any{"type": "text", "text": "Recorded the deploy day."}}}}},
		"toolUseResult": map[string]any{"status": "completed", "prompt": TaskDeploy, "agentId": AgentID, "totalDurationMs": 9100}})
	s2.say("The memory keeper recorded it.")
	s2.write(filepath.Join(projDir, SessionDeploy+".jsonl"))

	// Session 3: a prompt, an autocompaction mid-turn, then the Edit.
	s3 := g.transcript(SessionEdit, l.Now.AddDate(0, 0, -1))
	s3.prompt(PromptRecap)
	s3.say("Updating the terse memory.")
	old := s3.parent
	s3.parent = ""
	s3.record("system", map[string]any{"subtype": "compact_boundary", "content": "Conversation compacted", "isMeta": false, "level": "info",
		"logicalParentUuid": old, "compactMetadata": map[string]any{"trigger": "auto", "preTokens": 160500}})
	s3.record("user", map[string]any{"message": map[string]any{"role": "user", "content": "This session is being continued from a previous conversation that ran out of context. The user asked to remember: never a recap."},
		"isVisibleInTranscriptOnly": true, "isCompactSummary": true})
	_, _, editAt := s3.call("Edit", map[string]any{"file_path": mem("feedback_terse.md"), "old_string": "Be terse.", "new_string": "Be terse. Never a recap, even after long tasks."},
		"The file "+mem("feedback_terse.md")+" has been updated.", false, nil)
	s3.say("Done.")
	s3.write(filepath.Join(projDir, SessionEdit+".jsonl"))

	// The memory folder as those calls left it, and two files no
	// transcript wrote.
	g.file(mem("feedback_terse.md"), stamped("prefers-terse", "User prefers terse answers", "feedback", SessionTerse, editAt, terseEdited), editAt)
	g.file(mem("project_deploy.md"), stamped("deploy-day", "Deploys happen on Fridays after the freeze", "project", SessionDeploy, deployAt, deployBody), deployAt)
	handAt := l.Now.AddDate(0, 0, -4)
	g.file(mem("reference_dashboards.md"), "---\nname: dashboards\ndescription: Where the dashboards are\nmetadata:\n  type: reference\n---\n\ngrafana.internal/d/shop (written by hand after the Write failed)\n", handAt)
	sweptAt := l.Now.AddDate(0, 0, -40)
	g.file(mem("user_role.md"), stamped("user-role", "The user is the shop's backend lead", "user", SessionSwept, sweptAt, "Backend lead of the shop API.\n"), sweptAt)
	g.file(mem("MEMORY.md"), indexAfter+"- [Dashboards](reference_dashboards.md) — grafana\n- [Role](user_role.md) — backend lead\n", indexAt)
	g.file(filepath.Join(l.AgentDir, "deploy.md"), agentBody, agentAt)
	g.file(filepath.Join(l.AgentDir, "MEMORY.md"), agentIndex, agentAt)
}

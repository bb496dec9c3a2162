package provenance

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memscope/memscope/internal/provgen"
	"github.com/memscope/memscope/model"
)

var now = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

// fixture writes provgen's home and scans it.
func fixture(t *testing.T) (provgen.Layout, []Folder, Report) {
	t.Helper()
	l, err := provgen.Write(t.TempDir(), now)
	if err != nil {
		t.Fatal(err)
	}
	folders := ProjectFolders(l.Home, l.MemoryDir, l.Project)
	files, probs := model.FindTranscripts(model.DirFS(l.Home))
	if len(probs) > 0 {
		t.Fatalf("find transcripts: %v", probs)
	}
	r := Scan(Options{Home: model.DirFS(l.Home), Transcripts: files, Folders: folders})
	if len(r.Problems) > 0 {
		t.Fatalf("scan problems: %v", r.Problems)
	}
	return l, folders, r
}

func writesTo(r Report, rel string) []Write {
	var out []Write
	for _, w := range r.Writes {
		if w.Rel == rel {
			out = append(out, w)
		}
	}
	return out
}

func TestScanFindsEveryWriteWithSessionPromptAndResult(t *testing.T) {
	_, _, r := fixture(t)
	if got := len(r.Writes); got != 8 {
		for _, w := range r.Writes {
			t.Logf("%s %s %s %s", w.Tool, w.Rel, w.SessionID, w.Result)
		}
		t.Fatalf("found %d writes, want 8 (3 in session 1, 4 by the subagent, 1 after the compaction)", got)
	}
	terse := writesTo(r, "feedback_terse.md")
	if len(terse) != 2 {
		t.Fatalf("feedback_terse.md: %d writes, want the Write and the Edit", len(terse))
	}
	w := terse[0]
	if w.Tool != "Write" || w.SessionID != provgen.SessionTerse || w.By != nil || !w.OK() {
		t.Errorf("first write = %+v, want a successful Write by the main agent of session 1", w)
	}
	if w.Prompt == nil || w.Prompt.Text != provgen.PromptTerse {
		t.Errorf("first write's prompt = %+v, want %q", w.Prompt, provgen.PromptTerse)
	}
	if w.MessageUUID == "" || w.Line == 0 || w.Turn.UUID != w.MessageUUID {
		t.Errorf("first write has no message uuid/line/turn: %+v", w)
	}
	// The Edit came after a compaction: the chain goes through the
	// boundary's logical parent back to the prompt before it.
	e := terse[1]
	if e.Tool != "Edit" || e.SessionID != provgen.SessionEdit || e.Prompt == nil || e.Prompt.Text != provgen.PromptRecap {
		t.Errorf("edit after the compaction = %+v (prompt %+v), want session 3's Edit from %q", e, e.Prompt, provgen.PromptRecap)
	}
}

func TestScanFailedWrite(t *testing.T) {
	_, _, r := fixture(t)
	ws := writesTo(r, "reference_dashboards.md")
	if len(ws) != 1 {
		t.Fatalf("reference_dashboards.md: %d writes, want 1", len(ws))
	}
	if ws[0].Result != OutcomeError || ws[0].Error != provgen.FailError {
		t.Errorf("failed Write: result %q error %q, want error %q", ws[0].Result, ws[0].Error, provgen.FailError)
	}
}

func TestScanSubagentWrites(t *testing.T) {
	l, _, r := fixture(t)
	ws := writesTo(r, "project_deploy.md")
	if len(ws) != 1 {
		t.Fatalf("project_deploy.md: %d writes, want 1", len(ws))
	}
	w := ws[0]
	if w.By == nil || w.By.ID != provgen.AgentID || w.By.Type != provgen.AgentType || w.By.Description != "Record deploy day" {
		t.Fatalf("deploy write by %+v, want subagent %s (%s) labelled from its meta file", w.By, provgen.AgentID, provgen.AgentType)
	}
	if w.SessionID != provgen.SessionDeploy || w.By.Task != provgen.TaskDeploy {
		t.Errorf("deploy write session %s task %q", w.SessionID, w.By.Task)
	}
	// The user prompt is the main session's, found through the Task call
	// that spawned the subagent; Replay steps to that call.
	if w.Prompt == nil || w.Prompt.Text != provgen.PromptDeploy {
		t.Errorf("deploy write's prompt = %+v, want the main session's %q", w.Prompt, provgen.PromptDeploy)
	}
	if !strings.HasSuffix(w.Turn.Transcript, provgen.SessionDeploy+".jsonl") || w.Turn.UUID == "" || w.Turn.UUID == w.MessageUUID {
		t.Errorf("deploy write's turn = %+v, want the main transcript's Task call", w.Turn)
	}
	agent := writesTo(r, provgen.AgentType+"/deploy.md")
	if len(agent) != 1 || agent[0].Kind != KindAgentProject || agent[0].AgentType != provgen.AgentType {
		t.Errorf("agent memory writes = %+v, want one project-scope write of %s", agent, provgen.AgentType)
	}
	_ = l
}

func TestSubagentWithoutMetaFallsBackToTheTaskResult(t *testing.T) {
	l, err := provgen.Write(t.TempDir(), now)
	if err != nil {
		t.Fatal(err)
	}
	metas, _ := filepath.Glob(filepath.Join(l.Home, "projects", "*", "*", "subagents", "*.meta.json"))
	if len(metas) != 1 {
		t.Fatalf("meta files: %v", metas)
	}
	if err := os.Remove(metas[0]); err != nil {
		t.Fatal(err)
	}
	files, _ := model.FindTranscripts(model.DirFS(l.Home))
	r := Scan(Options{Home: model.DirFS(l.Home), Transcripts: files, Folders: ProjectFolders(l.Home, l.MemoryDir, l.Project), Workers: 1})
	ws := writesTo(r, "project_deploy.md")
	if len(ws) != 1 || ws[0].By == nil || ws[0].By.Type != "" {
		t.Fatalf("deploy write = %+v, want a subagent without a type", ws)
	}
	if ws[0].Prompt == nil || ws[0].Prompt.Text != provgen.PromptDeploy {
		t.Errorf("without the meta file the prompt = %+v, want %q (from toolUseResult.agentId)", ws[0].Prompt, provgen.PromptDeploy)
	}
}

func TestScanReadsOnlyCandidateTranscriptsTwice(t *testing.T) {
	l, err := provgen.Write(t.TempDir(), now)
	if err != nil {
		t.Fatal(err)
	}
	// A session that names the memory folder but writes no memory (it
	// reads one) is read once only.
	other := filepath.Join(filepath.Dir(l.MemoryDir), "5e000000-0000-4000-8000-000000000005.jsonl")
	line := `{"type":"assistant","uuid":"u1","sessionId":"5e","message":{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Read","input":{"file_path":"` + l.MemoryDir + `/MEMORY.md"}}]}}` + "\n"
	if err := os.WriteFile(other, []byte(line), 0o644); err != nil {
		t.Fatal(err)
	}
	files, _ := model.FindTranscripts(model.DirFS(l.Home))
	r := Scan(Options{Home: model.DirFS(l.Home), Transcripts: files, Folders: ProjectFolders(l.Home, l.MemoryDir, l.Project)})
	if r.Transcripts != 5 || r.Decoded != 4 {
		t.Errorf("read %d transcripts, decoded %d; want 5 read and 4 decoded (the Read-only session is not)", r.Transcripts, r.Decoded)
	}
}

func TestFolderRel(t *testing.T) {
	fs := ProjectFolders("/h/.claude", "/h/.claude/projects/-p/memory", "/p")
	cases := []struct {
		path string
		kind Kind
		rel  string
		ok   bool
	}{
		{"/h/.claude/projects/-p/memory/a.md", KindProject, "a.md", true},
		{"/h/.claude/projects/-p/memory/team/b.md", KindProject, "team/b.md", true},
		{"/h/.claude/projects/-p/memory/MEMORY.md", KindProject, "MEMORY.md", true},
		// Written when the home was elsewhere: matched by its suffix.
		{"/old/home/.claude/projects/-p/memory/a.md", KindProject, "a.md", true},
		{"/h/.claude/projects/-p/memory/.memscope/review.json", KindProject, "", false},
		{"/h/.claude/projects/-p/memory/.trash/x/a.md", KindProject, "", false},
		{"/h/.claude/projects/-p/memory/notes.txt", KindProject, "", false},
		{"/h/.claude/projects/-p/memory/logs/a.md", KindProject, "", false},
		{"/h/.claude/agent-memory/rev/MEMORY.md", KindAgentUser, "rev/MEMORY.md", true},
		{"/p/.claude/agent-memory/rev/x.md", KindAgentProject, "rev/x.md", true},
		{"/p/.claude/agent-memory-local/rev/x.md", KindAgentLocal, "rev/x.md", true},
		{"/p/.claude/agent-memory/x.md", KindAgentProject, "", false},
		{"/p/src/a.md", "", "", false},
		{"relative/a.md", "", "", false},
	}
	for _, c := range cases {
		var kind Kind
		rel, ok := "", false
		for _, f := range fs {
			if r, found := f.Rel(c.path); found {
				kind, rel, ok = f.Kind, r, true
				break
			}
		}
		if ok != c.ok || rel != c.rel || ok && kind != c.kind {
			t.Errorf("%s: got %q %v %q, want %q %v %q", c.path, kind, ok, rel, c.kind, c.ok, c.rel)
		}
	}
}

// Older clients kept a subagent's turns in the main transcript, marked
// isSidechain with an agentId: a write there is the subagent's.
func TestSidechainInTheMainTranscript(t *testing.T) {
	dir := t.TempDir()
	mem := dir + "/home/projects/-p/memory"
	lines := []string{
		`{"type":"user","uuid":"p1","sessionId":"s","message":{"role":"user","content":"remember the build flags"}}`,
		`{"type":"user","uuid":"t1","parentUuid":null,"isSidechain":true,"agentId":"ag1","sessionId":"s","message":{"role":"user","content":"Save the build flags to memory."}}`,
		`{"type":"assistant","uuid":"a1","parentUuid":"t1","isSidechain":true,"agentId":"ag1","sessionId":"s","message":{"role":"assistant","content":[{"type":"tool_use","id":"w1","name":"Write","input":{"file_path":"` + mem + `/build.md","content":"flags"}}]}}`,
		`{"type":"user","uuid":"r1","parentUuid":"a1","isSidechain":true,"agentId":"ag1","sessionId":"s","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"w1","content":"ok"}]}}`,
	}
	if err := os.MkdirAll(filepath.Dir(mem), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Dir(mem)+"/s.jsonl", []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	home := model.DirFS(dir + "/home")
	files, _ := model.FindTranscripts(home)
	r := Scan(Options{Home: home, Transcripts: files, Folders: ProjectFolders(dir+"/home", mem, "")})
	if len(r.Writes) != 1 {
		t.Fatalf("writes: %+v", r.Writes)
	}
	w := r.Writes[0]
	if w.By == nil || w.By.ID != "ag1" || w.By.Task != "Save the build flags to memory." || !w.OK() || w.Prompt != nil {
		t.Errorf("sidechain write = %+v by %+v", w, w.By)
	}
}

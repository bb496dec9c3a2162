package sessions

import (
	"testing"

	"github.com/memscope/memscope/engine/internal/enginetest"
	"github.com/memscope/memscope/model"
)

// Each subagent transcript is listed under its session with what its
// meta file says; a meta file that does not read is a problem of the
// session, and a subagent without one is listed all the same.
func TestSessionAgentsFromMetaFiles(t *testing.T) {
	dir := t.TempDir()
	line := `{"type":"user","uuid":"u","cwd":"/p","sessionId":"s1","message":{"content":"hi"}}` + "\n"
	files := map[string]string{
		"projects/-p/s1.jsonl":                       line,
		"projects/-p/s1/subagents/agent-a.jsonl":     line + line,
		"projects/-p/s1/subagents/agent-a.meta.json": `{"agentType":"reviewer","description":"Review the diff","spawnDepth":2,"model":"claude-sonnet-4-5","finished":false}`,
		"projects/-p/s1/subagents/agent-b.jsonl":     line,
		"projects/-p/s1/subagents/agent-b.meta.json": `{"agentType":`,
		"projects/-p/s1/subagents/agent-c.jsonl":     line,
	}
	enginetest.WriteTree(t, dir, files)
	h, err := model.OpenHome(dir, model.HomeFromFlag)
	if err != nil {
		t.Fatal(err)
	}
	rep := Summarize(Options{Home: h, Workers: 1})
	if len(rep.Sessions) != 1 || len(rep.Sessions[0].Agents) != 3 {
		t.Fatalf("sessions %+v", rep.Sessions)
	}
	r := rep.Sessions[0]
	a, b, c := r.Agents[0], r.Agents[1], r.Agents[2]
	if a.ID != "a" || a.Records != 2 || a.Meta == nil || a.Meta.AgentType != "reviewer" || a.Meta.SpawnDepth != 2 || a.Meta.Finished == nil || *a.Meta.Finished {
		t.Errorf("agent a %+v meta %+v", a, a.Meta)
	}
	if b.Meta != nil || c.Meta != nil || c.Records != 1 {
		t.Errorf("agents b %+v c %+v", b, c)
	}
	if r.Problems != 1 || len(rep.Problems) != 1 || rep.Problems[0].File != "projects/-p/s1/subagents/agent-b.meta.json" {
		t.Errorf("problems %d %+v", r.Problems, rep.Problems)
	}
}

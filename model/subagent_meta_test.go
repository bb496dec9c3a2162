package model

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"testing/fstest"
)

func TestParseSubagentMeta(t *testing.T) {
	m, err := ParseSubagentMeta([]byte(`{"agentType":"reviewer","isBuiltIn":false,"description":"Review the\nparser \u001b[31mnow","toolUseId":"toolu_01","spawnDepth":2,"requestShape":{"a":1},"model":"claude-opus","finished":true,"zz":null}`))
	if err != nil {
		t.Fatal(err)
	}
	f, tr := false, true
	want := SubagentMeta{AgentType: "reviewer", IsBuiltIn: &f, Description: "Review the\nparser \x1b[31mnow", ToolUseID: "toolu_01", SpawnDepth: 2,
		Model: "claude-opus", Finished: &tr, Other: []string{"requestShape", "zz"}}
	if !reflect.DeepEqual(m, want) {
		t.Errorf("got  %+v\nwant %+v", m, want)
	}
	if got := m.Label(); got != "reviewer “Review the parser now”" {
		t.Errorf("label %q: one line, no escape sequences", got)
	}
	// Wrong types drop the field, not the file; a time for finished reads
	// as finished.
	m, err = ParseSubagentMeta([]byte(`{"agentType":7,"spawnDepth":"x","finished":"2026-11-20T10:00:00Z","isBuiltIn":"yes"}`))
	if err != nil || m.AgentType != "" || m.SpawnDepth != 0 || m.Finished == nil || !*m.Finished || m.IsBuiltIn != nil {
		t.Errorf("lenient parse %+v %v", m, err)
	}
	if _, err := ParseSubagentMeta([]byte(`[1]`)); err == nil {
		t.Error("an array is not a meta file")
	}
}

// The meta file is read bounded, and never from a FIFO.
func TestReadSubagentMetaBounded(t *testing.T) {
	big := make([]byte, MaxSmallBytes+1)
	fsys := fstest.MapFS{"big.meta.json": {Data: big}, "ok.meta.json": {Data: []byte(`{"agentType":"Explore"}`)}}
	if m, err := ReadSubagentMeta(fsys, "ok.meta.json"); err != nil || m.AgentType != "Explore" {
		t.Errorf("ok: %+v %v", m, err)
	}
	if _, err := ReadSubagentMeta(fsys, "big.meta.json"); err == nil {
		t.Error("a meta file past MaxSmallBytes must be refused")
	}
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "agent-f.meta.json"), 0o600); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	if _, err := ReadSubagentMeta(os.DirFS(dir), "agent-f.meta.json"); !IsNotRegular(err) {
		t.Errorf("a FIFO: %v, want a not-regular error", err)
	}
}

// earlierMessages that are not a list of {kind, text} are a field problem
// of their line; the record still reads.
func TestEarlierMessagesDecode(t *testing.T) {
	good := `{"type":"user","uuid":"s","isCompactSummary":true,"rowSource":"harness","earlierMessages":[{"kind":"note","text":"ab"}],"message":{"role":"user","content":"sum"}}`
	bad := `{"type":"user","uuid":"t","isCompactSummary":true,"earlierMessages":{"kind":"note"},"message":{"role":"user","content":"sum"}}`
	tr, err := ReadTranscript(fstest.MapFS{"t.jsonl": {Data: []byte(good + "\n" + bad + "\n")}}, "t.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	s, b := tr.Get("s"), tr.Get("t")
	if s == nil || b == nil || len(s.EarlierMessages) != 1 || s.EarlierChars() != 2 || s.RowSource != RowHarness || b.EarlierMessages != nil {
		t.Fatalf("decoded %+v / %+v", s, b)
	}
	found := false
	for _, p := range tr.Summary.Problems {
		found = found || (p.Line == 2 && strings.Contains(p.Reason, "earlierMessages"))
	}
	if !found {
		t.Errorf("no problem for line 2: %v", tr.Summary.Problems)
	}
}

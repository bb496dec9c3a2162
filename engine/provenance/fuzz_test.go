package provenance

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/memscope/memscope/model"
)

// FuzzScan feeds arbitrary transcript bytes (main and subagent) through
// both passes: no panic, and every write found names a memory file of a
// folder scanned, with a result that is one of the three outcomes.
func FuzzScan(f *testing.F) {
	mem := "/h/projects/-p/memory/"
	f.Add(`{"type":"assistant","uuid":"a","message":{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"Write","input":{"file_path":"`+mem+`a.md","content":"---\nname: a\n---\nx"}}]}}`+"\n"+
		`{"type":"user","uuid":"b","parentUuid":"a","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"ok"}]}}`, `{"agentType":"x","toolUseId":"t"}`)
	f.Add(`{"type":"user","uuid":"p","message":{"role":"user","content":"hi"}}`+"\n"+`{"type":"assistant","uuid":"a","parentUuid":"p","message":{"content":[{"type":"tool_use","id":"t","name":"MultiEdit","input":{"file_path":"`+mem+`team/b.md","edits":[{"new_string":"y"}]}}]}}`, "{")
	f.Add(`{"type":"user","uuid":"r","toolUseResult":{"agentId":"x1"},"message":{"content":[{"type":"tool_result","tool_use_id":"t9"}]}}`, "")
	f.Fuzz(func(t *testing.T, main, meta string) {
		home := fstest.MapFS{
			"projects/-p/s1.jsonl":                        {Data: []byte(main)},
			"projects/-p/s1/subagents/agent-x1.jsonl":     {Data: []byte(main)},
			"projects/-p/s1/subagents/agent-x1.meta.json": {Data: []byte(meta)},
		}
		files, _ := model.FindTranscripts(home)
		folders := ProjectFolders("/h", "/h/projects/-p/memory", "/p")
		r := Scan(Options{Home: home, Transcripts: files, Folders: folders, Workers: 1})
		for _, w := range r.Writes {
			if rel, ok := folders[w.Folder].Rel(w.Path); !ok || rel != w.Rel || strings.HasPrefix(w.Rel, ".") {
				t.Errorf("write %+v is not a memory file of folder %d", w, w.Folder)
			}
			if w.Result != OutcomeOK && w.Result != OutcomeError && w.Result != OutcomeNoResult {
				t.Errorf("result %q", w.Result)
			}
		}
	})
}

package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// bigSession writes a session of n exchanges, each with a 40000-byte
// result (10000 tokens) of tool, so a 100k window must compact it.
func bigSession(t *testing.T, n int, tool string) string {
	t.Helper()
	var b strings.Builder
	parent := "null"
	for i := 0; i < n; i++ {
		u, a, r := fmt.Sprintf("u%d", i), fmt.Sprintf("a%d", i), fmt.Sprintf("r%d", i)
		common := `"sessionId":"big-session","cwd":"/w","version":"2.1.330","gitBranch":"main","timestamp":"2026-11-22T10:00:00.000Z"`
		fmt.Fprintf(&b, `{"parentUuid":%s,"isSidechain":false,"type":"user","message":{"role":"user","content":"request %d: fix the parser"},"uuid":%q,%s}`+"\n", parent, i, u, common)
		fmt.Fprintf(&b, `{"parentUuid":%q,"isSidechain":false,"type":"assistant","requestId":"req%d","message":{"id":"m%d","role":"assistant","content":[{"type":"text","text":"I will read it."},{"type":"tool_use","id":"toolu_%d","name":%q,"input":{}}],"usage":{"input_tokens":%d,"output_tokens":10}},"uuid":%q,%s}`+"\n", u, i, i, i, tool, 1000+i*10000, a, common)
		fmt.Fprintf(&b, `{"parentUuid":%q,"isSidechain":false,"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_%d","content":"%s"}]},"uuid":%q,%s}`+"\n", a, i, strings.Repeat("x", 40000), r, common)
		parent = fmt.Sprintf("%q", r)
	}
	fmt.Fprintf(&b, `{"type":"last-prompt","lastPrompt":"request %d","leafUuid":%s,"sessionId":"big-session"}`+"\n", n-1, parent)
	p := filepath.Join(t.TempDir(), "big-session.jsonl")
	if err := os.WriteFile(p, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

type compactJSON struct {
	Before, After int
	Fits          bool
	Records       int
	Out           string
	Stages        []struct {
		Stage                string
		Before, After, Freed int
		Acted                bool
	}
}

func TestCompactWritesANewTranscript(t *testing.T) {
	// NotebookRead is compactable but not a snip tool, so microcompact is
	// the stage that acts.
	in := bigSession(t, 12, "NotebookRead") // 12 results of 10000 tokens
	orig, _ := os.ReadFile(in)
	out := filepath.Join(t.TempDir(), "compacted.jsonl")
	e, stdout, errb := testEnv(t)
	code := run(e, []string{"compact", in, "--window", "100000", "--max-output", "8000", "--out", out, "--json"})
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	var r compactJSON
	if err := json.Unmarshal(stdout.Bytes(), &r); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, stdout)
	}
	// 100k window: effective 92000, autocompact at 79000; 120000+ tokens
	// of Read results. Microcompact clears all but the newest 3.
	if r.Before < 120000 || !r.Fits || r.After >= 79000 || len(r.Stages) == 0 {
		t.Fatalf("before %d after %d fits %v stages %+v", r.Before, r.After, r.Fits, r.Stages)
	}
	last := r.Stages[len(r.Stages)-1]
	if last.Stage != "microcompact" || !last.Acted || last.Before-last.After != last.Freed || r.Records != 1 {
		t.Errorf("stages %+v records %d", r.Stages, r.Records)
	}
	now, _ := os.ReadFile(in)
	if !bytes.Equal(now, orig) {
		t.Fatal("compact changed the input transcript")
	}
	written, err := os.ReadFile(out)
	if err != nil || !bytes.HasPrefix(written, orig) || !bytes.Contains(written[len(orig):], []byte(`"subtype":"microcompact_boundary"`)) {
		t.Fatalf("output %d bytes (err %v), not the input plus a microcompact boundary", len(written), err)
	}
	if st, _ := os.Stat(out); st.Mode().Perm() != 0o600 {
		t.Errorf("output mode %v, want 0600 like the client's transcripts", st.Mode().Perm())
	}
	// The written file replays, with the new boundary in its timeline.
	rj := runReplayJSON(t, out, "--json")
	if len(rj.Boundaries) != 1 || rj.Boundaries[0].Kind != "microcompact" {
		t.Errorf("replay of the output: %+v", rj.Boundaries)
	}
}

func TestCompactAutocompactResumesFromTheNewBoundary(t *testing.T) {
	// Task results are neither snipped nor cleared. A 50k window
	// (autocompact at 29000) with three 10000-token results in the eight
	// protected newest messages leaves collapse short: autocompact runs and
	// keeps the two newest messages.
	in := bigSession(t, 12, "Task")
	out := filepath.Join(t.TempDir(), "compacted.jsonl")
	e, stdout, errb := testEnv(t)
	code := run(e, []string{"compact", in, "--window", "50000", "--max-output", "8000", "--preserve", "2", "--out", out})
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	if !strings.Contains(stdout.String(), "autocompact") || !strings.Contains(stdout.String(), "wrote") {
		t.Errorf("text output:\n%s", stdout)
	}
	rj := runReplayJSON(t, out, "--json")
	n := len(rj.Boundaries)
	if n == 0 || rj.Boundaries[n-1].Kind != "compact" || rj.Boundaries[n-1].Trigger != "auto" {
		t.Fatalf("boundaries %+v", rj.Boundaries)
	}
	if rj.Resume.FromBoundary != rj.Boundaries[n-1].UUID || rj.Resume.Fallback || len(rj.Resume.Preserved) != 2 {
		t.Errorf("resume of the output %+v", rj.Resume)
	}
}

func TestCompactRefusesToOverwriteTheInput(t *testing.T) {
	in := bigSession(t, 2, "Read")
	orig, _ := os.ReadFile(in)
	e, _, errb := testEnv(t)
	if code := run(e, []string{"compact", in, "--out", in}); code != 1 || !strings.Contains(errb.String(), "never modifies") {
		t.Errorf("exit %d: %s", code, errb)
	}
	if now, _ := os.ReadFile(in); !bytes.Equal(now, orig) {
		t.Error("input changed")
	}
}

// `compact --json` shows each stage with tokens before, after and freed
// and what it did, under these names.
func TestCompactJSONFieldNames(t *testing.T) {
	in := bigSession(t, 12, "NotebookRead")
	e, out, errb := testEnv(t)
	if code := run(e, []string{"compact", in, "--window", "100000", "--max-output", "8000", "--json"}); code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(out.Bytes(), &top); err != nil {
		t.Fatal(err)
	}
	if m := missingKeys(top, "session", "window", "thresholds", "before", "after", "fits", "stages"); m != nil {
		t.Errorf("top level lacks %v", m)
	}
	var stages []map[string]json.RawMessage
	if err := json.Unmarshal(top["stages"], &stages); err != nil || len(stages) == 0 {
		t.Fatalf("stages %s", top["stages"])
	}
	for _, s := range stages {
		if m := missingKeys(s, "stage", "before", "after", "freed", "acted", "detail"); m != nil {
			t.Errorf("stage lacks %v", m)
		}
	}
}

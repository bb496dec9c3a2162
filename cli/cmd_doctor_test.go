package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memscope/memscope/engine/doctor"
)

// doctor on a home with an unknown record type written by a client
// version 9.9.9: both reported, the content never printed, exit 1; on
// the demo home nothing unknown, exit 0.
func TestDoctor(t *testing.T) {
	home := t.TempDir()
	dir := filepath.Join(home, "projects", "-w")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	line := `{"type":"wormhole","sessionId":"s1","version":"9.9.9","uuid":"x","note":"PRIVATE TEXT"}` + "\n"
	if err := os.WriteFile(filepath.Join(dir, "s1.jsonl"), []byte(line), 0o600); err != nil {
		t.Fatal(err)
	}
	e, out, _ := testEnv(t)
	if code := run(e, []string{"doctor", "--home", home, "--json"}); code != 1 {
		t.Fatalf("exit %d, want 1 (something unknown)", code)
	}
	var r doctor.Report
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	if !r.BeyondChecked || r.Newest != "9.9.9" || len(r.Unknown) != 2 || r.Unknown[0].Name != "wormhole" || r.Unknown[1].Name != "note" {
		t.Errorf("report %+v", r)
	}
	out.Reset()
	run(e, []string{"doctor", "--home", home})
	if s := out.String(); !strings.Contains(s, "9.9.9") || !strings.Contains(s, "beyond the checked range") || !strings.Contains(s, "wormhole") || strings.Contains(s, "PRIVATE") {
		t.Errorf("text report:\n%s", s)
	}
	out.Reset()
	if code := run(e, []string{"doctor", "--demo"}); code != 0 {
		t.Errorf("demo: exit %d:\n%s", code, out)
	}
}

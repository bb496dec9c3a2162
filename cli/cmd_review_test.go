package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/memscope/memscope/engine/review"
	"github.com/memscope/memscope/internal/faultfs"
	"github.com/memscope/memscope/internal/provgen"
)

func provHome(t *testing.T) provgen.Layout {
	t.Helper()
	l, err := provgen.Write(t.TempDir(), time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// An accept that cannot be written fails with exit 1 and leaves no
// review.json, and the inbox is as it was.
func TestReviewAcceptWriteFails(t *testing.T) {
	l := provHome(t)
	e, _, errb := testEnv(t)
	e.writes = &faultfs.FS{Step: faultfs.StepWrite, Nth: 1, Err: syscall.ENOSPC}
	// --no-cache: the first write is the accept's, not the provenance
	// cache's (whose failure costs only the next run's time).
	args := []string{"review", "--home", l.Home, "--project", l.Project, "--no-cache", "--accept", "feedback_terse.md"}
	if code := run(e, args); code != 1 || !strings.Contains(errb.String(), "no space left on device") {
		t.Fatalf("exit %d, stderr %q; want 1 and the injected ENOSPC", code, errb)
	}
	if _, err := os.Stat(filepath.Join(l.MemoryDir, review.Path)); !os.IsNotExist(err) {
		t.Errorf("review.json exists after a failed write: %v", err)
	}
	e, out, _ := testEnv(t)
	if code := run(e, []string{"review", "--home", l.Home, "--project", l.Project, "--json"}); code != 0 {
		t.Fatal(code)
	}
	var v struct{ Items []struct{ Path string } }
	if err := json.Unmarshal(out.Bytes(), &v); err != nil || len(v.Items) != 4 {
		t.Errorf("inbox after the failed accept: %v %+v", err, v)
	}
}

// origin --json names, for every model-written memory file, the session
// and the prompt of the call that created it.
func TestOriginNamesSessionAndPrompt(t *testing.T) {
	l := provHome(t)
	e, out, errb := testEnv(t)
	if code := run(e, []string{"origin", "--home", l.Home, "--project", l.Project, "--json"}); code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	var v struct {
		Files []struct {
			Path    string
			Created *struct {
				SessionID string
				Prompt    *struct{ Text string }
				Subagent  *struct{ Type string }
			}
			Text string
		}
	}
	if err := json.Unmarshal(out.Bytes(), &v); err != nil {
		t.Fatal(err)
	}
	want := map[string][2]string{
		"feedback_terse.md":              {provgen.SessionTerse, provgen.PromptTerse},
		"MEMORY.md":                      {provgen.SessionTerse, provgen.PromptTerse},
		"project_deploy.md":              {provgen.SessionDeploy, provgen.PromptDeploy},
		provgen.AgentType + "/deploy.md": {provgen.SessionDeploy, provgen.PromptDeploy},
		provgen.AgentType + "/MEMORY.md": {provgen.SessionDeploy, provgen.PromptDeploy},
		"reference_dashboards.md":        {"", ""},
		"user_role.md":                   {"", ""},
	}
	seen := 0
	for _, f := range v.Files {
		w, ok := want[f.Path]
		if !ok {
			t.Errorf("unexpected file %s", f.Path)
			continue
		}
		seen++
		switch {
		case w[0] == "" && f.Created != nil:
			t.Errorf("%s: created by %+v, want no recorded origin", f.Path, f.Created)
		case w[0] != "" && (f.Created == nil || f.Created.SessionID != w[0] || f.Created.Prompt == nil || f.Created.Prompt.Text != w[1]):
			t.Errorf("%s: created %+v, want session %s after %q", f.Path, f.Created, w[0], w[1])
		}
	}
	if seen != len(want) {
		t.Errorf("saw %d of %d files", seen, len(want))
	}
}

package inventory

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memscope/memscope/model"
)

// statHome writes files (name → content; content "->x" makes a symlink to
// x) under a fresh folder and takes its inventory.
func statHome(t *testing.T, files map[string]string) Report {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		var err error
		if target, ok := strings.CutPrefix(content, "->"); ok {
			err = os.Symlink(target, p)
		} else {
			err = os.WriteFile(p, []byte(content), 0o600)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	h, err := model.OpenHome(dir, model.HomeFromFlag)
	if err != nil {
		t.Fatal(err)
	}
	return Stat(Options{Home: h, Workers: 1})
}

func TestStatReportsEachProblemOnce(t *testing.T) {
	r := statHome(t, map[string]string{
		"history.jsonl":                          `{"display":"hi","pastedContents":{},"timestamp":1,"project":"/p"}` + "\n",
		"projects/-p/s1.jsonl":                   `{"type":"user","uuid":"u","message":{"content":"hi"}}` + "\n",
		"projects/-p/loop.jsonl":                 "->loop.jsonl",
		"projects/-p/s1/subagents/agent-x.jsonl": "->agent-x.jsonl",
	})
	count := map[string]int{}
	for _, p := range r.Malformed {
		count[p.File]++
	}
	for _, f := range []string{"projects/-p/loop.jsonl", "projects/-p/s1/subagents/agent-x.jsonl"} {
		if count[f] != 1 {
			t.Errorf("%s reported %d times, want once; all: %v", f, count[f], r.Malformed)
		}
	}
	if len(r.Malformed) != 2 || r.Transcripts != 1 || r.Records != 1 || r.HistoryEntries != 1 {
		t.Errorf("transcripts %d records %d history %d problems %v", r.Transcripts, r.Records, r.HistoryEntries, r.Malformed)
	}
}

func TestStatMissingHistoryIsNotAProblem(t *testing.T) {
	// A home where no prompt was ever typed interactively (only -p runs)
	// has no history.jsonl: nothing is malformed.
	r := statHome(t, map[string]string{
		"projects/-p/s1.jsonl": `{"type":"user","uuid":"u","message":{"content":"hi"}}` + "\n",
	})
	if len(r.Malformed) != 0 || r.HistoryEntries != 0 || r.Transcripts != 1 {
		t.Errorf("history %d transcripts %d problems %v", r.HistoryEntries, r.Transcripts, r.Malformed)
	}
	// An unreadable history.jsonl is still reported.
	r = statHome(t, map[string]string{"history.jsonl": "->history.jsonl"})
	if len(r.Malformed) != 1 || r.Malformed[0].File != model.HistoryPath || r.Malformed[0].Kind != model.ProblemUnreadable {
		t.Errorf("looping history.jsonl: %v", r.Malformed)
	}
	// So is one that opens but cannot be read (a folder by that name).
	r = statHome(t, map[string]string{"history.jsonl/x": "x"})
	if len(r.Malformed) != 1 || r.Malformed[0].File != model.HistoryPath || r.Malformed[0].Kind != model.ProblemUnreadable {
		t.Errorf("history.jsonl folder: %v", r.Malformed)
	}
}

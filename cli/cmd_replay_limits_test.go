package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memscope/memscope/internal/testenv"
	"github.com/memscope/memscope/model"
)

// growing67k is a session that grew by ~1.6k tokens a turn and compacted
// automatically when the client's estimate reached 67 000 (what 2.1.332
// did with CLAUDE_CODE_AUTO_COMPACT_WINDOW=100000), then again.
func growing67k(session, cwd string) string {
	var ctx []int
	for i := 0; i < 30; i++ {
		ctx = append(ctx, 20000+(i%15)*3300)
	}
	return testenv.Compacting(session, cwd, "claude-opus-5-5", ctx, map[int]int{14: 67542, 29: 66910})
}

// replayLimits runs replay --json on session in home and returns its
// thresholds and limits.
func replayLimits(t *testing.T, e *env, args ...string) (autocompact int, source string, inferred bool) {
	t.Helper()
	out := e.stdout.(interface{ Bytes() []byte })
	if code := run(e, append([]string{"replay"}, append(args, "--json")...)); code != 0 {
		t.Fatalf("replay exit %d: %s", code, e.stderr)
	}
	var r struct {
		Thresholds struct{ Autocompact int }
		Limits     *struct {
			Autocompact struct{ Tokens int }
			Inferred    *struct{ Source string }
		}
	}
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	if r.Limits == nil {
		t.Fatal("replay --json has no limits")
	}
	if r.Limits.Autocompact.Tokens != r.Thresholds.Autocompact {
		t.Errorf("limits say %d, thresholds %d", r.Limits.Autocompact.Tokens, r.Thresholds.Autocompact)
	}
	if r.Limits.Inferred != nil {
		source = r.Limits.Inferred.Source
	}
	return r.Thresholds.Autocompact, source, r.Limits.Inferred != nil
}

// With nothing else to go on, a session whose automatic compactions
// happened near 67k shows the level they imply, labelled inferred, not
// the 167k of the defaults (issue 29).
func TestReplayInfersTheLevelFromTheSessionsCompactions(t *testing.T) {
	e, _, _ := testEnv(t)
	dir := t.TempDir()
	p := filepath.Join(dir, "s.jsonl")
	if err := os.WriteFile(p, []byte(growing67k("s", "/nowhere")), 0o600); err != nil {
		t.Fatal(err)
	}
	at, src, inferred := replayLimits(t, e, p)
	if !inferred || at != 67000 || !strings.Contains(src, "inferred from 2 automatic compactions") {
		t.Errorf("autocompact %d inferred %v (%s), want 67000 inferred", at, inferred, src)
	}
}

// A home whose settings set autoCompactWindow: 100000 moves the levels:
// replay says 67k and where it came from, without inferring anything.
func TestReplayFollowsAutoCompactWindowSetting(t *testing.T) {
	e, out, _ := testEnv(t)
	home, project := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "settings.json"), []byte(`{"autoCompactWindow": 100000}`), 0o600); err != nil {
		t.Fatal(err)
	}
	cwd := filepath.ToSlash(project)
	slugDir := filepath.Join(home, "projects", model.Slug(cwd))
	if err := os.MkdirAll(slugDir, 0o700); err != nil {
		t.Fatal(err)
	}
	const id = "6f1c0000-0000-4000-8000-000000000001"
	if err := os.WriteFile(filepath.Join(slugDir, id+".jsonl"), []byte(growing67k(id, cwd)), 0o600); err != nil {
		t.Fatal(err)
	}
	at, _, inferred := replayLimits(t, e, id, "--home", home)
	if at != 67000 || inferred {
		t.Errorf("autocompact %d inferred %v, want 67000 from the setting", at, inferred)
	}
	if !strings.Contains(out.String(), `"source": "autoCompactWindow in `+filepath.ToSlash(filepath.Join(home, "settings.json"))) {
		t.Errorf("the source is not the settings file:\n%s", out)
	}
	out.Reset()
	if code := run(e, []string{"replay", id, "--home", home}); code != 0 {
		t.Fatal(code)
	}
	if !strings.Contains(out.String(), "autocompact at 67k · autoCompactWindow in ") {
		t.Errorf("text replay does not show the source:\n%s", out)
	}
}

// replay opens the older copy a local GC kept and says what it is.
func TestReplayOpensAReplacedCopy(t *testing.T) {
	e, out, errb := testEnv(t)
	dir := filepath.Join(t.TempDir(), "s", model.ReplacedDir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "1795860000000-0a1b2c3d"+model.ReplacedSuffix)
	if err := os.WriteFile(p, []byte(growing67k("s", "/nowhere")), 0o600); err != nil {
		t.Fatal(err)
	}
	if code := run(e, []string{"replay", p}); code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	if !strings.Contains(out.String(), "earlier history: the copy kept when a local cleanup rewrote the transcript") {
		t.Errorf("replay of a .replaced copy:\n%.600s", out)
	}
}

// A session with an older copy a local GC kept: replay SESSION names the
// copy, and sessions lists it under the session (not in its counts).
func TestReplayAndSessionsListTheReplacedCopy(t *testing.T) {
	home := t.TempDir()
	const id = "5e55a0a1-0000-4000-8000-000000000001"
	slugDir := filepath.Join(home, "projects", "-nowhere")
	copyDir := filepath.Join(slugDir, id, model.ReplacedDir)
	if err := os.MkdirAll(copyDir, 0o700); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(slugDir, id+".jsonl"), []byte(growing67k(id, "/nowhere")), 0o600)
	cp := filepath.Join(copyDir, "1795860000000-0a1b2c3d"+model.ReplacedSuffix)
	os.WriteFile(cp, []byte(growing67k(id, "/nowhere")), 0o600)

	e, out, errb := testEnv(t)
	if code := run(e, []string{"replay", id, "--home", home, "--json"}); code != 0 {
		t.Fatalf("replay: exit %d %s", code, errb)
	}
	var r replayOut
	if err := json.Unmarshal(out.Bytes(), &r); err != nil || len(r.EarlierCopies) != 1 || r.EarlierCopies[0] != cp {
		t.Errorf("replay --json earlierCopies %v (%v), want [%s]", r.EarlierCopies, err, cp)
	}
	e, out, _ = testEnv(t)
	run(e, []string{"sessions", "--home", home, "--json"})
	var rep struct {
		Sessions []struct {
			SessionID string `json:"sessionId"`
			Records   int    `json:"records"`
			Earlier   []struct {
				Path string `json:"path"`
			} `json:"earlierHistory"`
		} `json:"sessions"`
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil || len(rep.Sessions) != 1 || len(rep.Sessions[0].Earlier) != 1 {
		t.Fatalf("sessions --json: %v\n%.800s", err, out)
	}
	if want := strings.Count(growing67k(id, "/nowhere"), "\n"); rep.Sessions[0].Records != want {
		t.Errorf("the session counts %d records, want %d (the copy's are not counted)", rep.Sessions[0].Records, want)
	}
	e, out, _ = testEnv(t)
	run(e, []string{"sessions", "--home", home})
	if !strings.Contains(out.String(), "earlier history") {
		t.Errorf("sessions text does not list the copy:\n%s", out)
	}
}

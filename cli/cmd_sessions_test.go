package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memscope/memscope/engine/sessions"
	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/model"
)

func sessionsJSON(t *testing.T, args ...string) sessions.Report {
	t.Helper()
	e, out, errb := testEnv(t)
	if code := run(e, append([]string{"sessions", "--json"}, args...)); code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	var r sessions.Report
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatalf("sessions --json is not JSON: %v\n%s", err, out)
	}
	return r
}

// The counts are those of cmd_stat_test.go's hand count of testdata/home;
// the usage totals are what ccusage 18.0.11 prints for the same home
// (`CLAUDE_CONFIG_DIR=testdata/home ccusage session --json --offline`).
func TestSessionsTestdataHome(t *testing.T) {
	r := sessionsJSON(t, "--home", "../testdata/home")
	type row struct {
		id                  string
		records, compact    int
		subagents, problems int
	}
	want := map[string]row{
		"00000000-0000-4000-8000-00000000e000": {"empty", 0, 0, 0, 0},
		// 9 good lines of the bad transcript + 2 of its subagent; two bad
		// lines, one invalid UTF-8 (kept) and a partial tail.
		"9d2c6a10-0000-4000-8000-000000000001": {"bad", 11, 1, 1, 4},
		"5e0e8a7b-1111-4222-8333-444455556666": {"seed", 1, 0, 0, 0},
		"fedcb1e2-dbe4-5555-90b5-52df88de5bed": {"partial compactions", 101, 2, 0, 0},
		"668e1d4c-98ed-55ff-b990-a2cdf6449cee": {"interactive pastes", 41, 0, 0, 0},
	}
	if len(r.Sessions) != len(want) {
		t.Fatalf("%d rows, want %d", len(r.Sessions), len(want))
	}
	for _, s := range r.Sessions {
		w, ok := want[s.SessionID]
		if !ok {
			t.Errorf("unexpected session %s", s.SessionID)
			continue
		}
		got := row{w.id, s.Records, s.CompactBoundaries, s.Subagents, s.Problems}
		if got != w {
			t.Errorf("%s: got %+v, want %+v", s.SessionID, got, w)
		}
	}
	ccusage := model.Usage{InputTokens: 142044, OutputTokens: 84, CacheCreationInputTokens: 100, CacheReadInputTokens: 1000}
	if r.Totals.Usage != ccusage || r.Totals.Records != 154 || r.Totals.Problems != 4 || r.Totals.Transcripts != 6 {
		t.Errorf("totals %+v", r.Totals)
	}
}

func TestSessionsText(t *testing.T) {
	e, out, errb := testEnv(t)
	if code := run(e, []string{"sessions", "--home", "../testdata/home"}); code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	text := out.String()
	for _, want := range []string{
		"SESSION   PROJECT",
		"9d2c6a10  /home/me/bad                         +1       11       1",
		fmt.Sprintf("fedcb1e2  %-36s  -      101       2   77.6k      44", testroot.BetaProject),
		"2026-11-22 11:37",
		"5 sessions (6 transcripts, 1 of them subagents)",
		"usage: input 142044, output 84, cache write 100, cache read 1000",
		"problems: 4",
		"[incomplete-tail]",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q:\n%s", want, text)
		}
	}
	for i, line := range strings.Split(text, "\n") {
		if strings.HasSuffix(line, " ") {
			t.Errorf("line %d ends in spaces: %q", i+1, line)
		}
	}
}

func TestSessionsSanitizesAndCutsProjects(t *testing.T) {
	home := t.TempDir()
	long := "/home/me/" + strings.Repeat("deep/", 10) + "app\x1b[31m"
	line := `{"type":"user","sessionId":"s","cwd":` + jsonString(t, long) + `,"timestamp":"2026-11-11T05:00:00Z"}` + "\n"
	p := filepath.Join(home, "projects", model.Slug(long), "abc\x1b]0;x\x07def.jsonl")
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(line), 0o600); err != nil {
		t.Fatal(err)
	}
	e, out, errb := testEnv(t)
	if code := run(e, []string{"sessions", "--home", home}); code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	if strings.ContainsAny(out.String(), "\x1b\x07") {
		t.Errorf("terminal escapes reached the output: %q", out)
	}
	if !strings.Contains(out.String(), "…") || !strings.Contains(out.String(), "2026-11-11 05:00") {
		t.Errorf("long project not cut or row missing:\n%s", out)
	}
}

func jsonString(t *testing.T, s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestSessionsProjectFlag(t *testing.T) {
	slug := model.Slug(testroot.BetaProject)
	for _, p := range []string{testroot.BetaProject, slug} {
		r := sessionsJSON(t, "--home", "../testdata/home", "--project", p)
		if len(r.Sessions) != 2 || r.Sessions[0].ProjectSlug != slug || r.Totals.Records != 142 {
			t.Errorf("--project %s: %+v", p, r.Sessions)
		}
	}
	e, _, errb := testEnv(t)
	if code := run(e, []string{"sessions", "--home", "../testdata/home", "--project", "/no/such/project"}); code != 1 ||
		!strings.Contains(errb.String(), "no project folder for /no/such/project") {
		t.Errorf("unknown project: exit %d, %q", code, errb)
	}
}

func TestSessionsBadUsage(t *testing.T) {
	for _, args := range [][]string{{"--nope"}, {"extra"}, {"--json", "--home"}} {
		e, _, errb := testEnv(t)
		if code := run(e, append([]string{"sessions"}, args...)); code != 2 || errb.Len() == 0 {
			t.Errorf("%v: exit %d, stderr %q", args, code, errb)
		}
	}
	e, _, errb := testEnv(t)
	if code := run(e, []string{"sessions", "--home", "/no/such/home"}); code != 2 || !strings.Contains(errb.String(), "no Claude home") {
		t.Errorf("missing home: exit %d, %q", code, errb)
	}
}

func TestSessionsDemo(t *testing.T) {
	r := sessionsJSON(t, "--demo")
	if !r.Demo || len(r.Sessions) == 0 || r.Totals.Records == 0 {
		t.Errorf("demo report %+v", r.Totals)
	}
}

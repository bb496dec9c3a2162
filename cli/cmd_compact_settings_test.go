package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// settingsJSON is the part of `compact --json` about the setting.
type settingsJSON struct {
	AutoCompactEnabled bool
	AutoCompactSetBy   string
	Manual             bool
	Fits               bool
	Records            int
	Stages             []struct {
		Stage  string
		Acted  bool
		Detail string
	}
}

// writeFile writes data to path, making its folder.
func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
}

// sessionIn writes a session that needs autocompact (see
// TestCompactAutocompactResumesFromTheNewBoundary) started in project.
func sessionIn(t *testing.T, project string) string {
	t.Helper()
	src := bigSession(t, 12, "Task")
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "s.jsonl")
	writeFile(t, p, strings.ReplaceAll(string(data), `"cwd":"/w"`, `"cwd":`+strings.TrimSpace(mustJSON(t, project))))
	return p
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// runCompactSettings runs `compact --json` with a 50k window; getenv,
// when set, replaces the test environment's.
func runCompactSettings(t *testing.T, getenv func(string) string, args ...string) settingsJSON {
	t.Helper()
	e, out, errb := testEnv(t)
	if getenv != nil {
		e.getenv = getenv
	}
	if code := run(e, append([]string{"compact", "--window", "50000", "--max-output", "8000", "--json"}, args...)); code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	var r settingsJSON
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out.Bytes())
	}
	return r
}

// autoCompactEnabled is read from the settings files that apply to the
// session, the highest-precedence file that sets it winning; false turns
// stage 5 into a report that changes nothing.
func TestCompactHonoursAutoCompactEnabled(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		files  map[string]string // relative to "home/" or "project/"
		envDir bool              // the home comes from CLAUDE_CONFIG_DIR, not --home
		on     bool
		setBy  string
	}{
		{"no settings", nil, false, true, ""},
		{"user says false", map[string]string{"home/settings.json": `{"autoCompactEnabled": false}`}, false, false, "home/settings.json"},
		{"user says false, home from CLAUDE_CONFIG_DIR", map[string]string{"home/settings.json": `{"autoCompactEnabled": false}`}, true, false, "home/settings.json"},
		{"user says true", map[string]string{"home/settings.json": `{"autoCompactEnabled": true}`}, false, true, "home/settings.json"},
		{"project says false", map[string]string{"project/.claude/settings.json": `{"autoCompactEnabled": false}`}, false, false, "project/.claude/settings.json"},
		{"local true over user false", map[string]string{"home/settings.json": `{"autoCompactEnabled": false}`,
			"project/.claude/settings.local.json": `{"autoCompactEnabled": true}`}, false, true, "project/.claude/settings.local.json"},
		{"wrong type is ignored", map[string]string{"home/settings.json": `{"autoCompactEnabled": "no"}`}, false, true, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			home, project := filepath.Join(dir, "home"), filepath.Join(dir, "project")
			for name, data := range c.files {
				writeFile(t, filepath.Join(dir, name), data)
			}
			args := []string{sessionIn(t, project)}
			var getenv func(string) string
			if c.envDir {
				getenv = func(k string) string {
					if k == "CLAUDE_CONFIG_DIR" {
						return home
					}
					return ""
				}
			} else {
				args = append(args, "--home", home)
			}
			r := runCompactSettings(t, getenv, args...)
			want := ""
			if c.setBy != "" {
				want = filepath.Join(dir, c.setBy)
			}
			if r.AutoCompactEnabled != c.on || r.AutoCompactSetBy != want || r.Manual {
				t.Errorf("enabled %v set by %q manual %v, want %v %q", r.AutoCompactEnabled, r.AutoCompactSetBy, r.Manual, c.on, want)
			}
			last := r.Stages[len(r.Stages)-1]
			if last.Stage != "autocompact" {
				t.Fatalf("last stage %s", last.Stage)
			}
			if c.on && (!last.Acted || !r.Fits || r.Records == 0) {
				t.Errorf("setting on: %+v fits %v records %d", last, r.Fits, r.Records)
			}
			if !c.on && (last.Acted || last.Detail != "autocompact is off (autoCompactEnabled: false)" || r.Fits || r.Records != 0) {
				t.Errorf("setting off: %+v fits %v records %d", last, r.Fits, r.Records)
			}
		})
	}
}

// --manual compacts as /compact does, autocompact off or not, and writes
// trigger "manual"; the text output says why autocompact did not run.
func TestCompactManualWithAutocompactOff(t *testing.T) {
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	writeFile(t, filepath.Join(home, "settings.json"), `{"autoCompactEnabled": false}`)
	session := sessionIn(t, filepath.Join(dir, "project"))
	out := filepath.Join(dir, "compacted.jsonl")

	r := runCompactSettings(t, nil, session, "--home", home, "--manual", "--preserve", "2", "--out", out)
	if !r.Manual || r.AutoCompactEnabled || len(r.Stages) != 1 || r.Stages[0].Stage != "manual-compact" || !r.Stages[0].Acted || !r.Fits || r.Records == 0 {
		t.Fatalf("manual: %+v", r)
	}
	rj := runReplayJSON(t, out, "--json")
	n := len(rj.Boundaries)
	if n == 0 || rj.Boundaries[n-1].Kind != "compact" || rj.Boundaries[n-1].Trigger != "manual" || rj.Resume.FromBoundary != rj.Boundaries[n-1].UUID {
		t.Errorf("boundaries %+v resume %+v", rj.Boundaries, rj.Resume)
	}

	// --manual on a session under the threshold still compacts.
	small := bigSession(t, 2, "Task")
	if r := runCompactSettings(t, nil, small, "--manual"); len(r.Stages) != 1 || !r.Stages[0].Acted {
		t.Errorf("manual under the threshold: %+v", r)
	}

	// Text: the setting, its file, and the stage's report.
	e, stdout, errb := testEnv(t)
	if code := run(e, []string{"compact", session, "--home", home, "--window", "50000", "--max-output", "8000"}); code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	for _, want := range []string{"autoCompactEnabled: false in " + filepath.Join(home, "settings.json"), "--manual compacts as /compact does",
		"autocompact is off (autoCompactEnabled: false)", "still over the threshold"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("text output lacks %q:\n%s", want, stdout)
		}
	}
}

// A session named by id is looked up in the home, whose settings apply.
func TestCompactSessionByIDUsesItsHomesSettings(t *testing.T) {
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	writeFile(t, filepath.Join(home, "settings.json"), `{"autoCompactEnabled": false}`)
	data, err := os.ReadFile(sessionIn(t, filepath.Join(dir, "project")))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(home, "projects", "-project", "big-session.jsonl"), string(data))
	r := runCompactSettings(t, nil, "big-session", "--home", home)
	if r.AutoCompactEnabled || r.AutoCompactSetBy != filepath.Join(home, "settings.json") {
		t.Errorf("enabled %v set by %q", r.AutoCompactEnabled, r.AutoCompactSetBy)
	}
	if last := r.Stages[len(r.Stages)-1]; last.Acted || last.Detail != "autocompact is off (autoCompactEnabled: false)" {
		t.Errorf("stage 5 %+v", last)
	}
}

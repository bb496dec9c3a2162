package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const projectSettings = "{\n  \"hooks\": {\n    \"PostToolUse\": [\n      {\n        \"matcher\": \"Bash\",\n        \"hooks\": [\n          {\n            \"type\": \"command\",\n            \"command\": \"echo done\"\n          }\n        ]\n      }\n    ]\n  }\n}\n"

// install, uninstall: the file is as it was, byte for byte; install and
// undo: the same; a malformed file is refused, named with its line, and
// left as it is.
func TestHooksInstallUninstallUndo(t *testing.T) {
	e, _, project, _ := hookEnv(t)
	e.getwd = func() (string, error) { return project, nil }
	path := filepath.Join(project, ".claude", "settings.json")
	os.MkdirAll(filepath.Dir(path), 0o755)
	os.WriteFile(path, []byte(projectSettings), 0o644)
	hooks := func(args ...string) int {
		var out, errb strings.Builder
		e.stdout, e.stderr = &out, &errb
		code := run(e, append([]string{"hooks"}, args...))
		if code != 0 {
			t.Logf("hooks %v: exit %d: %s%s", args, code, out.String(), errb.String())
		}
		return code
	}
	read := func() string { b, _ := os.ReadFile(path); return string(b) }
	if hooks("install", "--scope", "project") != 0 || !strings.Contains(read(), "hook pre-tool-use") || !strings.Contains(read(), "echo done") {
		t.Fatalf("install:\n%s", read())
	}
	// The vault's hooks come with the gate: SessionEnd and PreCompact.
	for _, want := range []string{`"SessionEnd"`, `"PreCompact"`, " vault sync --hook"} {
		if !strings.Contains(read(), want) {
			t.Errorf("install has no %s:\n%s", want, read())
		}
	}
	var st strings.Builder
	e.stdout = &st
	if code := run(e, []string{"hooks", "status"}); code != 0 || !strings.Contains(st.String(), "vault syncs on SessionEnd and PreCompact") {
		t.Errorf("status: exit %d\n%s", code, st.String())
	}
	if hooks("install", "--scope", "project") != 0 || strings.Count(read(), "hook pre-tool-use") != 1 {
		t.Errorf("second install:\n%s", read())
	}
	if hooks("uninstall", "--scope", "project") != 0 || read() != projectSettings {
		t.Errorf("uninstall is not byte-identical:\n%s", read())
	}
	hooks("install", "--scope", "project")
	var out strings.Builder
	e.stdout = &out
	if code := run(e, []string{"undo", "--project", project}); code != 0 || read() != projectSettings {
		t.Errorf("undo: exit %d, %s\n%s", code, out.String(), read())
	}
	bad := "{\n  \"hooks\": [,\n}\n"
	os.WriteFile(path, []byte(bad), 0o644)
	var errb strings.Builder
	e.stderr = &errb
	if code := run(e, []string{"hooks", "install", "--scope", "project"}); code == 0 || !strings.Contains(errb.String(), path+":2") || read() != bad {
		t.Errorf("malformed: exit %d, %q", code, errb.String())
	}
}

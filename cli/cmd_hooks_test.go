package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memscope/memscope/engine/gate"
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

// With memscope-hook beside the memscope running, install makes every
// hook run it (the status line stays memscope's), and status and --json
// say so; without it the hooks run memscope, and status says install
// would use the hook binary once it is there. Uninstall takes out
// either form.
func TestHooksInstallUsesTheHookBinaryBeside(t *testing.T) {
	e, _, project, _ := hookEnv(t)
	e.getwd = func() (string, error) { return project, nil }
	bin := t.TempDir()
	self, hookBin := filepath.Join(bin, "memscope"), filepath.Join(bin, "memscope-hook")
	os.WriteFile(self, []byte("#!/bin/sh\n"), 0o755)
	e.executable = func() (string, error) { return self, nil }
	path := filepath.Join(project, ".claude", "settings.json")
	os.MkdirAll(filepath.Dir(path), 0o755)
	os.WriteFile(path, []byte(projectSettings), 0o644)
	read := func() string { b, _ := os.ReadFile(path); return string(b) }
	hooks := func(args ...string) string {
		var out, errb strings.Builder
		e.stdout, e.stderr = &out, &errb
		if code := run(e, append([]string{"hooks"}, args...)); code != 0 {
			t.Fatalf("hooks %v: exit %d: %s%s", args, code, out.String(), errb.String())
		}
		return out.String()
	}
	type status struct {
		HookBinary string `json:"hookBinary"`
		Scopes     []struct {
			Scope     string
			Current   bool
			Installed gate.Installed
		}
	}
	statusOf := func() status {
		var st status
		if err := json.Unmarshal([]byte(hooks("status", "--json")), &st); err != nil {
			t.Fatal(err)
		}
		return st
	}

	// No hook binary: the hooks run memscope.
	if out := hooks("install", "--scope", "project", "--statusline"); !strings.Contains(out, "hooks run "+self+" itself") {
		t.Errorf("install without a hook binary says:\n%s", out)
	}
	if strings.Contains(read(), "memscope-hook") || strings.Count(read(), self+" hook pre-tool-use") != 1 {
		t.Errorf("install without a hook binary:\n%s", read())
	}
	if st := statusOf(); st.HookBinary != "" || !st.Scopes[1].Current || st.Scopes[1].Installed.Hooks[0].HookBinary {
		t.Errorf("status without a hook binary: %+v", st)
	}

	// A hook binary appears beside memscope: status says install would
	// use it; install does, in place.
	os.WriteFile(hookBin, []byte("#!/bin/sh\n"), 0o755)
	if out := hooks("status"); !strings.Contains(out, "hooks install would run the hook binary beside it") || !strings.Contains(out, "hooks run "+hookBin) {
		t.Errorf("status with a hook binary not yet used:\n%s", out)
	}
	hooks("install", "--scope", "project", "--statusline")
	for _, h := range gate.Hooks {
		if !strings.Contains(read(), `"`+hookBin+" "+h.Sub+`"`) {
			t.Errorf("%s does not run the hook binary:\n%s", h.Event, read())
		}
	}
	if strings.Count(read(), "hook pre-tool-use") != 1 || !strings.Contains(read(), `"`+self+` statusline"`) {
		t.Errorf("install with the hook binary:\n%s", read())
	}
	st := statusOf()
	if st.HookBinary != hookBin || !st.Scopes[1].Current || st.Scopes[1].Installed.Binary != hookBin {
		t.Errorf("status --json with the hook binary: %+v", st)
	}
	for _, h := range st.Scopes[1].Installed.Hooks {
		if !h.HookBinary {
			t.Errorf("status: %s is not the hook binary's: %+v", h.Event, h)
		}
	}
	if out := hooks("status"); !strings.Contains(out, "(the hook binary beside this memscope)") {
		t.Errorf("status with the hook binary:\n%s", out)
	}

	// A hook binary that cannot run is not used.
	os.Chmod(hookBin, 0o644)
	if st := statusOf(); st.HookBinary != "" {
		t.Errorf("a hook binary that is not executable is used: %+v", st)
	}
	os.Chmod(hookBin, 0o755)

	hooks("uninstall", "--scope", "project")
	if read() != projectSettings {
		t.Errorf("uninstall of the hook binary's hooks is not byte-identical:\n%s", read())
	}
}

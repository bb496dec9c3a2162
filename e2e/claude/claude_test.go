package claude

import (
	"context"
	"crypto/rand"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/memscope/memscope/engine/gate"
	"github.com/memscope/memscope/model"
)

// EnvClient names the Claude Code binary the test runs (.ci/run sets it
// from scripts/claude-install.sh); without it the test skips, saying so.
const EnvClient = "MEMSCOPE_CLAUDE"

// runTimeout bounds each run of the client.
const runTimeout = 120 * time.Second

func client(t *testing.T) string {
	t.Helper()
	bin := os.Getenv(EnvClient)
	if bin == "" {
		t.Skipf("the real Claude Code client is not installed: set %s to its binary (scripts/claude-install.sh installs the pinned version; .ci/run does both)", EnvClient)
	}
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("%s=%s: %v", EnvClient, bin, err)
	}
	return bin
}

var (
	buildOnce sync.Once
	built     string
	buildErr  error
)

// memscopeBinary builds memscope once for the whole test, and the hook
// binary beside it as a release installs them (hooks install then makes
// the hooks run the hook binary).
func memscopeBinary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "memscope-e2e-bin-")
		if err != nil {
			buildErr = err
			return
		}
		built = filepath.Join(dir, "memscope")
		for pkg, out := range map[string]string{"github.com/memscope/memscope": built,
			"github.com/memscope/memscope/cmd/" + gate.HookBinaryName: filepath.Join(dir, gate.HookBinaryName)} {
			if msg, err := exec.Command("go", "build", "-o", out, pkg).CombinedOutput(); err != nil {
				buildErr = fmt.Errorf("go build %s: %v\n%s", pkg, err, msg)
				return
			}
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return built
}

// world is one run's temporary home, project and state folders.
type world struct {
	root, home, config, project, state, memory string
	env                                        []string
}

func newWorld(t *testing.T) *world {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	w := &world{root: root, home: filepath.Join(root, "home"), project: filepath.Join(root, "project"), state: filepath.Join(root, "state")}
	w.config = filepath.Join(w.home, ".claude")
	w.memory = filepath.Join(w.config, "projects", model.Slug(w.project), "memory")
	for _, d := range []string{w.config, w.project, w.memory, w.state} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	w.env = []string{"HOME=" + w.home, "CLAUDE_CONFIG_DIR=" + w.config, "XDG_STATE_HOME=" + w.state,
		"XDG_CONFIG_HOME=" + filepath.Join(root, "xdg-config"), "PATH=" + os.Getenv("PATH"), "ANTHROPIC_API_KEY=sk-ant-test-e2e",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_TELEMETRY=1", "DISABLE_AUTOUPDATER=1", "DISABLE_ERROR_REPORTING=1",
		"TMPDIR=" + root}
	return w
}

// install puts the gate of the memscope at bin in the project's settings.
func (w *world) install(t *testing.T, bin string) {
	t.Helper()
	cmd := exec.Command(bin, "hooks", "install", "--scope", "project", "--project", w.project)
	cmd.Env, cmd.Dir = w.env, w.project
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("hooks install: %v\n%s", err, out)
	}
}

// run makes the client call tool once with input (the fake API's first
// answer), then end the turn; it returns the requests the API received.
func (w *world) run(t *testing.T, claude, tool string, input map[string]any) []Request {
	t.Helper()
	api, err := StartFakeAPI(func(r Request) Reply {
		if !r.HasTool(tool) {
			return Reply{Blocks: []Block{{Text: "ok"}}, StopReason: "end_turn"}
		}
		if len(r.ToolResults()) > 0 {
			return Reply{Blocks: []Block{{Text: "done"}}, StopReason: "end_turn"}
		}
		return Reply{Blocks: []Block{{Text: "Writing it."}, {Tool: tool, ID: "toolu_e2e_01", Input: input}}, StopReason: "tool_use"}
	})
	if err != nil {
		t.Fatal(err)
	}
	defer api.Close()
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, claude, "-p", "--session-id", uuid(), "--permission-mode", "acceptEdits",
		"--allowedTools", "Write,Edit,MultiEdit,Read", "--", "please save this")
	cmd.Env, cmd.Dir = append(w.env, "ANTHROPIC_BASE_URL="+api.URL), w.project
	out, err := cmd.CombinedOutput()
	t.Logf("claude -p: %v\n%s", err, out)
	if ctx.Err() != nil {
		t.Fatalf("claude -p did not finish within %s", runTimeout)
	}
	return api.Requests()
}

// toolResult is the tool_result the client sent after the tool ran.
func toolResult(t *testing.T, reqs []Request, tool string) string {
	t.Helper()
	for _, r := range reqs {
		if r.HasTool(tool) {
			if res := r.ToolResults(); len(res) > 0 {
				return res[0]
			}
		}
	}
	t.Fatalf("no request carried a tool_result (%d requests)", len(reqs))
	return ""
}

func uuid() string {
	var b [16]byte
	rand.Read(b[:])
	b[6], b[8] = b[6]&0x0f|0x40, b[8]&0x3f|0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}

func gateLog(t *testing.T, w *world) []gate.Record {
	t.Helper()
	recs, _, err := gate.ReadLog(filepath.Join(w.state, "memscope", gate.LogName))
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

func index(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "- [Entry %d](e%d.md) — entry number %d\n", i, i, i)
	}
	return b.String()
}

const (
	cleanBody   = "The nightly CI job runs at 02:00 UTC on weekdays; failures page the on-call.\n"
	cleanMemory = "---\nname: ci_nightly\ndescription: the nightly CI job runs at 02:00 UTC\ntype: project\n---\n" + cleanBody
)

// TestRealClient runs Claude Code with memscope's gate installed by
// `memscope hooks install --scope project` and checks, on disk and in
// the next request the API receives, that the client calls the gate and
// obeys it.
func TestRealClient(t *testing.T) {
	claude := client(t)
	bin := memscopeBinary(t)

	t.Run("index entry past the cut is denied", func(t *testing.T) {
		w := newWorld(t)
		w.install(t, bin)
		old := index(200)
		idx := filepath.Join(w.memory, "MEMORY.md")
		os.WriteFile(idx, []byte(old), 0o644)
		reqs := w.run(t, claude, "Write", map[string]any{"file_path": idx, "content": old + "- [Newest](newest.md) — the correction\n"})
		if got, _ := os.ReadFile(idx); string(got) != old {
			t.Errorf("MEMORY.md changed:\n%s", got)
		}
		res := toolResult(t, reqs, "Write")
		if !strings.Contains(res, "memscope gate") || !strings.Contains(res, "201/200 lines") || !strings.Contains(res, `"Newest" on line 201`) {
			t.Errorf("tool_result does not carry the gate's reason: %q", res)
		}
	})

	t.Run("AWS key in a memory is denied", func(t *testing.T) {
		w := newWorld(t)
		w.install(t, bin)
		p := filepath.Join(w.memory, "project_deploy.md")
		reqs := w.run(t, claude, "Write", map[string]any{"file_path": p, "content": "---\nname: deploy\ndescription: deploy key\ntype: project\n---\nDeploy with AKIAQWERTYUIOPASDFGH.\n"})
		if _, err := os.Stat(p); err == nil {
			t.Error("the memory with the key was written")
		}
		if res := toolResult(t, reqs, "Write"); !strings.Contains(res, "credential") || strings.Contains(res, "AKIAQWERTYUIOPASDFGH") {
			t.Errorf("tool_result %q", res)
		}
		if recs := gateLog(t, w); len(recs) == 0 || recs[len(recs)-1].Decision != gate.Deny {
			t.Errorf("gate log %+v", recs)
		}
	})

	t.Run("clean memory is written byte for byte", func(t *testing.T) {
		// MEMORY.md: the client writes it as given (topic files it stamps
		// with metadata, see below).
		w := newWorld(t)
		w.install(t, bin)
		idx := filepath.Join(w.memory, "MEMORY.md")
		os.WriteFile(idx, []byte(index(150)), 0o644)
		want := index(150) + "- [CI nightly](project_ci_nightly.md) — the nightly job runs at 02:00 UTC\n"
		w.run(t, claude, "Write", map[string]any{"file_path": idx, "content": want})
		if got, err := os.ReadFile(idx); err != nil || string(got) != want {
			t.Errorf("MEMORY.md on disk %q, %v; want %q", got, err, want)
		}
		recs := gateLog(t, w)
		if len(recs) == 0 || recs[len(recs)-1].Path != idx || recs[len(recs)-1].Decision != gate.Allow || recs[len(recs)-1].Kind != gate.KindIndex {
			t.Errorf("gate log %+v", recs)
		}
		// A topic file: allowed, and its text is what the model wrote (the
		// client moves type under metadata and stamps the session).
		p := filepath.Join(w.memory, "project_ci_nightly.md")
		w.run(t, claude, "Write", map[string]any{"file_path": p, "content": cleanMemory})
		if got, err := os.ReadFile(p); err != nil || !strings.Contains(string(got), cleanBody) {
			t.Errorf("topic file on disk %q, %v", got, err)
		}
		recs = gateLog(t, w)
		if len(recs) == 0 || recs[len(recs)-1].Path != p || recs[len(recs)-1].Decision != gate.Allow || recs[len(recs)-1].Kind != gate.KindTopic {
			t.Errorf("gate log %+v", recs)
		}
	})

	t.Run("source file passes in under 10 ms", func(t *testing.T) {
		w := newWorld(t)
		w.install(t, bin)
		// The hooks run the hook binary beside memscope.
		settings, _ := os.ReadFile(filepath.Join(w.project, ".claude", "settings.json"))
		if hookBin := filepath.Join(filepath.Dir(bin), gate.HookBinaryName); !strings.Contains(string(settings), hookBin+" hook pre-tool-use") {
			t.Errorf("the gate does not run %s:\n%s", hookBin, settings)
		}
		p := filepath.Join(w.project, "main.go")
		src := "package main\n\nfunc main() {}\n"
		w.run(t, claude, "Write", map[string]any{"file_path": p, "content": src})
		if got, _ := os.ReadFile(p); string(got) != src {
			t.Errorf("main.go %q", got)
		}
		recs := gateLog(t, w)
		if len(recs) != 1 || recs[0].Path != p || recs[0].Decision != gate.Allow || recs[0].Kind != "" {
			t.Fatalf("gate log %+v", recs)
		}
		// The bound on the gate's own time for a path it does not
		// judge (the record's time, from the command's start to its answer).
		if recs[0].Micros > 10000 {
			t.Errorf("the gate took %d µs on a source file, over 10 ms", recs[0].Micros)
		}
	})

	t.Run("plugin's hooks find the hook binary on PATH", func(t *testing.T) {
		// The plugin's hooks file in the project's settings, with only the
		// hook binary on PATH: the client runs its commands in a shell,
		// which finds memscope-hook, and the gate denies the key.
		w := newWorld(t)
		pathDir := filepath.Join(w.root, "path")
		os.MkdirAll(pathDir, 0o755)
		data, err := os.ReadFile(filepath.Join(filepath.Dir(bin), gate.HookBinaryName))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(pathDir, gate.HookBinaryName), data, 0o755)
		plugin, err := os.ReadFile("../../plugin/hooks/hooks.json")
		if err != nil {
			t.Fatal(err)
		}
		os.MkdirAll(filepath.Join(w.project, ".claude"), 0o755)
		os.WriteFile(filepath.Join(w.project, ".claude", "settings.json"), plugin, 0o644)
		// No memscope on this PATH: the fallback cannot be what denies.
		for i, v := range w.env {
			if strings.HasPrefix(v, "PATH=") {
				w.env[i] = "PATH=" + pathDir + ":/usr/bin:/bin"
			}
		}
		p := filepath.Join(w.memory, "project_deploy.md")
		reqs := w.run(t, claude, "Write", map[string]any{"file_path": p, "content": "---\nname: deploy\ndescription: deploy key\ntype: project\n---\nDeploy with AKIAQWERTYUIOPASDFGH.\n"})
		if _, err := os.Stat(p); err == nil {
			t.Error("the memory with the key was written")
		}
		if res := toolResult(t, reqs, "Write"); !strings.Contains(res, "credential") {
			t.Errorf("tool_result %q", res)
		}
	})

	// Broken: memscope alone (the hooks run it) or with the hook binary
	// beside it (the hooks run that), missing or crashing.
	for _, broken := range []struct{ name, gate, script string }{{"missing", "memscope", ""}, {"crashing", "memscope", "#!/bin/sh\necho 'memscope: boom' >&2\nexit 3\n"},
		{"missing", gate.HookBinaryName, ""}} {
		t.Run(broken.gate+" "+broken.name+": the client proceeds", func(t *testing.T) {
			w := newWorld(t)
			self := filepath.Join(w.root, "bin", "memscope")
			gateBin := filepath.Join(w.root, "bin", broken.gate)
			os.MkdirAll(filepath.Dir(gateBin), 0o755)
			for _, b := range []string{"memscope", broken.gate} {
				data, err := os.ReadFile(filepath.Join(filepath.Dir(bin), b))
				if err != nil {
					t.Fatal(err)
				}
				os.WriteFile(filepath.Join(w.root, "bin", b), data, 0o755)
			}
			w.install(t, self)
			if settings, _ := os.ReadFile(filepath.Join(w.project, ".claude", "settings.json")); !strings.Contains(string(settings), gateBin+" hook pre-tool-use") {
				t.Fatalf("the gate does not run %s:\n%s", gateBin, settings)
			}
			os.Remove(gateBin)
			if broken.script != "" {
				os.WriteFile(gateBin, []byte(broken.script), 0o755)
			}
			p := filepath.Join(w.memory, "project_ci_nightly.md")
			w.run(t, claude, "Write", map[string]any{"file_path": p, "content": cleanMemory})
			if got, err := os.ReadFile(p); err != nil || !strings.Contains(string(got), cleanBody) {
				t.Errorf("with the gate %s the write did not happen: %q, %v", broken.name, got, err)
			} else {
				t.Logf("gate %s: the client went ahead and wrote %s (fail open)", broken.name, p)
			}
		})
	}
}

// TestPluginValidates runs the client's own validator on plugin/ and on
// the repository's marketplace file.
func TestPluginValidates(t *testing.T) {
	claude := client(t)
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	w := newWorld(t)
	for _, p := range []string{filepath.Join(repo, "plugin"), repo} {
		ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
		cmd := exec.CommandContext(ctx, claude, "plugin", "validate", "--strict", p)
		cmd.Env = w.env
		out, err := cmd.CombinedOutput()
		cancel()
		if err != nil || !strings.Contains(string(out), "Validation passed") {
			t.Errorf("claude plugin validate --strict %s: %v\n%s", p, err, out)
		}
	}
}

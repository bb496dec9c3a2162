package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"path/filepath"
	"time"

	"github.com/memscope/memscope/engine/gate"
	"github.com/memscope/memscope/model"
)

var hookCommand = &command{
	name:  "hook",
	usage: "memscope hook pre-tool-use",
	summary: "the memory-write gate Claude Code calls before every Write, Edit and MultiEdit (memscope hooks install adds it)\n\n" +
		"Reads the PreToolUse event on stdin (at most 8 MiB, 2 s) and judges a write to memory (MEMORY.md, a topic\n" +
		"file, agent or team memory), CLAUDE.md, CLAUDE.local.md or a rule file as the file would be after it, with\n" +
		"lint's rules: the MEMORY.md cap, secrets, injection, near-duplicates, frontmatter, dangling links, size.\n" +
		"It answers deny or ask in the client's JSON (the gate: section of the settings file says which) and\n" +
		"otherwise nothing; every other path passes at once. It never stands in the way: a malformed event, a\n" +
		"timeout or an error decides nothing (exit 0) and is written to memscope.log in the state folder.\n" +
		"Every decision goes to gate.jsonl there ($XDG_STATE_HOME/memscope; memscope gate log shows it).",
	run: runHook,
}

// gateHook bounds the gate: the event on stdin, and the whole answer.
// The client's own timeout (hooks install sets 10 s) is the last word.
var gateHook = clientHook{maxEvent: maxHookInput, eventWait: 2 * time.Second, workWait: 5 * time.Second, late: "the call goes ahead"}

// maxHookInput bounds the PreToolUse event (a Write carries the file).
const maxHookInput = 8 << 20

// hookAnswer is the PreToolUse JSON decision (FORMATS.md, hooks).
type hookAnswer struct {
	HookSpecificOutput hookDecision `json:"hookSpecificOutput"`
}

type hookDecision struct {
	HookEventName            string `json:"hookEventName"`
	PermissionDecision       string `json:"permissionDecision"`
	PermissionDecisionReason string `json:"permissionDecisionReason"`
}

// hookJudged is what the gate made of one call: the JSON to print (none
// when it allows) and the record of the decision (none for a tool the
// gate does not judge).
type hookJudged struct {
	out []byte
	rec *gate.Record
}

// runHook never returns an error a client would read as one: whatever
// goes wrong, the call proceeds and the reason is logged.
func runHook(e *env, args []string) error {
	start := time.Now()
	// No flags: the home is the client's own ($CLAUDE_CONFIG_DIR, which
	// the client's hooks inherit, else ~/.claude).
	fset := flag.NewFlagSet("hook", flag.ContinueOnError)
	if err := parseFlags(e, fset, args); err != nil {
		return err
	}
	if fset.NArg() != 1 || fset.Arg(0) != "pre-tool-use" {
		return badUsagef("hook: name the event: memscope hook pre-tool-use")
	}
	r, err := runClientHook(e, gateHook, func(event []byte) (hookJudged, error) { return hookPreToolUse(e, event) })
	if err != nil {
		hookLog(e, err)
		return nil
	}
	if len(r.out) > 0 {
		e.stdout.Write(r.out)
	}
	if r.rec != nil {
		r.rec.Micros = time.Since(start).Microseconds()
		if err := hookRecord(e, *r.rec); err != nil {
			hookLog(e, err)
		}
	}
	return nil
}

// hookPreToolUse judges the event.
func hookPreToolUse(e *env, data []byte) (hookJudged, error) {
	ev, err := gate.ParseEvent(data)
	if err != nil {
		return hookJudged{}, err
	}
	if !gate.Judged(ev.ToolName) {
		return hookJudged{}, nil
	}
	p := ev.ToolInput.FilePath
	now := e.now()
	pass := &gate.Record{Time: now.UTC(), Session: ev.SessionID, Tool: ev.ToolName, Path: p, Decision: gate.Allow}
	if !gate.MemoryName(p) {
		return hookJudged{rec: pass}, nil
	}
	t, ok, err := hookTarget(e, ev)
	if err != nil || !ok {
		return hookJudged{rec: pass}, err
	}
	v, err := judgeCall(e, ev, t)
	if err != nil {
		return hookJudged{}, err
	}
	rec := gate.NewRecord(now, ev, t, v)
	if v.Decision == gate.Allow {
		return hookJudged{rec: &rec}, nil
	}
	out, err := json.Marshal(hookAnswer{HookSpecificOutput: hookDecision{HookEventName: "PreToolUse",
		PermissionDecision: string(v.Decision), PermissionDecisionReason: model.SanitizeForTerminal(v.Reason())}})
	return hookJudged{out: append(out, '\n'), rec: &rec}, err
}

// hookTarget resolves where memory lives for the session (the client's
// rules, from the event's cwd) and places the call's file in it. It
// reads the settings files and walks up to the git root, never the home.
func hookTarget(e *env, ev gate.Event) (gate.Target, bool, error) {
	home, _, err := e.resolveHome("")
	if err != nil {
		return gate.Target{}, false, err
	}
	cwd := ev.Cwd
	if !filepath.IsAbs(cwd) {
		cwd = filepath.Dir(ev.ToolInput.FilePath)
	}
	userHome, _ := e.userHome()
	settings, _ := model.LoadSettings(e.root, home, cwd, model.ManagedDir)
	loc := model.ResolveMemoryLocation(model.MemoryOptions{
		Root: e.root, HomeDir: home, UserHome: userHome, StartDir: cwd, Getenv: e.getenv, Settings: settings,
	})
	base := loc.Base
	if base == "" {
		base = home
	}
	t, ok := gate.Classify(ev.ToolInput.FilePath, gate.Places{Home: home, Base: base, AutoMemory: loc.Dir})
	return t, ok, nil
}

// judgeCall reads the file and its folder and judges the call. A call
// that would not apply (the client refuses it) is allowed.
func judgeCall(e *env, ev gate.Event, t gate.Target) (gate.Verdict, error) {
	before, err := model.ReadFileBounded(e.root, model.RootName(t.Path), model.MaxDocumentBytes)
	existed := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return gate.Verdict{}, fmt.Errorf("read %s: %w", t.Path, err)
	}
	after, ok := gate.After(gate.Tool(ev.ToolName), ev.ToolInput, before, existed)
	if !ok {
		return gate.Verdict{Decision: gate.Allow}, nil
	}
	policy := e.settings().Gate
	if t.Kind == gate.KindInstructions {
		return gate.JudgeInstructions(gate.InstructionInput{Target: t, Before: before, Existed: existed, After: after, Policy: policy}), nil
	}
	memFS, err := model.Sub(e.root, model.RootName(t.Dir))
	if err != nil {
		return gate.Verdict{}, err
	}
	md, _ := model.ReadMemoryDir(memFS, ".")
	return gate.JudgeMemory(gate.MemoryInput{Target: t, Memory: md, MemoryFS: memFS, Before: before, Existed: existed,
		After: after, Now: e.now(), Policy: policy}), nil
}

// hookRecord adds a decision to gate.jsonl.
func hookRecord(e *env, r gate.Record) error {
	p, err := gateLogPath(e, gate.LogName)
	if err != nil {
		return err
	}
	return gate.AppendRecord(p, r)
}

// hookLog writes why the gate decided nothing to memscope.log (and
// nowhere the client shows: a hook's stderr on exit 0 is not read).
func hookLog(e *env, cause error) {
	p, err := gateLogPath(e, gate.ErrorLogName)
	if err != nil {
		return
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s hook pre-tool-use: %s\n", e.now().UTC().Format(time.RFC3339), model.SanitizeLine(cause.Error()))
	gate.Append(p, b.Bytes())
}

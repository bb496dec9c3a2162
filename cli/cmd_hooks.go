package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/memscope/memscope/engine/gate"
	"github.com/memscope/memscope/engine/store"
	"github.com/memscope/memscope/model"
)

var hooksCommand = &command{
	name:  "hooks",
	usage: "memscope hooks install|uninstall|status [--scope user|project|local] [--project PATH] [--only gate|vault] [--statusline] [--dry-run] [--home DIR] [--json]",
	summary: "put memscope's hooks (memory-write gate, vault sync) in Claude Code's settings.json, take them out, or say where they are\n\n" +
		"The gate is a PreToolUse hook on Write|Edit|MultiEdit running memscope hook pre-tool-use; the vault's are\n" +
		"SessionEnd and PreCompact hooks running memscope vault sync --hook (bounded, never failing the client).\n" +
		"install adds them all (--only gate or --only vault: those alone); uninstall takes out every one.\n" +
		"When memscope-hook (the hook binary: the same hooks without the terminal app, so quicker to start) lies\n" +
		"beside this memscope, the hooks run it; otherwise they run memscope itself. status and --json say which.\n" +
		"--scope user is $H/settings.json, project PATH/.claude/settings.json, local PATH/.claude/settings.local.json.\n" +
		"install keeps every other key and hook, never adds its entry twice, and with --statusline sets memscope's\n" +
		"status line too (never over another command's). A settings file that is not valid JSON is refused, naming\n" +
		"the file and line. Every change is journaled: memscope undo takes it back. --dry-run prints the file it would\n" +
		"write. status lists every scope: whether the gate is there, which binary it runs, and whether that is this one.",
	run: steps(parseHooks, runHooks, showHooks),
}

type hooksOptions struct {
	home       homeFlags
	action     string
	scope      string
	project    string
	statusline bool
	only       string
	dryRun     bool
	json       bool
}

// hooksScope is one settings file and what memscope has in it.
type hooksScope struct {
	Scope     string         `json:"scope"`
	Path      string         `json:"path"`
	Exists    bool           `json:"exists"`
	Installed gate.Installed `json:"installed"`
	// Current says the gate's binary is the memscope running now, or the
	// hook binary beside it.
	Current bool   `json:"current"`
	Error   string `json:"error,omitempty"`
}

// hooksResult is what hooks did or found.
type hooksResult struct {
	Action  string `json:"action"`
	Path    string `json:"path,omitempty"`
	Changed bool   `json:"changed"`
	// Content is the file --dry-run would write.
	Content string        `json:"content,omitempty"`
	Skipped string        `json:"skipped,omitempty"`
	Change  *store.Change `json:"change,omitempty"`
	Binary  string        `json:"binary"`
	// HookBinary is the hook binary beside Binary (gate.HookBinaryName),
	// which install makes the hooks run; "" when there is none, and they
	// run Binary.
	HookBinary string       `json:"hookBinary"`
	Scopes     []hooksScope `json:"scopes,omitempty"`
}

func parseHooks(e *env, args []string) (hooksOptions, error) {
	var opts hooksOptions
	if len(args) > 0 && args[0] != "" && args[0][0] != '-' {
		opts.action, args = args[0], args[1:]
	}
	fs := newFlags("hooks", &opts.home, &opts.json)
	fs.StringVar(&opts.scope, "scope", "user", "which settings.json: `user`, project or local")
	fs.StringVar(&opts.project, "project", "", "project folder of --scope project|local (default: the current folder)")
	fs.BoolVar(&opts.statusline, "statusline", false, "install: set memscope's status line too")
	fs.StringVar(&opts.only, "only", "", "install: only these hooks, `gate` or vault (default: all)")
	fs.BoolVar(&opts.dryRun, "dry-run", false, "print the settings file instead of writing it")
	if err := parseFlags(e, fs, args); err != nil {
		return opts, err
	}
	switch opts.action {
	case "install", "uninstall", "status":
	default:
		return opts, badUsagef("hooks: say install, uninstall or status")
	}
	if opts.only != "" && !slices.Contains(gate.HookNames(), opts.only) {
		return opts, badUsagef("hooks: --only is %s, not %q", strings.Join(gate.HookNames(), " or "), opts.only)
	}
	switch opts.scope {
	case "user", "project", "local":
	default:
		return opts, badUsagef("hooks: --scope is user, project or local, not %q", opts.scope)
	}
	return opts, nil
}

// settingsPath is the settings.json of scope.
func settingsPath(home, project, scope string) string {
	switch scope {
	case "project":
		return filepath.Join(project, ".claude", "settings.json")
	case "local":
		return filepath.Join(project, ".claude", "settings.local.json")
	}
	return filepath.Join(home, "settings.json")
}

// hooksBinary is the memscope the settings will run: this one.
func hooksBinary(e *env) string {
	exe := e.executable
	if exe == nil {
		exe = os.Executable
	}
	p, err := exe()
	if err != nil {
		return "memscope"
	}
	if r, err := filepath.EvalSymlinks(p); err == nil {
		p = r
	}
	return p
}

// hooksHookBinary is the hook binary beside the memscope at self: a
// regular, executable file named gate.HookBinaryName in its folder (a
// release archive and Homebrew put both there), else "".
func hooksHookBinary(e *env, self string) string {
	if !filepath.IsAbs(self) {
		return ""
	}
	p := filepath.Join(filepath.Dir(self), gate.HookBinaryName)
	st, err := fs.Stat(e.root, model.RootName(p))
	if err != nil || !st.Mode().IsRegular() || st.Mode().Perm()&0o111 == 0 {
		return ""
	}
	return p
}

func runHooks(e *env, opts hooksOptions) (hooksResult, error) {
	home, _, err := e.resolveHome(opts.home.dir)
	if err != nil {
		return hooksResult{}, err
	}
	project := opts.project
	if project == "" {
		if project, err = e.getwd(); err != nil {
			return hooksResult{}, err
		}
	}
	if project, err = absFrom(e, project); err != nil {
		return hooksResult{}, err
	}
	res := hooksResult{Action: opts.action, Binary: hooksBinary(e)}
	res.HookBinary = hooksHookBinary(e, res.Binary)
	if opts.action == "status" {
		for _, sc := range []string{"user", "project", "local"} {
			res.Scopes = append(res.Scopes, hooksStatus(e, sc, settingsPath(home, project, sc), res.Binary, res.HookBinary))
		}
		return res, nil
	}
	path := settingsPath(home, project, opts.scope)
	res.Path = path
	before, err := model.ReadFileBounded(e.root, model.RootName(path), model.MaxConfigBytes)
	existed := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return res, badInput(fmt.Errorf("read %s: %w", path, err))
	}
	var after []byte
	if opts.action == "install" {
		install := gate.InstallOptions{Binary: res.Binary, HookBinary: res.HookBinary, Statusline: opts.statusline}
		if opts.only != "" {
			install.Only = []string{opts.only}
		}
		after, res.Changed, res.Skipped, err = gate.Install(path, before, install)
	} else {
		after, res.Changed, err = gate.Uninstall(path, before, res.Binary)
	}
	if err != nil {
		return res, badInput(err)
	}
	if opts.dryRun || !res.Changed {
		if opts.dryRun {
			res.Content = string(after)
		}
		return res, nil
	}
	s := store.OpenDocument(path, home, e.writer())
	summary := "hooks " + opts.action + ": memscope's hooks in " + path
	ch, err := s.ReplaceAs(store.OpSettings, summary, path, before, existed, after, store.WriteOptions{Now: e.now()})
	if err != nil {
		return res, err
	}
	res.Change = &ch
	return res, nil
}

// hooksStatus reads one scope's settings file; self is this memscope,
// hookBin the hook binary beside it ("" none).
func hooksStatus(e *env, scope, path, self, hookBin string) hooksScope {
	st := hooksScope{Scope: scope, Path: path}
	data, err := model.ReadFileBounded(e.root, model.RootName(path), model.MaxConfigBytes)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return st
	case err != nil:
		st.Error = err.Error()
		return st
	}
	st.Exists = true
	in, err := gate.Status(path, data, self)
	if err != nil {
		st.Error = err.Error()
		return st
	}
	st.Installed = in
	if in.Gate {
		bin := in.Binary
		if r, err := filepath.EvalSymlinks(bin); err == nil {
			bin = r
		}
		st.Current = bin == self || hookBin != "" && bin == hookBin
	}
	return st
}

func showHooks(e *env, opts hooksOptions, res hooksResult) error {
	return e.output(opts.json, res, func(w io.Writer) {
		switch {
		case res.Action == "status":
			for _, s := range res.Scopes {
				line := fmt.Sprintf("%-7s %s: ", s.Scope, s.Path)
				switch {
				case s.Error != "":
					line += "cannot tell: " + s.Error
				case !s.Exists:
					line += "no file"
				case !s.Installed.Gate:
					line += "gate not installed"
				default:
					line += "gate runs " + s.Installed.Binary
					switch {
					case s.Current && gate.IsHookBinary(s.Installed.Binary):
						line += " (the hook binary beside this memscope)"
					case s.Current && res.HookBinary != "":
						line += " (this memscope; hooks install would run the hook binary beside it)"
					case s.Current:
						line += " (this memscope)"
					default:
						line += " (not this memscope: " + res.Binary + ")"
					}
				}
				if s.Error == "" && s.Exists {
					if s.Installed.Vault {
						line += "; vault syncs on SessionEnd and PreCompact"
					} else {
						line += "; vault hooks not installed"
					}
				}
				if s.Installed.Statusline {
					line += "; status line is memscope's"
				}
				fmt.Fprintln(w, model.SanitizeLine(line))
			}
			fmt.Fprintln(w, model.SanitizeLine(hooksRunnerLine(res)))
		case opts.dryRun:
			fmt.Fprintf(w, "would write %s:\n%s", res.Path, model.SanitizeForTerminal(res.Content))
		case !res.Changed:
			fmt.Fprintf(w, "%s: nothing to change (%s)\n", res.Path, map[string]string{"install": "memscope's hooks are there already", "uninstall": "memscope is not in it"}[res.Action])
		default:
			fmt.Fprintf(w, "%sed memscope's hooks in %s (memscope undo takes it back)\n", res.Action, res.Path)
			if res.Action == "install" {
				fmt.Fprintln(w, model.SanitizeLine(hooksRunnerLine(res)))
			}
		}
		if res.Skipped != "" {
			fmt.Fprintln(w, model.SanitizeLine(res.Skipped))
		}
	})
}

// hooksRunnerLine says what install makes the hooks run.
func hooksRunnerLine(res hooksResult) string {
	if res.HookBinary != "" {
		return "hooks run " + res.HookBinary + ", the hook binary beside this memscope (no terminal app to start on each call)"
	}
	return "hooks run " + res.Binary + " itself: no " + gate.HookBinaryName + " beside it (the release archives carry one)"
}

package model

import (
	"io/fs"
	"path"
	"strings"
)

// MemoryRule says which rule chose the memory folder.
type MemoryRule string

// The rules, in the order the client applies them (first match wins).
const (
	// MemoryRuleCoworkEnv: env CLAUDE_COWORK_MEMORY_PATH_OVERRIDE (absolute).
	MemoryRuleCoworkEnv MemoryRule = "CLAUDE_COWORK_MEMORY_PATH_OVERRIDE"
	// MemoryRuleSetting: the autoMemoryDirectory setting.
	MemoryRuleSetting MemoryRule = "autoMemoryDirectory"
	// MemoryRuleGitRoot: <base>/projects/<slug(git root)>/memory.
	MemoryRuleGitRoot MemoryRule = "git-root"
	// MemoryRuleWorktree: a worktree shares the main repository's folder.
	MemoryRuleWorktree MemoryRule = "worktree"
	// MemoryRuleStartDir: not in git; the startup directory is the key.
	MemoryRuleStartDir MemoryRule = "startup-dir"
	// MemoryRuleAgent: an agent's memory folder (AgentMemoryDir), chosen
	// by name, not by the rules above.
	MemoryRuleAgent MemoryRule = "agent-memory"
)

// MemorySwitch says what decided whether auto memory is on.
type MemorySwitch string

// The switches, in the order the client checks them.
const (
	// SwitchEnvOff: CLAUDE_CODE_DISABLE_AUTO_MEMORY is truthy.
	SwitchEnvOff MemorySwitch = "env-disabled"
	// SwitchEnvForcedOn: CLAUDE_CODE_DISABLE_AUTO_MEMORY is explicitly
	// falsy, which wins over --bare and the setting.
	SwitchEnvForcedOn MemorySwitch = "env-forced-on"
	// SwitchBare: --bare mode.
	SwitchBare MemorySwitch = "bare"
	// SwitchSetting: the autoMemoryEnabled setting.
	SwitchSetting MemorySwitch = "setting"
	// SwitchDefault: nothing said otherwise; memory is on.
	SwitchDefault MemorySwitch = "default"
)

// Environment variables that move or switch auto memory.
const (
	EnvCoworkMemoryPath  = "CLAUDE_COWORK_MEMORY_PATH_OVERRIDE"
	EnvRemoteMemoryDir   = "CLAUDE_CODE_REMOTE_MEMORY_DIR"
	EnvDisableAutoMemory = "CLAUDE_CODE_DISABLE_AUTO_MEMORY"
)

// MemoryOptions is what decides where a project's auto memory lives.
type MemoryOptions struct {
	// Root is an fs.FS rooted at "/" (see RootName and MountFS).
	Root fs.FS
	// HomeDir is $H, the Claude home (absolute).
	HomeDir string
	// UserHome is the user's home folder, for "~/" in settings.
	UserHome string
	// StartDir is the absolute startup directory of the session.
	StartDir string
	// Getenv reads the environment; nil reads nothing.
	Getenv func(string) string
	// Settings are the settings files that apply (see LoadSettings).
	Settings SettingsStack
	// Bare is --bare mode.
	Bare bool
	// memo, within one HomeMemoryStores call, answers the checks its
	// projects share (storeMemo); nil asks every time.
	memo *storeMemo
}

// MemoryLocation is where a project's auto memory lives, whether it is on,
// and why.
type MemoryLocation struct {
	// Dir is the absolute memory folder (no trailing slash).
	Dir string `json:"dir"`
	// Rule is the rule that chose Dir; Reason says it in words.
	Rule   MemoryRule `json:"rule"`
	Reason string     `json:"reason"`
	// Key is the path that was slugged (git root or startup directory);
	// empty when an override chose Dir.
	Key string `json:"key,omitempty"`
	// Slug is the project folder name under Base/projects/.
	Slug string `json:"slug,omitempty"`
	// Base is $H, or $CLAUDE_CODE_REMOTE_MEMORY_DIR which replaces it for
	// memory only.
	Base string `json:"base,omitempty"`
	// Git is what FindGitRoot found for the startup directory.
	Git GitRoot `json:"git"`
	// Enabled says whether the client loads and writes auto memory.
	Enabled bool `json:"enabled"`
	// Switch decided Enabled; SwitchReason says it in words.
	Switch       MemorySwitch `json:"switch"`
	SwitchReason string       `json:"switchReason"`
	// Ignored lists overrides that were present but not used, and why.
	Ignored []string `json:"ignored,omitempty"`
}

// ResolveMemoryLocation applies the client's rules (FORMATS.md, "Memory
// folder key") to find the memory folder of a session started in
// o.StartDir and whether auto memory is on.
func ResolveMemoryLocation(o MemoryOptions) MemoryLocation {
	getenv := o.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	o.Root = orEmpty(o.Root)
	var loc MemoryLocation
	loc.Enabled, loc.Switch, loc.SwitchReason = memorySwitch(getenv, o.Settings, o.Bare)
	loc.Git = o.memo.findGitRoot(o.Root, o.StartDir)

	if v := getenv(EnvCoworkMemoryPath); v != "" {
		if strings.HasPrefix(v, "/") {
			loc.Dir, loc.Rule = path.Clean(v), MemoryRuleCoworkEnv
			loc.Reason = "env " + EnvCoworkMemoryPath + " names the folder"
			return loc
		}
		loc.Ignored = append(loc.Ignored, EnvCoworkMemoryPath+"="+v+": not an absolute path")
	}
	if dir, src, why := memoryDirSetting(o.Settings, o.UserHome, &loc.Ignored); dir != "" {
		loc.Dir, loc.Rule, loc.Reason = dir, MemoryRuleSetting, "setting autoMemoryDirectory in "+src+why
		return loc
	}

	loc.Base = o.HomeDir
	if v := getenv(EnvRemoteMemoryDir); v != "" {
		loc.Base = path.Clean(v)
	}
	switch loc.Git.Kind {
	case GitRootWorktree:
		loc.Key, loc.Rule = loc.Git.Root, MemoryRuleWorktree
		loc.Reason = "worktree " + loc.Git.Checkout + " shares the memory of its main repository " + loc.Git.Root
	case GitRootRepo, GitRootGitFile:
		loc.Key, loc.Rule = loc.Git.Root, MemoryRuleGitRoot
		loc.Reason = "git root of the startup directory"
	default:
		loc.Key, loc.Rule = path.Clean("/"+o.StartDir), MemoryRuleStartDir
		loc.Reason = "not in a git repository: the startup directory is the key"
	}
	if loc.Base != o.HomeDir {
		loc.Reason += "; env " + EnvRemoteMemoryDir + " replaces $H"
	}
	loc.Slug = Slug(loc.Key)
	if sub, err := fs.Sub(o.Root, RootName(loc.Base)); err == nil {
		if found, ok := FindProjectDir(sub, loc.Key); ok && found != loc.Slug {
			loc.Slug = found
			loc.Reason += "; long slug found by its 200-character prefix"
		}
	}
	loc.Dir = path.Join(loc.Base, "projects", loc.Slug, "memory")
	return loc
}

// memorySwitch decides whether auto memory is on, in the client's order.
func memorySwitch(getenv func(string) string, st SettingsStack, bare bool) (bool, MemorySwitch, string) {
	v := getenv(EnvDisableAutoMemory)
	switch {
	case EnvTruthy(v):
		return false, SwitchEnvOff, EnvDisableAutoMemory + "=" + v
	case EnvFalsy(v):
		return true, SwitchEnvForcedOn, EnvDisableAutoMemory + "=" + v + " forces auto memory on"
	case bare:
		return false, SwitchBare, "--bare mode"
	}
	if on, s := st.AutoMemoryEnabled(); on != nil {
		if *on {
			return true, SwitchSetting, "autoMemoryEnabled: true in " + s.Path
		}
		return false, SwitchSetting, "autoMemoryEnabled: false in " + s.Path
	}
	return true, SwitchDefault, "on by default"
}

// memoryDirSetting returns the autoMemoryDirectory to use, if any. The
// checked-in project file is never honoured (a cloned repository must not
// redirect where memory is written); among the others the highest
// precedence wins, and an invalid value falls back to the default folder.
func memoryDirSetting(st SettingsStack, userHome string, ignored *[]string) (dir, src, why string) {
	for i := len(st) - 1; i >= 0; i-- {
		s := st[i]
		if s.AutoMemoryDirectory == nil || strings.TrimSpace(*s.AutoMemoryDirectory) == "" {
			continue
		}
		v := strings.TrimSpace(*s.AutoMemoryDirectory)
		if s.Source == SettingsProject {
			*ignored = append(*ignored, "autoMemoryDirectory in "+s.Path+": ignored in a checked-in project settings file")
			continue
		}
		d, err := expandMemoryDir(v, userHome)
		if err != "" {
			*ignored = append(*ignored, "autoMemoryDirectory "+v+" in "+s.Path+": "+err)
			return "", "", ""
		}
		if d != v {
			why = " (" + v + " expanded)"
		}
		return d, s.Path, why
	}
	return "", "", ""
}

func expandMemoryDir(v, userHome string) (string, string) {
	for _, seg := range strings.Split(strings.ReplaceAll(v, "\\", "/"), "/") {
		if seg == ".." {
			return "", `".." is not allowed`
		}
	}
	switch {
	case v == "~" || strings.HasPrefix(v, "~/"):
		if userHome == "" {
			return "", "cannot expand ~: user home unknown"
		}
		return path.Join(userHome, v[1:]), ""
	case strings.HasPrefix(v, "/"):
		return path.Clean(v), ""
	}
	return "", "not an absolute path (nor ~/...)"
}

// EnvTruthy reports whether an environment value turns a switch on, as the
// client reads it: 1, true, yes or on, any case, surrounding spaces ignored.
func EnvTruthy(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "1", "true", "yes", "on":
		return true
	}
	return false
}

// EnvFalsy reports whether an environment value is explicitly off: 0,
// false, no or off. An unset or empty value is neither truthy nor falsy.
func EnvFalsy(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "0", "false", "no", "off":
		return true
	}
	return false
}

package model

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
)

// SettingsSource says which settings file a value came from.
type SettingsSource string

// The settings files, from lowest to highest precedence.
const (
	// SettingsUser is $H/settings.json.
	SettingsUser SettingsSource = "user"
	// SettingsProject is <project>/.claude/settings.json, checked in with
	// the code, so anyone who can push to the repository controls it.
	SettingsProject SettingsSource = "project"
	// SettingsLocal is <project>/.claude/settings.local.json (not checked in).
	SettingsLocal SettingsSource = "local"
	// SettingsManaged is /etc/claude-code/managed-settings.json.
	SettingsManaged SettingsSource = "managed"
)

// Settings holds the keys of one settings.json file that memscope uses.
// A nil pointer means the key is absent. Unknown keys are ignored.
type Settings struct {
	Source SettingsSource `json:"source,omitempty"`
	// Path is the absolute path of the file.
	Path string `json:"path,omitempty"`
	// CleanupPeriodDays: days before transcripts and caches are swept
	// (default 30; 0 disables the sweep).
	CleanupPeriodDays *int `json:"cleanupPeriodDays,omitempty"`
	// AutoMemoryEnabled false turns auto memory off.
	AutoMemoryEnabled *bool `json:"autoMemoryEnabled,omitempty"`
	// AutoMemoryDirectory replaces the memory folder (not honoured from a
	// checked-in project file).
	AutoMemoryDirectory *string `json:"autoMemoryDirectory,omitempty"`
	// ClaudeMdExcludes are glob patterns of CLAUDE.md/rules files to skip.
	ClaudeMdExcludes []string `json:"claudeMdExcludes,omitempty"`
	// AutoCompactEnabled false turns automatic compaction off.
	AutoCompactEnabled *bool `json:"autoCompactEnabled,omitempty"`
	// AutoCompactWindow is the window autocompact is computed against
	// (tokens; a number or a string with a k/M suffix).
	AutoCompactWindow *string `json:"autoCompactWindow,omitempty"`
	// ModelAutoCompactWindow is modelSettings.<model id>.autoCompactWindow:
	// per model, read before the top-level AutoCompactWindow.
	ModelAutoCompactWindow map[string]string `json:"modelAutoCompactWindow,omitempty"`
	// IdleCompaction false stops the compaction of an idle session
	// (default true).
	IdleCompaction *bool `json:"idleCompaction,omitempty"`
	// Env is the file's env block: variables the client sets for itself
	// (string values only; others are left out).
	Env map[string]string `json:"env,omitempty"`
}

// ParseSettings reads the keys memscope knows from a settings.json body.
// file names the file in problems. Bad JSON yields a problem with the line
// of the error and empty settings (the client then skips what depends on
// them, such as the cleanup sweep); a known key with a value of the wrong
// type is reported and left unset; unknown keys are ignored. An empty or
// all-white-space file is an empty settings object.
func ParseSettings(file string, data []byte) (Settings, []Problem) {
	s := Settings{Path: file}
	data = bytes.TrimPrefix(data, utf8BOM)
	if len(bytes.TrimSpace(data)) == 0 {
		return s, nil
	}
	bad := func(off int64, reason string) Problem {
		return Problem{File: file, Line: lineAt(data, off), Kind: ProblemMalformed, Reason: reason}
	}
	// Syntax first, over the whole input, so the error offset (and line)
	// is relative to the file rather than to one decoded value.
	var top any
	if err := json.Unmarshal(data, &top); err != nil {
		var se *json.SyntaxError
		off := int64(len(data))
		if errors.As(err, &se) {
			off = se.Offset
		}
		return s, []Problem{bad(off, "settings: "+err.Error())}
	}
	if _, ok := top.(map[string]any); !ok {
		return s, []Problem{bad(0, "settings: top level is not a JSON object")}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	var probs []Problem
	_, _ = dec.Token()
	for dec.More() {
		tok, _ := dec.Token()
		key, _ := tok.(string)
		keyOff := dec.InputOffset()
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return Settings{Path: file}, []Problem{bad(keyOff, "settings: "+err.Error())}
		}
		if err := s.set(key, raw); err != nil {
			probs = append(probs, bad(keyOff, fmt.Sprintf("settings key %q: %v (ignored)", key, err)))
		}
	}
	return s, probs
}

func (s *Settings) set(key string, raw json.RawMessage) error {
	switch key {
	case "cleanupPeriodDays":
		var n int
		if err := json.Unmarshal(raw, &n); err != nil {
			return errors.New("want a whole number of days")
		}
		if n < 0 {
			return errors.New("must not be negative")
		}
		s.CleanupPeriodDays = &n
	case "autoMemoryEnabled":
		return setBool(raw, &s.AutoMemoryEnabled)
	case "autoCompactEnabled":
		return setBool(raw, &s.AutoCompactEnabled)
	case "autoMemoryDirectory":
		var v string
		if err := json.Unmarshal(raw, &v); err != nil {
			return errors.New("want a string")
		}
		s.AutoMemoryDirectory = &v
	case "autoCompactWindow":
		v, err := windowValue(raw)
		if err != nil {
			return err
		}
		s.AutoCompactWindow = &v
	case "modelSettings":
		var per map[string]json.RawMessage
		if err := json.Unmarshal(raw, &per); err != nil {
			return errors.New("want an object keyed by model id")
		}
		for id, body := range per {
			var m struct {
				AutoCompactWindow json.RawMessage `json:"autoCompactWindow"`
			}
			if json.Unmarshal(body, &m) != nil || m.AutoCompactWindow == nil {
				continue
			}
			v, err := windowValue(m.AutoCompactWindow)
			if err != nil {
				return fmt.Errorf("%s.autoCompactWindow: %v", id, err)
			}
			if s.ModelAutoCompactWindow == nil {
				s.ModelAutoCompactWindow = map[string]string{}
			}
			s.ModelAutoCompactWindow[id] = v
		}
	case "idleCompaction":
		return setBool(raw, &s.IdleCompaction)
	case "env":
		var env map[string]any
		if err := json.Unmarshal(raw, &env); err != nil {
			return errors.New("want an object of variables")
		}
		for k, v := range env {
			var str string
			switch v := v.(type) {
			case string:
				str = v
			case float64, bool:
				str = fmt.Sprint(v)
			default:
				continue
			}
			if s.Env == nil {
				s.Env = map[string]string{}
			}
			s.Env[k] = str
		}
	case "claudeMdExcludes":
		var v []string
		if err := json.Unmarshal(raw, &v); err != nil {
			return errors.New("want an array of strings")
		}
		s.ClaudeMdExcludes = v
	}
	return nil
}

// windowValue reads a token count given as a number or a string (the
// string may carry a k or M suffix, read by the engine).
func windowValue(raw json.RawMessage) (string, error) {
	var n json.Number
	if json.Unmarshal(raw, &n) == nil {
		return n.String(), nil
	}
	var v string
	if json.Unmarshal(raw, &v) == nil {
		return strings.TrimSpace(v), nil
	}
	return "", errors.New("want a number of tokens")
}

func setBool(raw json.RawMessage, dst **bool) error {
	var b bool
	if err := json.Unmarshal(raw, &b); err != nil {
		return errors.New("want true or false")
	}
	*dst = &b
	return nil
}

// LineAt returns the 1-based line holding byte offset off of data (a
// JSON syntax error's offset, for a message naming file and line).
func LineAt(data []byte, off int64) int { return lineAt(data, off) }

// lineAt returns the 1-based line holding byte offset off of data.
func lineAt(data []byte, off int64) int {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	if off < 0 {
		off = 0
	}
	return bytes.Count(data[:off], []byte{'\n'}) + 1
}

// ReadSettings reads and parses the settings file name (an fs.FS name). A
// missing file is not a problem: found is false. An unreadable one is.
func ReadSettings(fsys fs.FS, name string) (s Settings, found bool, probs []Problem) {
	data, err := ReadFileBounded(fsys, name, MaxConfigBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return Settings{Path: name}, false, nil
	}
	if err != nil {
		return Settings{Path: name}, false, []Problem{{File: name, Kind: ProblemUnreadable, Reason: fmt.Sprintf("read settings: %v", err)}}
	}
	s, probs = ParseSettings(name, data)
	return s, true, probs
}

// SettingsStack is every settings file that applies to a project, lowest
// precedence first (user, project, local, managed).
type SettingsStack []Settings

// ManagedDir is where managed (organisation) policy files live on Linux.
const ManagedDir = "/etc/claude-code"

// LoadSettings reads the settings files that apply to a session started in
// projectDir: $H/settings.json, <project>/.claude/settings.json,
// <project>/.claude/settings.local.json and <managedDir>/managed-settings.json.
// root is an fs.FS rooted at "/"; all paths are absolute. Missing files
// are left out.
func LoadSettings(root fs.FS, homeDir, projectDir, managedDir string) (SettingsStack, []Problem) {
	return loadSettings(root, homeDir, projectDir, managedDir, nil)
}

// loadSettings is LoadSettings, each file read once in memo (nil: every
// time).
func loadSettings(root fs.FS, homeDir, projectDir, managedDir string, memo *storeMemo) (SettingsStack, []Problem) {
	files := []struct {
		src  SettingsSource
		path string
	}{
		{SettingsUser, path.Join(homeDir, "settings.json")},
		{SettingsProject, path.Join(projectDir, ".claude", "settings.json")},
		{SettingsLocal, path.Join(projectDir, ".claude", "settings.local.json")},
		{SettingsManaged, path.Join(managedDir, "managed-settings.json")},
	}
	var stack SettingsStack
	var probs []Problem
	for _, f := range files {
		if projectDir == "" && (f.src == SettingsProject || f.src == SettingsLocal) {
			continue
		}
		s, found, p := memo.readSettings(root, f.path)
		for i := range p {
			p[i].File = f.path
		}
		probs = append(probs, p...)
		if found {
			s.Source, s.Path = f.src, f.path
			stack = append(stack, s)
		}
	}
	return stack, probs
}

// AutoMemoryEnabled returns the effective autoMemoryEnabled value and the
// file it came from (the highest-precedence file that sets it), or nil.
func (st SettingsStack) AutoMemoryEnabled() (*bool, *Settings) {
	for i := len(st) - 1; i >= 0; i-- {
		if st[i].AutoMemoryEnabled != nil {
			return st[i].AutoMemoryEnabled, &st[i]
		}
	}
	return nil, nil
}

// AutoCompactEnabled returns the effective autoCompactEnabled (default
// true) and the file that set it (nil for the default).
func (st SettingsStack) AutoCompactEnabled() (bool, *Settings) {
	for i := len(st) - 1; i >= 0; i-- {
		if v := st[i].AutoCompactEnabled; v != nil {
			return *v, &st[i]
		}
	}
	return true, nil
}

// CleanupPeriodDays returns the effective cleanupPeriodDays (default 30).
func (st SettingsStack) CleanupPeriodDays() int {
	for i := len(st) - 1; i >= 0; i-- {
		if st[i].CleanupPeriodDays != nil {
			return *st[i].CleanupPeriodDays
		}
	}
	return 30
}

// ClaudeMdExcludes returns the union of every file's claudeMdExcludes, in
// file order without repeats: the client concatenates arrays when it
// merges settings.
func (st SettingsStack) ClaudeMdExcludes() []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range st {
		for _, p := range s.ClaudeMdExcludes {
			if p = strings.TrimSpace(p); p != "" && !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
		}
	}
	return out
}

// Setting is one value of the settings stack with the file it came from.
type Setting struct {
	Value string
	// From is the file's path.
	From string
}

// AutoCompactWindow returns the autoCompactWindow in force for modelID as
// the client merges the files: a modelSettings entry for the model (any
// file, highest precedence first) before the top-level value. ok is false
// when no file sets it.
func (st SettingsStack) AutoCompactWindow(modelID string) (v Setting, perModel, ok bool) {
	for i := len(st) - 1; i >= 0; i-- {
		if w, found := st[i].ModelAutoCompactWindow[modelID]; found && modelID != "" {
			return Setting{w, st[i].Path}, true, true
		}
	}
	for i := len(st) - 1; i >= 0; i-- {
		if w := st[i].AutoCompactWindow; w != nil {
			return Setting{*w, st[i].Path}, false, true
		}
	}
	return Setting{}, false, false
}

// IdleCompaction returns the effective idleCompaction (default true) and
// the file that set it ("" for the default).
func (st SettingsStack) IdleCompaction() (bool, string) {
	for i := len(st) - 1; i >= 0; i-- {
		if v := st[i].IdleCompaction; v != nil {
			return *v, st[i].Path
		}
	}
	return true, ""
}

// Env returns the variable name as the settings files' env blocks set it
// (highest precedence first); ok is false when none does.
func (st SettingsStack) Env(name string) (Setting, bool) {
	for i := len(st) - 1; i >= 0; i-- {
		if v, found := st[i].Env[name]; found {
			return Setting{v, st[i].Path}, true
		}
	}
	return Setting{}, false
}

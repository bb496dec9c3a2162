package cli

import (
	"github.com/memscope/memscope/model"
)

// autocompactSetting is the autoCompactEnabled the client would use for
// a session: from the settings files of its home and project (project is
// --project, else the session's startup folder), the highest-precedence
// file that sets the key winning; true (the default) when none does.
type autocompactSetting struct {
	enabled bool
	// setBy is the file that set the key, "" for the default.
	setBy    string
	problems []model.Problem
}

// readAutocompactSetting loads the settings that apply to the session in
// sf. Its home is the one the session was found in, else the one --home,
// $CLAUDE_CONFIG_DIR or ~/.claude names (a missing one has no settings).
func readAutocompactSetting(e *env, hf *homeFlags, sf *sessionFile, project string) autocompactSetting {
	out := autocompactSetting{enabled: true}
	root := e.root
	var homeDir string
	if sf.home != nil {
		homeDir = sf.home.home.Dir
		root = sf.home.root
	} else {
		dir, _, err := e.resolveHome(hf.dir)
		if err != nil {
			out.problems = []model.Problem{{Kind: model.ProblemUnreadable, Reason: "settings not read: " + err.Error()}}
			return out
		}
		homeDir = dir
	}
	if project != "" {
		if abs, err := absFrom(e, project); err == nil {
			project = abs
		}
	}
	stack, probs := model.LoadSettings(root, homeDir, project, model.ManagedDir)
	out.problems = probs
	var by *model.Settings
	if out.enabled, by = stack.AutoCompactEnabled(); by != nil {
		out.setBy = by.Path
	}
	return out
}

package cli

import (
	"io/fs"

	"github.com/memscope/memscope/engine/preview"
	"github.com/memscope/memscope/model"
)

// previewFor builds the next session's prompt for project (absolute) in
// home, read through root, as `memscope prompt` shows it; set, when given,
// sets the options a command adds (queries, --at, --add-dir, …).
func previewFor(e *env, root fs.FS, home *model.Home, project string, set func(*preview.Options)) preview.Preview {
	userHome, _ := e.userHome()
	configDir := ""
	if home.Source != model.HomeFromDefault {
		configDir = home.Dir
	}
	o := preview.Options{
		Root:            root,
		HomeDir:         home.Dir,
		UserHome:        userHome,
		Project:         project,
		Getenv:          e.getenv,
		ClaudeJSONPaths: model.ClaudeJSONPaths(configDir, userHome),
		Now:             e.now(),
	}
	if set != nil {
		set(&o)
	}
	return preview.Build(o)
}

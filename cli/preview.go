package cli

import (
	"io/fs"

	"github.com/memscope/memscope/engine/preview"
	"github.com/memscope/memscope/model"
)

// previewOptions are the preview.Build options of project in home, as
// every command that reads what enters a session's prompt starts them:
// the file system root, the user's home, the environment, the clock, and
// the .claude.json files the client reads (the home's own only when it
// was named: --home, $CLAUDE_CONFIG_DIR, the demo).
func previewOptions(e *env, root fs.FS, home *model.Home, project string) preview.Options {
	userHome, _ := e.userHome()
	configDir := ""
	if home.Source != model.HomeFromDefault {
		configDir = home.Dir
	}
	return preview.Options{
		Root:            root,
		HomeDir:         home.Dir,
		UserHome:        userHome,
		Project:         project,
		Getenv:          e.getenv,
		ClaudeJSONPaths: model.ClaudeJSONPaths(configDir, userHome),
		Now:             e.now(),
	}
}

// previewFor builds the next session's prompt for project (absolute) in
// home, read through root, as `memscope prompt` shows it; set, when given,
// sets the options a command adds (queries, --at, --add-dir, …).
func previewFor(e *env, root fs.FS, home *model.Home, project string, set func(*preview.Options)) preview.Preview {
	o := previewOptions(e, root, home, project)
	if set != nil {
		set(&o)
	}
	return preview.Build(o)
}

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

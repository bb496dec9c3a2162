package cli

import (
	"io/fs"

	"github.com/memscope/memscope/engine/preview"
	"github.com/memscope/memscope/engine/projectmem"
	"github.com/memscope/memscope/model"
)

// projectEnv is the world a command reads a project in: the file system
// root, the home, the user's home, the environment, the clock and the
// command's writer (engine/projectmem assembles the inputs from it).
func projectEnv(e *env, root fs.FS, home *model.Home) projectmem.Env {
	userHome, _ := e.userHome()
	return projectmem.Env{Root: root, Home: home, UserHome: userHome, Getenv: e.getenv, Now: e.now(), Writes: e.writes}
}

// previewFor builds the next session's prompt for project (absolute) in
// home, read through root, as `memscope prompt` shows it; set, when given,
// sets the options a command adds (queries, --at, --add-dir, …).
func previewFor(e *env, root fs.FS, home *model.Home, project string, set func(*preview.Options)) preview.Preview {
	return projectEnv(e, root, home).Preview(project, set)
}

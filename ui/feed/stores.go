package feed

import (
	"io/fs"

	"github.com/memscope/memscope/model"
)

// ProjectMemoryStores are the project's memory stores, from the one list
// stat, search, secrets and review read (model.HomeMemoryStores): its
// auto memory under the home first, then the auto memory folder the
// client's rules move it to (autoMemoryDirectory,
// CLAUDE_CODE_REMOTE_MEMORY_DIR), team memory and agent memory in every
// scope. A store that does not exist is kept only for a declared agent
// (shown as having no memory yet). clientDir is the folder the client
// writes the project's auto memory to: the moved one, else the home's.
func ProjectMemoryStores(root fs.FS, homeDir, userHome, slug, project string, getenv func(string) string) (stores []model.MemoryStore, clientDir string) {
	list, _ := model.HomeMemoryStores(model.HomeStoresOptions{Root: root, HomeDir: homeDir, UserHome: userHome, Getenv: getenv,
		Projects: []model.Project{{Slug: slug, Dir: "projects/" + slug, Path: project}}, User: true})
	for i, s := range list {
		if s.Kind == model.StoreAuto {
			clientDir = s.Dir
		}
		if i == 0 || s.Exists || s.Kind == model.StoreAgent {
			stores = append(stores, s.MemoryStore)
		}
	}
	return stores, clientDir
}

// Package storeshome writes a Claude home with a memory store of every
// kind, for the tests that check every reader lists the same stores
// (model.HomeMemoryStores, the one list).
package storeshome

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/memscope/memscope/internal/secretgen"
	"github.com/memscope/memscope/model"
)

// Write writes a home with a memory store of every kind, each with
// one topic file holding its own AWS key id: auto memory under the home,
// auto memory autoMemoryDirectory moved out of it (with its team/), auto
// memory CLAUDE_CODE_REMOTE_MEMORY_DIR moved (with its team/), team
// memory under the home, and agent memory in the user, project and local
// scopes (the user and local ones under the remote base). It returns the
// home (in t's temporary folder), the environment and every store
// folder, sorted. The projects are two folders with a git root each:
// work/a (autoMemoryDirectory moved) and work/b (moved by the
// environment).
func Write(t testing.TB) (home string, env map[string]string, stores []string) {
	t.Helper()
	root := t.TempDir()
	home = filepath.Join(root, "h")
	appA, appB := filepath.Join(root, "work", "a"), filepath.Join(root, "work", "b")
	moved, remote := filepath.Join(root, "moved"), filepath.Join(root, "remote")
	env = map[string]string{model.EnvRemoteMemoryDir: remote}
	slugA, slugB := model.Slug(appA), model.Slug(appB)
	stores = []string{
		filepath.Join(home, "projects", slugA, "memory"),
		filepath.Join(home, "projects", slugB, "memory"),
		filepath.Join(home, "projects", slugB, "memory", "team"),
		moved,
		filepath.Join(moved, "team"),
		filepath.Join(remote, "projects", slugB, "memory"),
		filepath.Join(remote, "projects", slugB, "memory", "team"),
		filepath.Join(remote, "agent-memory", "planner"),
		filepath.Join(appA, ".claude", "agent-memory", "reviewer"),
		filepath.Join(remote, "projects", slugA, "agent-memory-local", "scratch"),
	}
	files := map[string]string{
		filepath.Join(appA, ".git", "HEAD"):                     "ref: refs/heads/main\n",
		filepath.Join(appB, ".git", "HEAD"):                     "ref: refs/heads/main\n",
		filepath.Join(appA, ".claude", "settings.local.json"):   `{"autoMemoryDirectory": "` + moved + `"}`,
		filepath.Join(home, "projects", slugA, "s.jsonl"):       `{"type":"user","uuid":"u","cwd":"` + appA + `","sessionId":"s","message":{"content":"hi"}}` + "\n",
		filepath.Join(home, "projects", slugB, "t.jsonl"):       `{"type":"user","uuid":"v","cwd":"` + appB + `","sessionId":"t","message":{"content":"hi"}}` + "\n",
		filepath.Join(appA, ".claude", "agents", "reviewer.md"): "---\nname: reviewer\nmemory: project\n---\n",
		filepath.Join(appA, ".claude", "agents", "scratch.md"):  "---\nname: scratch\nmemory: local\n---\n",
		filepath.Join(home, "agents", "planner.md"):             "---\nname: planner\nmemory: user\n---\n",
	}
	for i, dir := range stores {
		key := "AKIA" + secretgen.Token(uint64(100+i), "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16)
		files[filepath.Join(dir, fmt.Sprintf("note%d.md", i))] = fmt.Sprintf("---\nname: note %d\ndescription: a note\ntype: project\n---\n\nThe deploy key is %s.\n", i, key)
	}
	for p, content := range files {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sort.Strings(stores)
	return home, env, stores
}

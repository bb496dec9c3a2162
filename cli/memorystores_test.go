package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/memscope/memscope/internal/secretgen"
	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/model"
)

// storesHome writes a home with a memory store of every kind, each with
// one topic file holding its own AWS key id: auto memory under the home,
// auto memory autoMemoryDirectory moved out of it (with its team/), auto
// memory CLAUDE_CODE_REMOTE_MEMORY_DIR moved (with its team/), team
// memory under the home, and agent memory in the user, project and local
// scopes (the user and local ones under the remote base). It returns the
// home, the environment and every store folder.
func storesHome(t *testing.T, e *env) (home string, env map[string]string, stores []string) {
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
	e.root = testroot.New(t)
	e.getenv = func(k string) string { return env[k] }
	sort.Strings(stores)
	return home, env, stores
}

// stat, search and secrets read one list of memory stores
// (model.HomeMemoryStores): on a home with every kind of store, each
// reports a file in every one. search used to find nothing in the
// stores CLAUDE_CODE_REMOTE_MEMORY_DIR or autoMemoryDirectory moved
// (it built its own store options), secrets missed them too, and stat
// listed no auto memory outside the home.
func TestEveryCommandReadsEveryMemoryStore(t *testing.T) {
	e, out, errb := testEnv(t)
	home, _, want := storesHome(t, e)
	abs := func(f string) string {
		if strings.HasPrefix(f, "/") {
			return f
		}
		return filepath.Join(home, filepath.FromSlash(f))
	}
	runJSON := func(code int, args ...string) []byte {
		t.Helper()
		out.Reset()
		errb.Reset()
		if got := run(e, append(args, "--home", home, "--json")); got != code {
			t.Fatalf("%v: exit %d, want %d: %s", args, got, code, errb)
		}
		return bytes.Clone(out.Bytes())
	}
	dirsOf := func(files []string) []string {
		var ds []string
		for _, f := range files {
			if d := path.Dir(abs(f)); !slices.Contains(ds, d) && strings.HasPrefix(path.Base(f), "note") {
				ds = append(ds, d)
			}
		}
		sort.Strings(ds)
		return ds
	}

	var st struct {
		MemoryStores []struct {
			Dir   string `json:"dir"`
			Files int    `json:"files"`
		} `json:"memoryStores"`
	}
	if err := json.Unmarshal(runJSON(0, "stat", "--no-cache"), &st); err != nil {
		t.Fatal(err)
	}
	var statDirs []string
	for _, s := range st.MemoryStores {
		if s.Files > 0 {
			statDirs = append(statDirs, s.Dir)
		}
	}
	sort.Strings(statDirs)

	var hitFiles []string
	sc := bufio.NewScanner(bytes.NewReader(runJSON(0, "search", "deploy key", "--in", "memory")))
	for sc.Scan() {
		var h struct {
			File string `json:"file"`
		}
		if json.Unmarshal(sc.Bytes(), &h) == nil && h.File != "" {
			hitFiles = append(hitFiles, h.File)
		}
	}

	var sr struct {
		Findings []struct {
			File string `json:"file"`
		} `json:"findings"`
	}
	if err := json.Unmarshal(runJSON(1, "secrets"), &sr); err != nil {
		t.Fatal(err)
	}
	var secretFiles []string
	for _, f := range sr.Findings {
		secretFiles = append(secretFiles, f.File)
	}

	for name, got := range map[string][]string{"stat": statDirs, "search": dirsOf(hitFiles), "secrets": dirsOf(secretFiles)} {
		if !slices.Equal(got, want) {
			t.Errorf("%s reports the stores\n  %s\nwant\n  %s", name, strings.Join(got, "\n  "), strings.Join(want, "\n  "))
		}
	}
}

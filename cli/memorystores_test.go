package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/memscope/memscope/internal/storeshome"
	"github.com/memscope/memscope/internal/testroot"
)

// storesHome is storeshome.Write's home, with e reading the machine
// through the test's root and the home's environment.
func storesHome(t *testing.T, e *env) (home string, env map[string]string, stores []string) {
	t.Helper()
	home, env, stores = storeshome.Write(t)
	e.root = testroot.New(t)
	e.getenv = func(k string) string { return env[k] }
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

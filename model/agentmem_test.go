package model

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"
)

// agentHome is a home /h and a repository /r started in /r/sub, with
// agents defined in both places and every scope of agent memory.
func agentHome() fstest.MapFS {
	def := func(name, memory string) *fstest.MapFile {
		s := "---\nname: " + name + "\ndescription: d\n"
		if memory != "" {
			s += "memory: " + memory + "\n"
		}
		return &fstest.MapFile{Data: []byte(s + "---\n\nYou review.\n")}
	}
	return fstest.MapFS{
		"r/.git/HEAD":                                      {Data: []byte("ref: refs/heads/main\n")},
		"h/agents/reviewer.md":                             def("reviewer", "user"),
		"h/agents/team/plug.md":                            def("plug:helper", "user"),
		"h/agents/nomem.md":                                def("nomem", ""),
		"h/agents/bad.md":                                  def("bad", "global"),
		"h/agents/noname.md":                               {Data: []byte("---\ndescription: x\n---\n")},
		"h/agents/.hidden/x.md":                            def("hidden", "user"),
		"r/sub/.claude/agents/reviewer.md":                 def("reviewer", "project"),
		"r/.claude/agents/tester.md":                       def("tester", "local"),
		"r/sub/.claude/agent-memory/reviewer/MEMORY.md":    {Data: []byte("- [A](a.md) — a\n")},
		"r/sub/.claude/agent-memory/reviewer/a.md":         {Data: []byte("---\nname: a\ndescription: a\n---\n")},
		"h/agent-memory/old/MEMORY.md":                     {Data: []byte("- [B](b.md)\n")},
		"h/agent-memory/plug-helper/MEMORY.md":             {Data: []byte("")},
		"r/sub/.claude/agent-memory-local/tester/notes.md": {Data: []byte("n")},
	}
}

func TestReadAgentDefinitions(t *testing.T) {
	defs, probs := ReadAgentDefinitions(AgentDefinitionOptions{Root: agentHome(), HomeDir: "/h", StartDir: "/r/sub", StopDir: "/r"})
	var got []string
	for _, d := range defs {
		got = append(got, d.Type+"="+string(d.Memory)+"@"+string(d.Source))
	}
	// The project's reviewer wins over the user's; nearest folder first.
	want := []string{"reviewer=project@project", "tester=local@project", "bad=@user", "nomem=@user", "plug:helper=user@user"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("definitions %v, want %v", got, want)
	}
	var reasons []string
	for _, p := range probs {
		reasons = append(reasons, p.File+": "+p.Reason)
	}
	joined := strings.Join(reasons, "\n")
	if len(probs) != 2 || !strings.Contains(joined, `/h/agents/bad.md: agent bad: memory "global"`) || !strings.Contains(joined, "/h/agents/noname.md: agent definition has no name") {
		t.Errorf("problems:\n%s", joined)
	}
}

func TestListMemoryStores(t *testing.T) {
	stores, loc, probs := ListMemoryStores(MemoryOptions{Root: agentHome(), HomeDir: "/h", StartDir: "/r/sub"})
	if loc.Dir != "/h/projects/-r/memory" {
		t.Errorf("auto memory at %s", loc.Dir)
	}
	type row struct {
		ID, Dir, Definition string
		Exists, Stamped     bool
	}
	var got []row
	for _, s := range stores {
		got = append(got, row{s.ID(), s.Dir, s.Definition, s.Exists, s.Stamped})
		if s.Label == "" {
			t.Errorf("%s has no label", s.ID())
		}
	}
	want := []row{
		{"memory", "/h/projects/-r/memory", "", false, true},
		{"old@user", "/h/agent-memory/old", "", true, false},
		{"plug:helper@user", "/h/agent-memory/plug-helper", "/h/agents/team/plug.md", true, false},
		{"reviewer@project", "/r/sub/.claude/agent-memory/reviewer", "/r/sub/.claude/agents/reviewer.md", true, false},
		{"tester@local", "/r/sub/.claude/agent-memory-local/tester", "/r/.claude/agents/tester.md", true, false},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("stores\n got %+v\nwant %+v", got, want)
	}
	if len(probs) != 2 {
		t.Errorf("want the two bad definitions as problems, got %+v", probs)
	}
	if !strings.Contains(stores[1].Label, "no agent definition") {
		t.Errorf("an undeclared folder says so: %q", stores[1].Label)
	}
	sel := map[string][]string{"reviewer": {"reviewer@project"}, "reviewer@user": nil, "plug-helper": {"plug:helper@user"}, "memory": {"memory"}}
	for s, want := range sel {
		var got []string
		for _, st := range stores {
			if st.Matches(s) {
				got = append(got, st.ID())
			}
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%q selects %v, want %v", s, got, want)
		}
	}
}

// CLAUDE_CODE_REMOTE_MEMORY_DIR moves user-scope agent memory to the
// remote base, and local-scope memory under the project's slug there.
func TestAgentStoresRemote(t *testing.T) {
	env := map[string]string{EnvRemoteMemoryDir: "/remote"}
	fsys := agentHome()
	stores, _, _ := ListMemoryStores(MemoryOptions{Root: fsys, HomeDir: "/h", StartDir: "/r/sub", Getenv: func(k string) string { return env[k] }})
	dirs := map[string]string{}
	for _, s := range stores {
		dirs[s.ID()] = s.Dir
	}
	if dirs["plug:helper@user"] != "/remote/agent-memory/plug-helper" || dirs["tester@local"] != "/remote/projects/-r/agent-memory-local/tester" ||
		dirs["reviewer@project"] != "/r/sub/.claude/agent-memory/reviewer" {
		t.Errorf("remote dirs %v", dirs)
	}
}

func FuzzParseAgentDefinition(f *testing.F) {
	f.Add([]byte("---\nname: a\nmemory: user\n---\n"))
	f.Add([]byte("---\nname: [x]\nmemory: {a: b}\n---\n"))
	f.Add([]byte("---\nmemory: local\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		d, _ := ParseAgentDefinition("/a.md", data)
		if d.Memory != "" {
			if _, ok := ParseAgentMemoryScope(string(d.Memory)); !ok || d.Type == "" {
				t.Fatalf("memory %q for type %q", d.Memory, d.Type)
			}
		}
	})
}

// BenchmarkListMemoryStores lists a project's stores on disk: 20 agent
// definitions in the project and 20 in the home, each with a memory
// folder (what `stat` does per project, and the Memories pane per load).
func BenchmarkListMemoryStores(b *testing.B) {
	root := b.TempDir()
	home, proj := filepath.Join(root, "h"), filepath.Join(root, "p")
	write := func(p, s string) {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	write(filepath.Join(proj, ".git", "HEAD"), "ref: refs/heads/main\n")
	for i := range 20 {
		write(filepath.Join(proj, ".claude", "agents", fmt.Sprintf("a%d.md", i)), fmt.Sprintf("---\nname: p%d\nmemory: project\n---\n", i))
		write(filepath.Join(proj, ".claude", "agent-memory", fmt.Sprintf("p%d", i), "MEMORY.md"), "- [x](x.md)\n")
		write(filepath.Join(home, "agents", fmt.Sprintf("u%d.md", i)), fmt.Sprintf("---\nname: u%d\nmemory: user\n---\n", i))
		write(filepath.Join(home, "agent-memory", fmt.Sprintf("u%d", i), "MEMORY.md"), "- [x](x.md)\n")
	}
	// Only the benchmark's folder, at its path.
	fsys := MountFS(nil, root, os.DirFS(root))
	b.ResetTimer()
	for b.Loop() {
		stores, _, _ := ListMemoryStores(MemoryOptions{Root: fsys, HomeDir: home, StartDir: proj})
		if len(stores) != 41 {
			b.Fatalf("%d stores", len(stores))
		}
	}
}

// Command gatebench times `memscope hook pre-tool-use` and the hook
// binary's `memscope-hook hook pre-tool-use` as whole processes, the way
// the client runs them, side by side (their runs interleaved, so load
// falls on both alike) beside a `true` floor: a Write to a source
// file (the gate passes it without judging) and memory writes in a
// project with 200 memory files (a new topic file, and MEMORY.md). It
// prints p50, p95 and max wall times, and the median CPU time (user +
// system), which a busy machine disturbs least; it checks that both
// binaries answer each case alike. scripts/gate-bench.sh runs it.
//
//	go run ./scripts/memscope-gatebench -memscope PATH [-hook PATH] [-runs N]
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/memscope/memscope/model"
)

func main() {
	bin := flag.String("memscope", "", "the memscope binary")
	hook := flag.String("hook", "", "the hook binary (memscope-hook); empty: memscope only")
	runs := flag.Int("runs", 200, "runs of each case")
	flag.Parse()
	if *bin == "" {
		fmt.Fprintln(os.Stderr, "gatebench: -memscope PATH is required")
		os.Exit(2)
	}
	root, err := os.MkdirTemp("", "gatebench-")
	check(err)
	defer os.RemoveAll(root)
	home, project := filepath.Join(root, "home"), filepath.Join(root, "project")
	mem := filepath.Join(home, "projects", model.Slug(project), "memory")
	check(os.MkdirAll(mem, 0o755))
	check(os.MkdirAll(project, 0o755))
	// 200 memories of 40 words from a 3000-word vocabulary (frequent
	// words likelier), as engine/lint's benchmark folder.
	rng := rand.New(rand.NewPCG(1, 2))
	var ix strings.Builder
	for i := range 200 {
		name := fmt.Sprintf("project_note_%03d.md", i)
		w := make([]string, 40)
		for k := range w {
			w[k] = fmt.Sprintf("w%d", int(3000*rng.Float64()*rng.Float64()))
		}
		body := strings.Join(w, " ") + "\n"
		fm := fmt.Sprintf("---\nname: note_%03d\ndescription: service %d and its queue\nmetadata:\n  node_type: memory\n  type: project\n  originSessionId: 5d1c0a7e-0000-4000-8000-%012d\n  modified: 2026-11-20T10:00:00.000Z\n---\n\n", i, i, i)
		check(os.WriteFile(filepath.Join(mem, name), []byte(fm+body), 0o644))
		if i < 190 {
			fmt.Fprintf(&ix, "- [Note %d](%s) — service %d and its queue\n", i, name, i)
		}
	}
	check(os.WriteFile(filepath.Join(mem, "MEMORY.md"), []byte(ix.String()), 0o644))
	event := func(name string, input map[string]any) string {
		b, _ := json.Marshal(map[string]any{"session_id": "bench", "cwd": project, "hook_event_name": "PreToolUse", "tool_name": "Write", "tool_input": input})
		p := filepath.Join(root, name+".json")
		check(os.WriteFile(p, b, 0o644))
		return p
	}
	src := event("source", map[string]any{"file_path": filepath.Join(project, "main.go"), "content": "package main\n"})
	topic := event("topic", map[string]any{"file_path": filepath.Join(mem, "project_new.md"), "content": "---\nname: new\ndescription: a new fact\ntype: project\n---\nThe staging database is rebuilt every Sunday at 03:00 UTC.\n"})
	index := event("index", map[string]any{"file_path": filepath.Join(mem, "MEMORY.md"), "content": ix.String() + "- [New](project_new.md) — a new fact\n"})
	env := append(os.Environ(), "CLAUDE_CONFIG_DIR="+home, "XDG_STATE_HOME="+filepath.Join(root, "state"), "MEMSCOPE_CONFIG="+filepath.Join(root, "none.yaml"))
	type benchCase struct {
		name string
		argv []string
		in   string
	}
	cases := []benchCase{{"true (floor)", []string{"true"}, src}}
	bins := []struct{ label, path string }{{"memscope", *bin}}
	if *hook != "" {
		bins = append(bins, struct{ label, path string }{"memscope-hook", *hook})
	}
	for _, k := range []struct{ name, in string }{{"source file", src}, {"new topic file, 200 memories", topic}, {"MEMORY.md, 200 memories", index}} {
		for _, b := range bins {
			cases = append(cases, benchCase{b.label + ": " + k.name, []string{b.path, "hook", "pre-tool-use"}, k.in})
		}
	}
	ds := make([][]time.Duration, len(cases))
	cpu := make([][]time.Duration, len(cases))
	answers := map[string]string{}
	for range *runs {
		for i, c := range cases {
			in, err := os.ReadFile(c.in)
			check(err)
			var out bytes.Buffer
			cmd := exec.Command(c.argv[0], c.argv[1:]...)
			cmd.Env, cmd.Stdin, cmd.Stdout = env, bytes.NewReader(in), &out
			t0 := time.Now()
			if err := cmd.Run(); err != nil {
				check(fmt.Errorf("%s: %w", c.name, err))
			}
			ds[i] = append(ds[i], time.Since(t0))
			cpu[i] = append(cpu[i], cmd.ProcessState.UserTime()+cmd.ProcessState.SystemTime())
			if c.argv[0] != "true" {
				if prev, ok := answers[c.in]; ok && prev != out.String() {
					check(fmt.Errorf("%s answered %q, the other binary %q", c.name, out.String(), prev))
				}
				answers[c.in] = out.String()
			}
		}
	}
	fmt.Printf("%-46s %9s %9s %9s %11s\n", "case ("+fmt.Sprint(*runs)+" runs, interleaved)", "p50 ms", "p95 ms", "max ms", "cpu p50 ms")
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	for i, c := range cases {
		slices.Sort(ds[i])
		slices.Sort(cpu[i])
		d, u := ds[i], cpu[i]
		fmt.Printf("%-46s %9.1f %9.1f %9.1f %11.1f\n", c.name, ms(d[len(d)/2]), ms(d[len(d)*95/100]), ms(d[len(d)-1]), ms(u[len(u)/2]))
	}
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "gatebench:", err)
		os.Exit(1)
	}
}

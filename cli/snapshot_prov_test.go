package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/memscope/memscope/internal/provgen"
)

// provSnapHome is provgen's home, where the model writes memory through
// Write and Edit calls in main sessions and a subagent: every command
// runs on it, origin and review with each file, and review's accept,
// reject and their undo on a copy.
func provSnapHome(t *testing.T, r *snapRunner) snapHome {
	ro, err := provgen.Write(filepath.Join(r.base, "prov"), snapshotNow)
	if err != nil {
		t.Fatal(err)
	}
	rw, err := provgen.Write(filepath.Join(r.base, "prov-rw"), snapshotNow)
	if err != nil {
		t.Fatal(err)
	}
	spec := snapHomeSpec{
		flags: []string{"--home", ro.Home}, project: ro.Project, query: "deploy day",
		replay: []string{provgen.SessionDeploy, provgen.SessionEdit}, export: []string{provgen.SessionDeploy},
		compact: provgen.SessionEdit, extract: provgen.SessionTerse, out: filepath.Join(r.base, "out", "prov"),
	}
	h := snapHome{name: "prov", roDir: ro.Root, rwDir: rw.Root, ro: readOnlyCases(spec)}
	sl, stdin := statuslineCases(spec)
	h.ro, h.stdin = append(h.ro, sl...), stdin
	for _, f := range []string{"feedback_terse.md", "project_deploy.md", "reference_dashboards.md", "user_role.md", "MEMORY.md", provgen.AgentType + "/deploy.md"} {
		name := "origin." + strings.ReplaceAll(f, "/", ".")
		h.ro = append(h.ro, snapCase{name, spec.proj("origin", f)}, snapCase{name + ".json", spec.proj("origin", f, "--json")})
	}
	h.ro = append(h.ro,
		snapCase{"origin.not-memory", spec.proj("origin", "README.md")},
		snapCase{"review.accept-unknown", spec.proj("review", "--accept", "reference_dashboards.md")},
	)
	w := spec
	w.flags, w.project = []string{"--home", rw.Home}, rw.Project
	h.rw = []snapCase{
		{"w01.review.accept", w.proj("review", "--accept", "feedback_terse.md,MEMORY.md")},
		{"w02.review.reject.json", w.proj("review", "--reject", "user_role.md", "--json")},
		{"w03.origin.after-reject", w.proj("origin")},
		{"w04.undo", w.proj("undo")},
		{"w05.review.after-undo", w.proj("review")},
		{"w06.review.accept-all.json", w.proj("review", "--accept-all", "--json")},
		{"w07.review.empty", w.proj("review")},
		// review.json is memscope's state, not memory: stat and lint
		// count the same files as before.
		{"w08.stat", w.home("stat")},
		{"w09.lint", w.proj("lint")},
	}
	return h
}

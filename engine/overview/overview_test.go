package overview_test

import (
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/memscope/memscope/engine/overview"
	"github.com/memscope/memscope/engine/projectmem"
	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/model"
)

var now = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

// source is testdata/home with its beta project open (or none).
func source(t *testing.T, project string) *overview.Source {
	t.Helper()
	dir, err := filepath.Abs("../../testdata/home")
	if err != nil {
		t.Fatal(err)
	}
	home, err := model.OpenHome(dir, model.HomeFromFlag)
	if err != nil {
		t.Fatal(err)
	}
	root := model.MountFS(testroot.New(t), filepath.ToSlash(dir), home.FS)
	env := projectmem.Env{Root: root, Home: home, UserHome: t.TempDir(), Getenv: func(string) string { return "" }, Now: now}
	return &overview.Source{Env: env, Project: project, Alive: func(int) bool { return false }}
}

// TestLinesAreIndependent: each line computed alone, in reverse order,
// each from a new source, is the line All computes with the others at
// once: no line depends on another having run, so a caller can show them
// as they come.
func TestLinesAreIndependent(t *testing.T) {
	all := overview.All(source(t, testroot.BetaProject))
	if len(all) != len(overview.Specs) {
		t.Fatalf("%d lines, want %d", len(all), len(overview.Specs))
	}
	specs := slices.Clone(overview.Specs)
	slices.Reverse(specs)
	needs := 0
	for _, sp := range specs {
		got := overview.Compute(source(t, testroot.BetaProject), sp.ID)
		i := slices.IndexFunc(all, func(l overview.Line) bool { return l.ID == sp.ID })
		if i < 0 || !reflect.DeepEqual(got, all[i]) {
			t.Errorf("%s alone: %+v\nwith the others: %+v", sp.ID, got, all[i])
		}
		// A line no pane shows (doctor's, the .replaced copies') names
		// the command that does.
		if got.Text == "" || got.Command == "" || got.Pane == "" && sp.Pane != "" {
			t.Errorf("%s: no text, pane or command: %+v", sp.ID, got)
		}
		if got.Needs {
			needs++
		}
	}
	// testdata/home has lint errors, a review inbox and malformed lines.
	if needs < 3 {
		t.Errorf("only %d lines need attention on testdata/home", needs)
	}
}

// TestNoProject: without an open project the project lines say so and
// count nothing; the home lines are computed all the same.
func TestNoProject(t *testing.T) {
	for _, l := range overview.All(source(t, "")) {
		switch l.Scope {
		case overview.ScopeProject:
			if l.Count != 0 || l.Text != "no project open" {
				t.Errorf("%s: %+v", l.ID, l)
			}
		case overview.ScopeHome:
			if l.Text == "no project open" {
				t.Errorf("%s is a home line but waits for a project", l.ID)
			}
		}
	}
	if l := overview.Compute(source(t, ""), "nope"); l.Text != "no such line: nope" {
		t.Errorf("unknown line: %+v", l)
	}
}

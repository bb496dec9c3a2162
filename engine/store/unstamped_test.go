package store

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memscope/memscope/model"
)

// In an agent's memory folder the client stamps nothing, so memscope's
// own writes do not either: a new memory has name, description and type,
// an edit leaves no modified line, and every change still undoes.
func TestUnstampedStore(t *testing.T) {
	agentFile := "---\nname: error-wrapping\ndescription: Wrap errors with %w\ntype: feedback\n---\n\nWrap them.\n"
	s, dir := openFixture(t, map[string]string{
		"MEMORY.md":         "- [Error wrapping](error-wrapping.md) — wrap with %w\n",
		"error-wrapping.md": agentFile,
	})
	if !s.Stamped() || s.Unstamped().Stamped() {
		t.Fatal("a store stamps until Unstamped turns it off")
	}
	now := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	o := WriteOptions{Now: now, SessionID: "6aa5d53d-1d02-4a1a-b312-243f356a8ea5"}
	if _, err := s.SetBody("error-wrapping.md", "Wrap them, with the operation.\n", o); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "error-wrapping.md"))
	if want := strings.Replace(agentFile, "Wrap them.", "Wrap them, with the operation.", 1); string(got) != want {
		t.Errorf("edit wrote\n%s\nwant\n%s", got, want)
	}
	ch, err := s.Create(NewMemory{Name: "migrations", Description: "Every migration has a down step", Type: model.TypeProject, Body: "Down steps."}, o)
	if err != nil {
		t.Fatal(err)
	}
	var rel string
	for _, f := range ch.Files {
		if f.Action == FileCreated {
			rel = f.Path
		}
	}
	created, _ := os.ReadFile(filepath.Join(dir, rel))
	if want := "---\nname: migrations\ndescription: Every migration has a down step\ntype: project\n---\n\nDown steps.\n"; string(created) != want {
		t.Errorf("create wrote\n%s\nwant\n%s", created, want)
	}
	for _, stamp := range []string{"node_type", "originSessionId", "modified"} {
		if bytes.Contains(created, []byte(stamp)) {
			t.Errorf("an agent memory got %s", stamp)
		}
	}
	f, _ := model.ParseMemoryFile(rel, created)
	if f.Type != model.TypeProject || f.Name != "migrations" {
		t.Errorf("created memory reads back as %+v", f)
	}
	for range 2 {
		if _, err := s.Undo(); err != nil {
			t.Fatal(err)
		}
	}
	back, _ := os.ReadFile(filepath.Join(dir, "error-wrapping.md"))
	if string(back) != agentFile {
		t.Errorf("undo left\n%s", back)
	}
	if _, err := os.Stat(filepath.Join(dir, rel)); !os.IsNotExist(err) {
		t.Errorf("undo of create left the file: %v", err)
	}
}

// Prune's overflow file, the one memory prune writes, is unstamped in an
// agent's folder too (planned and applied).
func TestUnstampedPruneOverflow(t *testing.T) {
	var ix strings.Builder
	for i := range 210 {
		ix.WriteString("- line " + strings.Repeat("x", i%7) + "\n")
	}
	s, dir := openFixture(t, map[string]string{"MEMORY.md": ix.String()})
	s.Unstamped()
	now := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	plan := s.PlanPrune(PruneOptions{Now: now})
	if !strings.Contains(plan.Diff, "index-overflow") || strings.Contains(plan.Diff, "node_type") {
		t.Fatalf("plan diff:\n%s", plan.Diff)
	}
	ch, err := s.Apply(plan, []string{"overflow"}, WriteOptions{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range ch.Files {
		data, _ := os.ReadFile(filepath.Join(dir, f.Path))
		if f.Action == FileCreated && (bytes.Contains(data, []byte("node_type")) || bytes.Contains(data, []byte("modified:"))) {
			t.Errorf("%s is stamped:\n%s", f.Path, data)
		}
	}
}

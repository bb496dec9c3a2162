package gate_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memscope/memscope/engine/gate"
	"github.com/memscope/memscope/engine/internal/enginetest"
	"github.com/memscope/memscope/model"
)

// BenchmarkJudgeMemory200 judges a new topic file in a folder of 200
// memories, reading the folder each time as the hook does.
func BenchmarkJudgeMemory200(b *testing.B) {
	dir := b.TempDir()
	rng := rand.New(rand.NewPCG(1, 2))
	var ix strings.Builder
	for i := range 200 {
		name := fmt.Sprintf("project_note_%03d.md", i)
		body := words(rng, 40)
		os.WriteFile(filepath.Join(dir, name), []byte(enginetest.FreshMemory(fmt.Sprintf("note_%03d", i), fmt.Sprintf("service %d", i), "project", body)), 0o644)
		fmt.Fprintf(&ix, "- [Note %d](%s) — service %d\n", i, name, i)
	}
	os.WriteFile(filepath.Join(dir, "MEMORY.md"), []byte(ix.String()), 0o644)
	after := []byte(enginetest.FreshMemory("new", "a new fact", "project", "The staging database is rebuilt every Sunday at 03:00 UTC."))
	t := gate.Target{Kind: gate.KindTopic, Path: filepath.Join(dir, "project_new.md"), Dir: dir, Rel: "project_new.md"}
	for b.Loop() {
		fsys := model.DirFS(dir)
		md, _ := model.ReadMemoryDir(fsys, ".")
		gate.JudgeMemory(gate.MemoryInput{Target: t, Memory: md, MemoryFS: fsys, After: after, Now: enginetest.OpsNow})
	}
}

// words is n words of a 3000-word vocabulary, frequent ones likelier (as
// engine/lint's benchmark folder): memories that share words, rarely
// whole runs.
func words(rng *rand.Rand, n int) string {
	w := make([]string, n)
	for i := range w {
		w[i] = fmt.Sprintf("w%d", int(3000*rng.Float64()*rng.Float64()))
	}
	return strings.Join(w, " ")
}

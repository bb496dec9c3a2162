package lint_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/memscope/memscope/engine/diskcache"
	"github.com/memscope/memscope/engine/internal/enginetest"
	"github.com/memscope/memscope/engine/lint"
	"github.com/memscope/memscope/engine/store"
	"github.com/memscope/memscope/model"
)

// benchMemoryFolder is n memories of 40 words each from a 3000-word
// vocabulary (every tenth a reworded copy of the one before), an index
// listing them all, and a project tree of files.
func benchMemoryFolder(b *testing.B, n, projectFiles int) (*store.Store, fstest.MapFS) {
	b.Helper()
	return benchMemoryFolderOf(b, n, 40, projectFiles)
}

// benchMemoryFolderOf is benchMemoryFolder with memories of words words.
func benchMemoryFolderOf(b *testing.B, n, wordsEach, projectFiles int) (*store.Store, fstest.MapFS) {
	b.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	word := func() string { return fmt.Sprintf("w%d", int(3000*rng.Float64()*rng.Float64())) }
	files := map[string]string{}
	var ix strings.Builder
	ix.WriteString("# Memory\n\n")
	prev := ""
	for i := 0; i < n; i++ {
		var words []string
		for k := 0; k < wordsEach; k++ {
			words = append(words, word())
		}
		body := strings.Join(words, " ")
		if i%10 == 9 {
			// A reworded repeat: the same words with every eighth replaced.
			pw := strings.Fields(prev)
			for k := 0; k < len(pw); k += 8 {
				pw[k] = word()
			}
			body = strings.Join(pw, " ")
		}
		prev = body
		body += fmt.Sprintf("\nSee `Func%d` in internal/pkg%d/file.go and [[m%03d]].\n", i, i%50, (i+1)%n)
		name := fmt.Sprintf("project_m%03d.md", i)
		files[name] = enginetest.FreshMemory(fmt.Sprintf("m%03d", i), fmt.Sprintf("Memory number %d", i), "project", body)
		fmt.Fprintf(&ix, "- [M%d](%s) — memory number %d\n", i, name, i)
	}
	files["MEMORY.md"] = ix.String()
	dir := b.TempDir()
	for rel, c := range files {
		os.WriteFile(dir+"/"+rel, []byte(c), 0o644)
	}
	s, _ := store.Open(dir, nil)
	project := fstest.MapFS{}
	for i := 0; i < projectFiles; i++ {
		project[fmt.Sprintf("internal/pkg%d/f%d.go", i%60, i)] = &fstest.MapFile{Data: []byte(fmt.Sprintf("package pkg\n\nfunc Func%d() {}\n%s\n", i, strings.Repeat("// filler line of code\n", 40)))}
	}
	return s, project
}

// BenchmarkLint lints 200 memories against a 2000-file project: every
// check including the drift search and the security scan.
func BenchmarkLint(b *testing.B) {
	s, project := benchMemoryFolder(b, 200, 2000)
	b.ReportAllocs()
	for b.Loop() {
		lint.Run(lint.Input{Memory: s.Memory(), Project: project, Now: enginetest.OpsNow})
	}
}

// BenchmarkLintNoDrift is Lint without a project tree.
func BenchmarkLintNoDrift(b *testing.B) {
	s, _ := benchMemoryFolder(b, 200, 0)
	b.ReportAllocs()
	for b.Loop() {
		lint.Run(lint.Input{Memory: s.Memory(), Now: enginetest.OpsNow})
	}
}

// BenchmarkFindDuplicates compares 1000 memories pairwise (through the
// shingle index).
func BenchmarkFindDuplicates(b *testing.B) {
	s, _ := benchMemoryFolder(b, 1000, 0)
	docs := lint.DupeDocs(s.Memory())
	b.ReportAllocs()
	for b.Loop() {
		lint.FindDuplicates(docs, 0)
	}
}

// BenchmarkPlanPrune plans (with every action's diff) for 200 memories.
func BenchmarkPlanPrune(b *testing.B) {
	s, _ := benchMemoryFolder(b, 200, 0)
	b.ReportAllocs()
	for b.Loop() {
		s.PlanPrune(store.PruneOptions{Now: enginetest.OpsNow})
	}
}

// BenchmarkRetype is one safe edit on disk: read and check, scan, journal
// (already holding 100 entries), atomic write with fsync, reload.
func BenchmarkRetype(b *testing.B) {
	s, _ := benchMemoryFolder(b, 200, 0)
	types := []model.MemoryType{model.TypeUser, model.TypeProject}
	i := 0
	b.ReportAllocs()
	for b.Loop() {
		i++
		if _, err := s.Retype("project_m000.md", types[i%2], store.WriteOptions{Now: enginetest.OpsNow}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDupeIndexFirstFind is a memo's first Find over the same 1000
// memories: what a project load's lint does on the app's start (the
// index built from nothing), against BenchmarkFindDuplicates.
func BenchmarkDupeIndexFirstFind(b *testing.B) {
	s, _ := benchMemoryFolder(b, 1000, 0)
	docs := lint.DupeDocs(s.Memory())
	b.ReportAllocs()
	for b.Loop() {
		var x lint.DupeIndex
		x.Find(docs, 0)
	}
}

// BenchmarkLintWarmStart is a start's lint of a folder the size of a W
// project's memory (80 memories of 700 words, some 370 KB) whose files
// did not change since the last run: with a new Memo (what the app did,
// everything shingled and scanned again) and with a new Memo on the
// cache the last run filled (a new Store, as a new process has).
func BenchmarkLintWarmStart(b *testing.B) {
	s, _ := benchMemoryFolderOf(b, 80, 700, 0)
	dir := b.TempDir()
	run := func(m *lint.Memo) { lint.Run(lint.Input{Memory: s.Memory(), Now: enginetest.OpsNow, Memo: m}) }
	newCache := func() *diskcache.Store { return diskcache.New(dir, model.DirFS("/"), model.OSWriteFS{}) }
	run(lint.NewMemoOn(newCache(), "/home", "folder"))
	b.Run("memo", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			run(lint.NewMemo())
		}
	})
	b.Run("cache", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			run(lint.NewMemoOn(newCache(), "/home", "folder"))
		}
	})
}

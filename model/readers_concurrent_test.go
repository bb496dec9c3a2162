package model

import (
	"os"
	"path"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/memscope/memscope/internal/testenv"
	"github.com/memscope/memscope/scripts/chaos"
)

// TestReadersWhileClaudeCodeWrites reads history, the transcript and the
// memory folder from several goroutines while the chaos writer appends
// (lines split over two writes) and replaces memory files by rename.
// Every read sees at least what the writer had finished before it began,
// reports nothing but incomplete tails, and never sees a memory file
// missing or half written; after the writer stops the counts are exact.
func TestReadersWhileClaudeCodeWrites(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name       string
		splitEvery int
	}{
		{"whole lines", 0},
		{"every other line split", 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			home := t.TempDir()
			w, err := chaos.New(chaos.Config{Home: home, Project: "/tmp/chaos-model", Seed: 3, SplitEvery: tc.splitEvery, Topics: 6, MaxSteps: testenv.Size(t, 300, 100), Pause: 500 * time.Microsecond})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := w.RunN(10); err != nil {
				t.Fatal(err)
			}
			fsys := os.DirFS(home)
			transcript := path.Join("projects", chaos.Slug("/tmp/chaos-model"), "c4a05c4a-0000-4000-8000-000000000001.jsonl")
			memDir := path.Join("projects", chaos.Slug("/tmp/chaos-model"), "memory")
			stop := make(chan struct{})
			var writing atomic.Bool
			writing.Store(true)
			var writerDone sync.WaitGroup
			var werr error
			writerDone.Add(1)
			go func() {
				defer writerDone.Done()
				defer writing.Store(false)
				_, werr = w.Run(stop)
			}()
			var tails atomic.Int64
			var readers sync.WaitGroup
			for g := 0; g < 3; g++ {
				readers.Add(1)
				go func() {
					defer readers.Done()
					// Read for as long as the writer writes, at least twice.
					for i := 0; i < 2 || writing.Load(); i++ {
						before := w.Counts()
						h, err := ReadHistory(fsys, HistoryPath)
						if err != nil {
							t.Errorf("ReadHistory: %v", err)
							return
						}
						for _, p := range h.Problems {
							if p.Kind != ProblemIncompleteTail {
								t.Errorf("history: %s [%s] while the writer appends", p.Error(), p.Kind)
							}
							tails.Add(1)
						}
						if len(h.Entries) < before.HistoryLines {
							t.Errorf("history: %d entries, the writer had finished %d lines", len(h.Entries), before.HistoryLines)
						}
						s, err := SummarizeTranscript(fsys, transcript)
						if err != nil {
							t.Errorf("SummarizeTranscript: %v", err)
							return
						}
						for _, p := range s.Problems {
							if p.Kind != ProblemIncompleteTail {
								t.Errorf("transcript: %s [%s] while the writer appends", p.Error(), p.Kind)
							}
							tails.Add(1)
						}
						if s.Records < before.TranscriptRecords || s.Responses < before.Responses {
							t.Errorf("transcript: %d records, %d responses; the writer had finished %d, %d", s.Records, s.Responses, before.TranscriptRecords, before.Responses)
						}
						md, probs := ReadMemoryDir(fsys, memDir)
						if len(probs) != 0 {
							t.Errorf("memory folder: %v (files are replaced by rename)", probs)
						}
						valid := 0
						for _, f := range md.Files {
							if !f.Invalid {
								valid++
							}
						}
						if valid < before.MemoryFiles || valid != len(md.Files) {
							t.Errorf("memory folder: %d valid of %d topic files; the writer had %d", valid, len(md.Files), before.MemoryFiles)
						}
						// Read again once the writer has written more:
						// reading the same files over and over while it
						// sleeps checks nothing new, and spends the CPU
						// the writer needs (it ran for as long as the
						// machine made the writer take).
						for i >= 1 && writing.Load() && w.Counts().Steps == before.Steps {
							time.Sleep(50 * time.Microsecond)
						}
					}
				}()
			}
			readers.Wait()
			close(stop)
			writerDone.Wait()
			if werr != nil {
				t.Fatal(werr)
			}
			want := w.Counts()
			h, err := ReadHistory(fsys, HistoryPath)
			if err != nil || len(h.Entries) != want.HistoryLines || len(h.Problems) != 0 {
				t.Errorf("final history: %d entries, problems %v, err %v; the writer wrote %d", len(h.Entries), h.Problems, err, want.HistoryLines)
			}
			s, err := SummarizeTranscript(fsys, transcript)
			wantUsage := Usage{InputTokens: want.Usage.Input, OutputTokens: want.Usage.Output, CacheCreationInputTokens: want.Usage.CacheCreation, CacheReadInputTokens: want.Usage.CacheRead}
			if err != nil || s.Records != want.TranscriptRecords || s.Responses != want.Responses || s.Usage != wantUsage || len(s.Problems) != 0 {
				t.Errorf("final transcript: %d records, %d responses, usage %+v, problems %v, err %v; the writer wrote %d, %d, %+v", s.Records, s.Responses, s.Usage, s.Problems, err, want.TranscriptRecords, want.Responses, wantUsage)
			}
			md, _ := ReadMemoryDir(fsys, memDir)
			entries := 0
			if md.Index != nil {
				entries = len(md.Index.Entries())
			}
			if len(md.Files) != want.MemoryFiles || entries != want.IndexEntries {
				t.Errorf("final memory: %d topic files, %d index entries; the writer wrote %d, %d", len(md.Files), entries, want.MemoryFiles, want.IndexEntries)
			}
			t.Logf("writer: %d steps, %d split lines; readers saw %d incomplete tails", want.Steps, want.SplitLines, tails.Load())
		})
	}
}

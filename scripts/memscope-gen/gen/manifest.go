package gen

import (
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"path/filepath"
	"time"

	"github.com/memscope/memscope/model"
)

// Manifest is everything the generator knows it wrote, for tests and
// benchmarks to check readers against. Paths are relative to Home.
// Timestamps (First/Last) are over the top-level "timestamp" members.
type Manifest struct {
	Generator string `json:"generator"`
	Seed      uint64 `json:"seed"`
	// Size is the requested transcript bytes.
	Size int64  `json:"size"`
	Home string `json:"home"`
	// Now is the synthetic home's present, for age computations.
	Now      time.Time         `json:"now"`
	Totals   Totals            `json:"totals"`
	Projects []ProjectManifest `json:"projects"`
	History  HistoryStats      `json:"history"`
}

// Totals sums the manifest.
type Totals struct {
	// Files and Bytes count every regular file written except the
	// manifest itself.
	Files                  int         `json:"files"`
	Bytes                  int64       `json:"bytes"`
	Projects               int         `json:"projects"`
	Sessions               int         `json:"sessions"`
	Transcripts            int         `json:"transcripts"`
	SubagentTranscripts    int         `json:"subagentTranscripts"`
	TranscriptBytes        int64       `json:"transcriptBytes"`
	Lines                  int         `json:"lines"`
	Records                int         `json:"records"`
	CompactBoundaries      int         `json:"compactBoundaries"`
	PartialCompactions     int         `json:"partialCompactions"`
	MicrocompactBoundaries int         `json:"microcompactBoundaries"`
	Usage                  model.Usage `json:"usage"`
	Responses              int         `json:"responses"`
	ToolResultFiles        int         `json:"toolResultFiles"`
	FileHistoryBackups     int         `json:"fileHistoryBackups"`
	MemoryFiles            int         `json:"memoryFiles"`
	IndexesOverCap         int         `json:"indexesOverCap"`
	HistoryLines           int         `json:"historyLines"`
	HashedPastes           int         `json:"hashedPastes"`
	PasteFiles             int         `json:"pasteFiles"`
	MissingPastes          int         `json:"missingPastes"`
}

// ProjectManifest is one project folder.
type ProjectManifest struct {
	// Path is the project's real path (the transcripts' cwd).
	Path     string            `json:"path"`
	Slug     string            `json:"slug"`
	Memory   MemoryStats       `json:"memory"`
	Sessions []SessionManifest `json:"sessions"`

	planIdx []int
}

// SessionManifest is one session: its main transcript and subagents.
type SessionManifest struct {
	TranscriptStats
	Subagents []TranscriptStats `json:"subagents,omitempty"`
}

func newRand(seed, stream uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, stream))
}

// total fills m.Totals from the parts and from a walk of home.
func (m *Manifest) total(home string) error {
	t := &m.Totals
	add := func(s TranscriptStats) {
		t.Transcripts++
		t.TranscriptBytes += s.Bytes
		t.Lines += s.Lines
		t.Records += s.Records
		t.CompactBoundaries += s.CompactBoundaries
		t.PartialCompactions += s.PartialCompactions
		t.MicrocompactBoundaries += s.MicrocompactBoundaries
		t.Usage.InputTokens += s.Usage.InputTokens
		t.Usage.OutputTokens += s.Usage.OutputTokens
		t.Usage.CacheCreationInputTokens += s.Usage.CacheCreationInputTokens
		t.Usage.CacheReadInputTokens += s.Usage.CacheReadInputTokens
		t.Responses += s.Responses
		t.ToolResultFiles += s.ToolResultFiles
		t.FileHistoryBackups += s.FileHistoryBackups
	}
	t.Projects = len(m.Projects)
	for _, p := range m.Projects {
		t.MemoryFiles += p.Memory.Files
		if p.Memory.IndexOverLines || p.Memory.IndexOverChars {
			t.IndexesOverCap++
		}
		for _, s := range p.Sessions {
			t.Sessions++
			add(s.TranscriptStats)
			for _, sub := range s.Subagents {
				add(sub)
				t.SubagentTranscripts++
			}
		}
	}
	t.HistoryLines = m.History.Lines
	t.HashedPastes = m.History.HashedPastes
	t.PasteFiles = m.History.PasteFiles
	t.MissingPastes = len(m.History.MissingHashes)
	return filepath.WalkDir(home, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.Type().IsRegular() || p == filepath.Join(home, manifestName) {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		t.Files++
		t.Bytes += info.Size()
		return nil
	})
}

func printSummary(w io.Writer, m *Manifest, took time.Duration) {
	t := m.Totals
	fmt.Fprintf(w, "wrote %s (seed %d) in %s\n", m.Home, m.Seed, took.Round(time.Millisecond))
	fmt.Fprintf(w, "  files %d, %.1f MB in all\n", t.Files, float64(t.Bytes)/1e6)
	fmt.Fprintf(w, "  projects %d, sessions %d, transcripts %d (%d subagent), %.1f MB, %d records\n",
		t.Projects, t.Sessions, t.Transcripts, t.SubagentTranscripts, float64(t.TranscriptBytes)/1e6, t.Records)
	fmt.Fprintf(w, "  compact boundaries %d (%d partial), microcompact %d\n", t.CompactBoundaries, t.PartialCompactions, t.MicrocompactBoundaries)
	fmt.Fprintf(w, "  usage: input %d, output %d, cache creation %d, cache read %d (%d responses)\n",
		t.Usage.InputTokens, t.Usage.OutputTokens, t.Usage.CacheCreationInputTokens, t.Usage.CacheReadInputTokens, t.Responses)
	fmt.Fprintf(w, "  memory files %d, indexes over cap %d\n", t.MemoryFiles, t.IndexesOverCap)
	fmt.Fprintf(w, "  history lines %d, hashed pastes %d, paste files %d, missing %d\n", t.HistoryLines, t.HashedPastes, t.PasteFiles, t.MissingPastes)
	fmt.Fprintf(w, "  manifest %s\n", filepath.Join(m.Home, manifestName))
}

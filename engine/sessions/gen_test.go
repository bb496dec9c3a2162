package sessions

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/memscope/memscope/engine/internal/enginetest"
	"github.com/memscope/memscope/model"
)

// genStats is the part of a scripts/memscope-gen manifest entry this test reads.
type genStats struct {
	Path                   string      `json:"path"`
	SessionID              string      `json:"sessionId"`
	CWD                    string      `json:"cwd"`
	Bytes                  int64       `json:"bytes"`
	Records                int         `json:"records"`
	CompactBoundaries      int         `json:"compactBoundaries"`
	MicrocompactBoundaries int         `json:"microcompactBoundaries"`
	Usage                  model.Usage `json:"usage"`
	Responses              int         `json:"responses"`
	First                  time.Time   `json:"first"`
	Last                   time.Time   `json:"last"`
}

type genManifest struct {
	Projects []struct {
		Slug     string `json:"slug"`
		Sessions []struct {
			genStats
			Subagents []genStats `json:"subagents"`
		} `json:"sessions"`
	} `json:"projects"`
}

// TestSessionsAgreeWithGeneratorManifest checks every row against what
// scripts/memscope-gen says it wrote, counted by the generator itself as it wrote.
func TestSessionsAgreeWithGeneratorManifest(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("-short: generates a 10 MB home with scripts/memscope-gen")
	}
	dir := filepath.Join(t.TempDir(), "home")
	if err := enginetest.RunGen(dir, "10M", "11"); err != nil {
		t.Fatalf("cannot run scripts/memscope-gen (it is in this repository): %v", err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m genManifest
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	h, err := model.OpenHome(dir, model.HomeFromFlag)
	if err != nil {
		t.Fatal(err)
	}
	rep := Summarize(Options{Home: h})
	rows := map[string]Row{}
	for _, r := range rep.Sessions {
		rows[r.ProjectSlug+"/"+r.SessionID] = r
	}
	n, subs := 0, 0
	for _, p := range m.Projects {
		for _, s := range p.Sessions {
			n++
			want := Row{SessionID: s.SessionID, Project: s.CWD, ProjectSlug: p.Slug, Kind: model.TranscriptMain, Path: s.Path,
				Subagents: len(s.Subagents), Bytes: s.Bytes, Records: s.Records, CompactBoundaries: s.CompactBoundaries,
				MicrocompactBoundaries: s.MicrocompactBoundaries, Usage: s.Usage, Responses: s.Responses, First: s.First, Last: s.Last}
			for _, a := range s.Subagents {
				subs++
				want.Bytes += a.Bytes
				want.Records += a.Records
				want.CompactBoundaries += a.CompactBoundaries
				want.MicrocompactBoundaries += a.MicrocompactBoundaries
				want.Usage = want.Usage.Add(a.Usage)
				want.SubagentUsage = want.SubagentUsage.Add(a.Usage)
				want.Responses += a.Responses
				if a.First.Before(want.First) {
					want.First = a.First
				}
				if a.Last.After(want.Last) {
					want.Last = a.Last
				}
			}
			got := rows[p.Slug+"/"+s.SessionID]
			if !got.First.Equal(want.First) || !got.Last.Equal(want.Last) {
				t.Errorf("%s: first/last %v/%v, manifest %v/%v", s.Path, got.First, got.Last, want.First, want.Last)
			}
			got.First, got.Last = want.First, want.Last
			// Cost is checked against the price table in pricing_test.go.
			got.CostUSD, got.Models, got.UnpricedModels, got.ClientCostUSD = 0, nil, nil, 0
			if len(got.Agents) != len(s.Subagents) {
				t.Errorf("%s: %d agents listed, %d subagent transcripts", s.Path, len(got.Agents), len(s.Subagents))
			}
			got.Agents = nil
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s:\n got %+v\nwant %+v", s.Path, got, want)
			}
		}
	}
	if n == 0 || subs == 0 || len(rep.Sessions) != n || len(rep.Problems) != 0 {
		t.Errorf("%d rows for %d manifest sessions (%d subagents), problems %v", len(rep.Sessions), n, subs, rep.Problems)
	}
}

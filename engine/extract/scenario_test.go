package extract

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// extractScenario is a conversation in testdata/extract with the outcome
// written by hand.
type extractScenario struct {
	Timestamp time.Time        `json:"timestamp"`
	Messages  []string         `json:"messages"`
	Existing  []ExistingMemory `json:"existing"`
	Want      struct {
		Candidates []struct {
			Type        CandidateType `json:"type"`
			Name        string        `json:"name"`
			Description string        `json:"description"`
			Why         string        `json:"why"`
		} `json:"candidates"`
		Duplicates []string `json:"duplicates"`
		Rejected   []string `json:"rejected"`
	} `json:"want"`
}

func TestRuleExtractorScenarios(t *testing.T) {
	paths, _ := filepath.Glob("testdata/extract/*.json")
	if len(paths) == 0 {
		t.Fatal("no scenarios")
	}
	for _, p := range paths {
		t.Run(filepath.Base(p), func(t *testing.T) {
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			var sc extractScenario
			if err := json.Unmarshal(data, &sc); err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			var msgs []Input
			for i, m := range sc.Messages {
				msgs = append(msgs, Input{SessionID: "scenario", UUID: string(rune('a' + i)), Timestamp: sc.Timestamp, Text: m})
			}
			res, err := RuleExtractor{}.Extract(context.Background(), msgs, sc.Existing)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Candidates) != len(sc.Want.Candidates) {
				for _, c := range res.Candidates {
					t.Logf("got %s %s %q", c.Type, c.Name, c.Description)
				}
				t.Fatalf("%d candidates, want %d", len(res.Candidates), len(sc.Want.Candidates))
			}
			for i, w := range sc.Want.Candidates {
				c := res.Candidates[i]
				if c.Type != w.Type || c.Name != w.Name || c.Description != w.Description {
					t.Errorf("candidate %d: got %s %s %q, want %s %s %q", i, c.Type, c.Name, c.Description, w.Type, w.Name, w.Description)
				}
				if w.Why != "" && !strings.Contains(c.Body, "**Why:** "+w.Why+"\n") {
					t.Errorf("candidate %d: body %q lacks why %q", i, c.Body, w.Why)
				}
				if !strings.Contains(sc.Messages[c.Provenance.MessageUUID[0]-'a'], c.Provenance.Quote) {
					t.Errorf("candidate %d: quote %q is not in its message", i, c.Provenance.Quote)
				}
			}
			var dups, rejected []string
			for _, d := range res.Duplicates {
				dups = append(dups, d.Matches)
			}
			for _, r := range res.Rejected {
				rejected = append(rejected, r.Reason)
			}
			if !slices.Equal(dups, sc.Want.Duplicates) || !slices.Equal(rejected, sc.Want.Rejected) {
				t.Errorf("duplicates %v rejected %v, want %v and %v", dups, rejected, sc.Want.Duplicates, sc.Want.Rejected)
			}
		})
	}
}

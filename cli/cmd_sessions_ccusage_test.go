package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memscope/memscope/engine/sessions"
	"github.com/memscope/memscope/internal/genhome"
	"github.com/memscope/memscope/model"
)

// ccusageBin finds ccusage 18.0.11: $MEMSCOPE_CCUSAGE, else the copy
// scripts/ccusage-install.sh puts in the repository's .cache/ccusage.
func ccusageBin(t *testing.T) string {
	t.Helper()
	return findCcusage(t, "ccusage", "MEMSCOPE_CCUSAGE", "ccusage", "scripts/ccusage-install.sh")
}

// findCcusage finds a pinned ccusage: $envVar, else the copy its install
// script puts in the repository's .cache/<cache>. The test skips, saying
// so, when there is none or no node to run it.
func findCcusage(t *testing.T, what, envVar, cache, script string) string {
	t.Helper()
	bin := os.Getenv(envVar)
	if bin == "" {
		bin = filepath.Join("..", ".cache", cache, "node_modules", ".bin", "ccusage")
	}
	if _, err := os.Stat(bin); err != nil {
		t.Skipf("%s is not installed (%v): run %s or set %s to its command", what, err, script, envVar)
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Skipf("node is not installed, so %s cannot run", what)
	}
	return bin
}

// ccusageTotals is the totals object of `ccusage session --json`, the
// same in 18.x and 20.x.
type ccusageTotals struct {
	InputTokens         int64   `json:"inputTokens"`
	OutputTokens        int64   `json:"outputTokens"`
	CacheCreationTokens int64   `json:"cacheCreationTokens"`
	CacheReadTokens     int64   `json:"cacheReadTokens"`
	TotalCost           float64 `json:"totalCost"`
}

// ccusageReport is the part of `ccusage session --json` compared here.
type ccusageReport struct {
	Sessions []struct {
		SessionID           string  `json:"sessionId"`
		ProjectPath         string  `json:"projectPath"`
		InputTokens         int64   `json:"inputTokens"`
		OutputTokens        int64   `json:"outputTokens"`
		CacheCreationTokens int64   `json:"cacheCreationTokens"`
		CacheReadTokens     int64   `json:"cacheReadTokens"`
		TotalCost           float64 `json:"totalCost"`
	} `json:"sessions"`
	Totals ccusageTotals `json:"totals"`
}

func runCcusage(t *testing.T, bin, home string) ccusageReport {
	t.Helper()
	var r ccusageReport
	runCcusageJSON(t, "ccusage", bin, home, &r)
	return r
}

// runCcusageJSON runs `ccusage session --json --offline` on home and
// decodes its output into v.
func runCcusageJSON(t *testing.T, what, bin, home string, v any) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "session", "--json", "--offline")
	cmd.Env = append(os.Environ(), "CLAUDE_CONFIG_DIR="+home)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v\n%s", what, err, stderr.String())
	}
	if err := json.Unmarshal(out, v); err != nil {
		t.Fatalf("%s output is not its JSON: %v\n%.500s", what, err, out)
	}
}

// ccusageGroups regroups a memscope report the way ccusage 18.0.11
// groups usage: it names a "session" after the folder a transcript sits
// in, so every main transcript of a project lands in one group named
// after the project's slug (project "Unknown Project"), and the
// subagents of a session in a group "subagents" of project
// "<slug>/<session id>". Groups with no usage are left out, as ccusage
// only lists groups it saw usage lines in.
func ccusageGroups(r sessions.Report) map[string]model.Usage {
	out := map[string]model.Usage{}
	add := func(k string, u model.Usage) {
		if u != (model.Usage{}) {
			out[k] = out[k].Add(u)
		}
	}
	for _, s := range r.Sessions {
		main := model.Usage{
			InputTokens:              s.Usage.InputTokens - s.SubagentUsage.InputTokens,
			OutputTokens:             s.Usage.OutputTokens - s.SubagentUsage.OutputTokens,
			CacheCreationInputTokens: s.Usage.CacheCreationInputTokens - s.SubagentUsage.CacheCreationInputTokens,
			CacheReadInputTokens:     s.Usage.CacheReadInputTokens - s.SubagentUsage.CacheReadInputTokens,
		}
		add(s.ProjectSlug+" @ Unknown Project", main)
		add("subagents @ "+s.ProjectSlug+"/"+s.SessionID, s.SubagentUsage)
	}
	return out
}

// compareWithCcusage compares usage, and with costToo the total cost (within
// 0.1 %: ccusage sums in floating point, line by line), of both reports.
// Cost is compared only on homes whose models both price: ccusage counts
// a model missing from its table (the 2.1.330 client's claude-opus-5-5)
// as $0.
func compareWithCcusage(t *testing.T, bin, home string, costToo bool) sessions.Report {
	t.Helper()
	ours := sessionsJSON(t, "--home", home)
	theirs := runCcusage(t, bin, home)
	tt := theirs.Totals
	if costToo {
		if tt.TotalCost <= 0 || math.Abs(ours.Totals.CostUSD-tt.TotalCost) > 0.001*tt.TotalCost {
			t.Errorf("total cost: memscope $%.6f, ccusage $%.6f", ours.Totals.CostUSD, tt.TotalCost)
		}
		if len(ours.Totals.UnpricedModels) > 0 {
			t.Errorf("memscope could not price %v", ours.Totals.UnpricedModels)
		}
	}
	want := model.Usage{InputTokens: tt.InputTokens, OutputTokens: tt.OutputTokens, CacheCreationInputTokens: tt.CacheCreationTokens, CacheReadInputTokens: tt.CacheReadTokens}
	if ours.Totals.Usage != want {
		t.Errorf("totals: memscope %+v, ccusage %+v", ours.Totals.Usage, want)
	}
	groups := map[string]model.Usage{}
	for _, s := range theirs.Sessions {
		u := model.Usage{InputTokens: s.InputTokens, OutputTokens: s.OutputTokens, CacheCreationInputTokens: s.CacheCreationTokens, CacheReadInputTokens: s.CacheReadTokens}
		if u != (model.Usage{}) {
			groups[s.SessionID+" @ "+s.ProjectPath] = u
		}
	}
	mine := ccusageGroups(ours)
	for k, u := range groups {
		if mine[k] != u {
			t.Errorf("group %s: memscope %+v, ccusage %+v", k, mine[k], u)
		}
	}
	for k := range mine {
		if _, ok := groups[k]; !ok {
			t.Errorf("group %s has usage in memscope only: %+v", k, mine[k])
		}
	}
	return ours
}

// TestSessionsMatchCcusage compares `memscope sessions --json` with
// `ccusage session --json --offline` (18.0.11) on a generated home, on
// testdata/home (real transcripts, broken lines, a duplicated response)
// and on a home where a response was copied into a later session whose
// path sorts first (ccusage keeps the copy in the file that starts
// first).
func TestSessionsMatchCcusage(t *testing.T) {
	bin := ccusageBin(t)
	t.Run("generated", func(t *testing.T) {
		home := filepath.Join(t.TempDir(), "home")
		if err := genhome.Run(home, "10M", "5"); err != nil {
			t.Fatal(err)
		}
		r := compareWithCcusage(t, bin, home, true)
		if len(r.Totals.Models) < 2 {
			t.Errorf("the generated home should use several models: %+v", r.Totals.Models)
		}
		if r.Totals.SubagentTranscripts == 0 || r.Totals.Usage.CacheReadInputTokens == 0 {
			t.Errorf("the generated home should have subagents and cache reads: %+v", r.Totals)
		}
	})
	t.Run("testdata home", func(t *testing.T) {
		compareWithCcusage(t, bin, "../testdata/home", false)
	})
	t.Run("copied response", func(t *testing.T) {
		home := t.TempDir()
		line := func(ts, id string, in int) string {
			return fmt.Sprintf(`{"type":"assistant","timestamp":"2026-11-11T%s.000Z","sessionId":"s","requestId":"r-%s","message":{"id":"%s","model":"claude-opus-4-5","content":[],"usage":{"input_tokens":%d,"output_tokens":1}}}`+"\n", ts, id, id, in)
		}
		files := map[string]string{
			// b starts first; a (sorting first) copies its m1 with other numbers.
			"projects/-p/b.jsonl": line("10:00:00", "m1", 10) + line("10:01:00", "m2", 20),
			"projects/-p/a.jsonl": line("11:00:00", "m1", 999) + line("11:01:00", "m3", 30),
			"projects/-q/c.jsonl": line("09:00:00", "m3", 5),
		}
		for rel, text := range files {
			p := filepath.Join(home, filepath.FromSlash(rel))
			if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		r := compareWithCcusage(t, bin, home, true)
		// m1 counts in b (10), m2 in b, m3 in c (it starts first), and a has nothing of its own.
		if r.Totals.Usage.InputTokens != 10+20+5 {
			t.Errorf("input %d, want 35", r.Totals.Usage.InputTokens)
		}
	})
}

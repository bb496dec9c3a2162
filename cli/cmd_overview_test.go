package cli

import (
	"encoding/json"
	"fmt"
	"github.com/memscope/memscope/engine/live"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memscope/memscope/engine/cleanup"
	"github.com/memscope/memscope/engine/ledger"
	"github.com/memscope/memscope/engine/overview"
)

// snapshotStdout is the stdout of a stored snapshot of home: what a
// command printed on it, as TestCommandSnapshot checks it still does.
func snapshotStdout(t *testing.T, home, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "snapshot", home, name+".golden"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	i, j := strings.Index(s, "--- stdout\n"), strings.LastIndex(s, "--- stderr\n")
	if i < 0 || j < i {
		t.Fatalf("%s/%s: not a snapshot", home, name)
	}
	return s[i+len("--- stdout\n") : j]
}

// snapshotJSON reads the JSON a command printed on home into v.
func snapshotJSON(t *testing.T, home, name string, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(snapshotStdout(t, home, name)), v); err != nil {
		t.Fatalf("%s/%s: %v", home, name, err)
	}
}

// snapshotEvents counts the session-started events of a `watch --once
// --json` snapshot (one JSON array of events).
func snapshotEvents(t *testing.T, home, name string) int {
	t.Helper()
	n := 0
	for _, ev := range onceEvents(t, home+"/"+name, snapshotStdout(t, home, name)) {
		if ev.Kind == "session-started" {
			n++
		}
	}
	return n
}

// onceEvents reads what `watch --once --json` printed: one JSON array.
func onceEvents(t *testing.T, what, out string) []live.Event {
	t.Helper()
	var evs []live.Event
	if err := json.Unmarshal([]byte(out), &evs); err != nil {
		t.Fatalf("%s: watch --once --json is not one JSON array: %v", what, err)
	}
	return evs
}

// TestOverviewCountsEqualCommands: on the demo home, testdata/home, the
// generated home and the provenance home (the one with a dropped rule),
// every line of `memscope overview --json` says the count
// the command it names prints with --json (read from the command
// snapshots, which TestCommandSnapshot keeps equal to what the commands
// print now). Each line must be non-zero on at least one home, so no
// comparison is of zeros alone.
func TestOverviewCountsEqualCommands(t *testing.T) {
	nonZero := map[overview.ID]bool{}
	for _, home := range []string{"demo", "testdata", "gen", "prov"} {
		t.Run(home, func(t *testing.T) {
			var ov overviewResult
			snapshotJSON(t, home, "overview.json", &ov)
			lines := map[overview.ID]overview.Line{}
			for _, l := range ov.Lines {
				lines[l.ID] = l
				if l.Count > 0 {
					nonZero[l.ID] = true
				}
			}
			if len(lines) != len(overview.Specs) {
				t.Fatalf("%d lines, want %d", len(lines), len(overview.Specs))
			}
			eq := func(what string, got, want int) {
				t.Helper()
				if got != want {
					t.Errorf("%s: overview says %d, the command %d", what, got, want)
				}
			}

			// export --memory: the memories linked only past the cut.
			var mem struct {
				Groups []struct {
					Files []struct {
						Type       string `json:"type"`
						IndexLine  int    `json:"indexLine"`
						IndexLoads bool   `json:"indexLoads"`
					} `json:"files"`
				} `json:"groups"`
			}
			snapshotJSON(t, home, "export.memory.json", &mem)
			cut, corr := 0, 0
			for _, g := range mem.Groups {
				for _, f := range g.Files {
					if f.IndexLine > 0 && !f.IndexLoads {
						cut++
						if f.Type == "feedback" {
							corr++
						}
					}
				}
			}
			eq("cut", lines[overview.Cut].Count, cut)
			eq("cut corrections", lines[overview.Cut].Part(overview.PartCorrections), corr)

			// lint: errors, warnings, stale warnings by type, the index's
			// dropped entries.
			var lint struct {
				Errors   int `json:"errors"`
				Warnings int `json:"warnings"`
				Findings []struct {
					Kind    string `json:"kind"`
					Message string `json:"message"`
				} `json:"findings"`
				Cap struct {
					DroppedEntries []json.RawMessage `json:"droppedEntries"`
				} `json:"cap"`
			}
			snapshotJSON(t, home, "lint.json", &lint)
			eq("lint errors", lines[overview.Lint].Part(overview.PartErrors), lint.Errors)
			eq("lint warnings", lines[overview.Lint].Part(overview.PartWarnings), lint.Warnings)
			eq("cut entries", lines[overview.Cut].Part(overview.PartEntries), len(lint.Cap.DroppedEntries))
			stale := map[string]int{}
			n := 0
			for _, f := range lint.Findings {
				if f.Kind == "stale" {
					typ, _, _ := strings.Cut(f.Message, " ")
					stale[typ]++
					n++
				}
			}
			eq("stale", lines[overview.Stale].Count, n)
			for typ, c := range stale {
				eq("stale "+typ, lines[overview.Stale].Part(typ), c)
			}

			var rev struct {
				Items []json.RawMessage `json:"items"`
			}
			snapshotJSON(t, home, "review.json", &rev)
			eq("review", lines[overview.Review].Count, len(rev.Items))

			var prompt struct {
				Totals struct {
					Tokens int `json:"tokens"`
				} `json:"totals"`
				Layers []struct {
					Status string `json:"status"`
					Tokens int    `json:"tokens"`
				} `json:"layers"`
			}
			snapshotJSON(t, home, "prompt.json", &prompt)
			eq("prompt tokens", lines[overview.Prompt].Count, prompt.Totals.Tokens)
			big := 0
			for _, l := range prompt.Layers {
				if l.Status == "loaded" {
					big = max(big, l.Tokens)
				}
			}
			if p := lines[overview.Prompt].Parts; len(p) < 2 || p[1].Count != big {
				t.Errorf("prompt: biggest layer %+v, want one of %d tokens", p, big)
			}

			var sec struct {
				Stores []struct {
					Store    string `json:"store"`
					Findings int    `json:"findings"`
				} `json:"stores"`
				Findings []json.RawMessage `json:"findings"`
				Copies   []struct {
					Secrets int `json:"secrets"`
				} `json:"copies"`
			}
			snapshotJSON(t, home, "secrets.json", &sec)
			eq("secrets", lines[overview.Secrets].Count, len(sec.Findings))
			for _, s := range sec.Stores {
				eq("secrets in "+s.Store, lines[overview.Secrets].Part(s.Store), s.Findings)
			}
			eq("scrub copies", lines[overview.Secrets].Part(overview.PartCopies), len(sec.Copies))

			var within struct {
				Totals []struct {
					Kind string `json:"kind"`
					Now  struct {
						Items int `json:"items"`
					} `json:"now"`
					Soon struct {
						Items int `json:"items"`
					} `json:"soon"`
				} `json:"totals"`
			}
			snapshotJSON(t, home, "cleanup.forecast.within7.json", &within)
			for _, k := range within.Totals {
				if k.Kind == "transcript" {
					eq("cleanup within 7 days", lines[overview.Cleanup].Count, k.Now.Items+k.Soon.Items)
					eq("cleanup at the next start", lines[overview.Cleanup].Part(overview.PartNow), k.Now.Items)
				}
			}
			var forecast struct {
				Lost struct {
					Sessions []json.RawMessage `json:"sessions"`
				} `json:"lost"`
			}
			snapshotJSON(t, home, "cleanup.forecast.json", &forecast)
			eq("lost", lines[overview.Lost].Count, len(forecast.Lost.Sessions))

			eq("running", lines[overview.Autocompact].Part(overview.PartRunning), snapshotEvents(t, home, "watch.once.json"))

			var stat struct {
				Malformed []json.RawMessage `json:"malformed"`
			}
			snapshotJSON(t, home, "stat.json", &stat)
			eq("problems", lines[overview.Problems].Count, len(stat.Malformed))

			var doc struct {
				Unknown []json.RawMessage `json:"unknown"`
			}
			snapshotJSON(t, home, "doctor.json", &doc)
			eq("doctor", lines[overview.Doctor].Count, len(doc.Unknown))

			// sessions: the sessions with .replaced copies (earlierHistory).
			var sess struct {
				Sessions []struct {
					Earlier []json.RawMessage `json:"earlierHistory"`
				} `json:"sessions"`
			}
			snapshotJSON(t, home, "sessions.json", &sess)
			withCopies := 0
			for _, se := range sess.Sessions {
				if len(se.Earlier) > 0 {
					withCopies++
				}
			}
			eq("replaced", lines[overview.Replaced].Count, withCopies)

			// replay --lost --all: the rules lost at compactions within
			// the horizon, over every session.
			var lost struct {
				Sessions []ledger.Session `json:"sessions"`
			}
			snapshotJSON(t, home, "replay.lost.all.json", &lost)
			since := snapshotNow.AddDate(0, 0, -overview.DefaultHorizon)
			rules, compactions := 0, 0
			for _, se := range lost.Sessions {
				for _, b := range se.Boundaries {
					if b.Time.Before(since) {
						continue
					}
					compactions++
					for _, it := range b.Lost {
						if it.Kind == ledger.KindRule {
							rules++
						}
					}
				}
			}
			eq("dropped rules", lines[overview.Dropped].Count, rules)
			eq("dropped at compactions", lines[overview.Dropped].Part("compactions"), compactions)
		})
	}
	for _, sp := range overview.Specs {
		// No snapshot home has a session running near autocompact or a
		// session lost to a sweep: TestOverviewLiveLostAndSoon has both.
		// None has a vault, a gate log or a .replaced copy:
		// engine/overview's TestVaultHeldReplacedLines has all three.
		switch sp.ID {
		case overview.Autocompact, overview.Lost, overview.Vault, overview.Held, overview.Replaced:
			continue
		}
		if !nonZero[sp.ID] {
			t.Errorf("line %s is 0 on every home: the comparison proves nothing", sp.ID)
		}
	}
}

// overviewJSON runs `memscope overview --json` with args.
func overviewJSON(t *testing.T, e *env, out *lockedBuffer, args ...string) map[overview.ID]overview.Line {
	t.Helper()
	out.reset()
	if code := run(e, append([]string{"overview", "--json"}, args...)); code != 0 {
		t.Fatalf("overview exit %d", code)
	}
	var r overviewResult
	if err := json.Unmarshal([]byte(out.String()), &r); err != nil {
		t.Fatalf("overview --json: %v\n%s", err, out.String())
	}
	lines := map[overview.ID]overview.Line{}
	for _, l := range r.Lines {
		lines[l.ID] = l
	}
	return lines
}

// TestOverviewLiveLostAndSoon: on a home with a running session past
// the warning level, two sessions history names whose transcripts are
// gone, and a transcript the 30-day sweep takes in five days, the
// Overview's autocompact, lost and cleanup lines say what `watch --once`
// and `cleanup --forecast` (--within 7) print, and the counts known by
// construction (1 near autocompact of 1 running, 2 lost, 1 soon).
func TestOverviewLiveLostAndSoon(t *testing.T) {
	h := newWatchHome(t)
	h.answer(150000)
	old := time.Now().Add(-40 * 24 * time.Hour).UnixMilli()
	hist, err := os.ReadFile(h.path("history.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for i, sid := range []string{"aaaaaaaa-0000-4000-8000-000000000001", "aaaaaaaa-0000-4000-8000-000000000002"} {
		hist = fmt.Appendf(hist, `{"display":"gone %d","timestamp":%d,"project":%q,"sessionId":%q}`+"\n", i, old+int64(i), filepath.ToSlash(h.proj), sid)
	}
	h.write("history.jsonl", string(hist))
	soon := "projects/" + h.slug + "/bbbbbbbb-0000-4000-8000-000000000003.jsonl"
	h.write(soon, `{"type":"user","sessionId":"bbbbbbbb-0000-4000-8000-000000000003","message":{"role":"user","content":"old"}}`+"\n")
	at := time.Now().Add(-25 * 24 * time.Hour)
	if err := os.Chtimes(h.path(soon), at, at); err != nil {
		t.Fatal(err)
	}

	var out, errb lockedBuffer
	e := h.env(&out, &errb, nil, func() {})
	lines := overviewJSON(t, e, &out, "--home", h.dir, "--project", h.proj)

	out.reset()
	if code := run(e, []string{"cleanup", "--forecast", "--within", "7", "--json", "--home", h.dir}); code != 0 {
		t.Fatalf("cleanup exit %d: %s", code, errb.String())
	}
	var f cleanup.Forecast
	if err := json.Unmarshal([]byte(out.String()), &f); err != nil {
		t.Fatal(err)
	}
	soonN := 0
	for _, k := range f.Totals {
		if k.Kind == cleanup.KindTranscript {
			soonN = k.Now.Items + k.Soon.Items
		}
	}
	out.reset()
	if code := run(e, []string{"watch", "--once", "--json", "--home", h.dir}); code != 0 {
		t.Fatalf("watch exit %d: %s", code, errb.String())
	}
	started := len(onceEvents(t, "watch --once --json", out.String()))

	for _, c := range []struct {
		what            string
		got, cmd, known int
	}{
		{"lost", lines[overview.Lost].Count, len(f.Lost.Sessions), 2},
		{"cleanup within 7 days", lines[overview.Cleanup].Count, soonN, 1},
		{"running", lines[overview.Autocompact].Part(overview.PartRunning), started, 1},
		{"near autocompact", lines[overview.Autocompact].Count, 1, 1},
	} {
		if c.got != c.cmd || c.got != c.known {
			t.Errorf("%s: overview %d, command %d, by construction %d", c.what, c.got, c.cmd, c.known)
		}
	}
}

func (l *lockedBuffer) reset() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.b.Reset()
}

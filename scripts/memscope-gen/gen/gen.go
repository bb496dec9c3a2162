// Package gen is scripts/memscope-gen: it writes a synthetic Claude home
// in the real on-disk formats, for memscope's benchmarks and scale tests.
// Tests call Run in their own process (internal/genhome) instead of
// building and starting the command.
//
//	go run ./scripts/memscope-gen -out DIR -size W|W/2|W/4|<bytes> -seed N
//
// The output depends only on the flags. The standard workload W is 30
// projects × 10 sessions with about 1 GB of transcripts (compacting every
// ~150k tokens of context), 80 memory files per project (some indexes over
// the caps) and 100 000 history lines with ~10% hashed pastes. Smaller
// sizes keep the per-session shape and scale the number of sessions and
// history lines with the bytes. Everything the generator knows it wrote
// (per-transcript records, boundaries, usage sums, history and paste
// counts) goes to DIR/manifest.json so tests can check readers against it.
package gen

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/memscope/memscope/model"
)

// The standard workload W.
const (
	wTranscriptBytes    = 1_000_000_000
	wSessions           = 300
	sessionsPerProject  = 10
	wHistoryLines       = 100_000
	memoriesPerProject  = 80
	manifestName        = "manifest.json"
	generatorIdentifier = "memscope scripts/gen 1"
	// defaultWork is the folder the projects are under unless -work
	// says otherwise: a test whose home sits beside a project of its own
	// under a temporary folder puts both there, so the two sort the same
	// wherever the temporary folder is.
	defaultWork = "/home/dev/work"
)

// baseTime is "now" for the synthetic home: fixed, so output repeats.
var baseTime = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

// options are the parsed flags.
type options struct {
	out      string
	size     int64
	seed     uint64
	memories int
	history  int
	// work is the folder the projects' paths are under (their cwd).
	work string
}

// Run is the command: it parses args as scripts/memscope-gen's flags,
// writes the home, prints a summary on stdout and returns the exit code
// (2 for bad flags, 1 when writing fails).
func Run(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("gen", flag.ContinueOnError)
	fl.SetOutput(stderr)
	out := fl.String("out", "", "folder to write the home into (must be empty or absent)")
	size := fl.String("size", "W/4", "transcript bytes: W (1 GB), W/2, W/4, or a number of bytes (suffixes K, M, G)")
	seed := fl.Uint64("seed", 1, "seed; the same seed and size give the same files")
	memories := fl.Int("memories", memoriesPerProject, "memory files per project")
	history := fl.Int("history", -1, "history lines (default: 100 000 × size/W, at least 50)")
	work := fl.String("work", defaultWork, "absolute folder the projects' paths (and the live sessions' cwd) are under; nothing is written there")
	if err := fl.Parse(args); err != nil {
		return 2
	}
	n, err := parseSize(*size)
	if *out == "" || err != nil || !strings.HasPrefix(*work, "/") {
		fmt.Fprintf(stderr, "gen: need -out DIR, a valid -size (%v) and an absolute -work\n", err)
		return 2
	}
	opts := options{out: *out, size: n, seed: *seed, memories: *memories, history: *history, work: strings.TrimSuffix(*work, "/")}
	began := time.Now()
	m, err := generate(opts)
	if err != nil {
		fmt.Fprintf(stderr, "gen: %v\n", err)
		return 1
	}
	printSummary(stdout, m, time.Since(began))
	return 0
}

// parseSize reads W, W/2, W/4 (any W/k) or a byte count with an optional
// K, M or G suffix (powers of 1000).
func parseSize(s string) (int64, error) {
	s = strings.TrimSpace(s)
	if s == "W" {
		return wTranscriptBytes, nil
	}
	if k, ok := strings.CutPrefix(s, "W/"); ok {
		d, err := strconv.ParseInt(k, 10, 64)
		if err != nil || d <= 0 {
			return 0, fmt.Errorf("bad size %q", s)
		}
		return wTranscriptBytes / d, nil
	}
	mult := int64(1)
	switch {
	case strings.HasSuffix(s, "K"):
		mult, s = 1000, strings.TrimSuffix(s, "K")
	case strings.HasSuffix(s, "M"):
		mult, s = 1000_000, strings.TrimSuffix(s, "M")
	case strings.HasSuffix(s, "G"):
		mult, s = 1000_000_000, strings.TrimSuffix(s, "G")
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v <= 0 {
		return 0, fmt.Errorf("bad size %q", s)
	}
	return v * mult, nil
}

// generate writes the whole home and its manifest.
func generate(o options) (*Manifest, error) {
	if o.work == "" {
		o.work = defaultWork
	}
	if err := ensureEmpty(o.out); err != nil {
		return nil, err
	}
	home, err := filepath.Abs(o.out)
	if err != nil {
		return nil, fmt.Errorf("resolve %s: %w", o.out, err)
	}
	m := &Manifest{Generator: generatorIdentifier, Seed: o.seed, Size: o.size, Home: home, Now: baseTime}
	plans := planSessions(home, o, m)
	results := make([]sessionResult, len(plans))
	jobs := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Go(func() {
			for i := range jobs {
				results[i] = writeSession(plans[i])
			}
		})
	}
	for i := range plans {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	var hist []historyProject
	for pi := range m.Projects {
		p := &m.Projects[pi]
		hp := historyProject{path: p.Path}
		for _, si := range p.planIdx {
			res := results[si]
			if res.Err != nil {
				return nil, res.Err
			}
			p.Sessions = append(p.Sessions, SessionManifest{TranscriptStats: res.Main, Subagents: res.Subagents})
			hp.sessions = append(hp.sessions, res.Main.SessionID)
		}
		hist = append(hist, hp)
		if p.Memory, err = writeMemory(home, p.Slug, pi, o.memories, baseTime, o.seed); err != nil {
			return nil, err
		}
	}
	lines := o.history
	if lines < 0 {
		lines = max(50, int(int64(wHistoryLines)*o.size/wTranscriptBytes))
	}
	if m.History, err = writeHistory(home, lines, hist, baseTime.Add(-90*24*time.Hour), o.seed); err != nil {
		return nil, err
	}
	if err := writeExtras(home, o.work); err != nil {
		return nil, err
	}
	if err := m.total(home); err != nil {
		return nil, err
	}
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encode manifest: %w", err)
	}
	if err := os.WriteFile(filepath.Join(home, manifestName), append(data, '\n'), 0o644); err != nil {
		return nil, fmt.Errorf("write manifest: %w", err)
	}
	return m, nil
}

// ensureEmpty creates dir, or accepts it when it exists and is empty, so
// a run never mixes with older files.
func ensureEmpty(dir string) error {
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return os.MkdirAll(dir, 0o700)
	}
	if err != nil {
		return fmt.Errorf("read %s: %w", dir, err)
	}
	if len(ents) > 0 {
		return fmt.Errorf("%s is not empty", dir)
	}
	return nil
}

// planSessions decides every project and session (ids, paths, budgets,
// seeds) before writing anything.
func planSessions(home string, o options, m *Manifest) []sessionPlan {
	n := max(2, int((int64(wSessions)*o.size+wTranscriptBytes/2)/wTranscriptBytes))
	nProjects := (n + sessionsPerProject - 1) / sessionsPerProject
	r := newRand(o.seed, 0x9a)
	// Budgets vary ±40% around the mean, then are scaled to sum to size.
	weights := make([]float64, n)
	var sum float64
	for i := range weights {
		weights[i] = 0.6 + 0.8*r.Float64()
		sum += weights[i]
	}
	var plans []sessionPlan
	for p := 0; p < nProjects; p++ {
		dir := fmt.Sprintf("%s/%s-%s-%02d", o.work, words[r.IntN(len(words))], words[r.IntN(len(words))], p)
		if p == 4 {
			// One path over 200 characters, to exercise the long-slug rule.
			dir = o.work + "/" + strings.Repeat("deeply_nested_folder/", 10) + "project-with-a-long-path"
		}
		pm := ProjectManifest{Path: dir, Slug: model.Slug(dir)}
		for s := 0; s < sessionsPerProject && len(plans) < n; s++ {
			i := len(plans)
			pm.planIdx = append(pm.planIdx, i)
			plans = append(plans, sessionPlan{
				Home: home, Slug: pm.Slug, SID: newUUID(r), CWD: dir,
				Start:  baseTime.Add(-time.Duration(60*24-r.IntN(59*24)) * time.Hour),
				Budget: int64(float64(o.size) * weights[i] / sum),
				Seed:   [2]uint64{o.seed, r.Uint64()},
			})
		}
		m.Projects = append(m.Projects, pm)
	}
	return plans
}

// writeExtras writes the small stores: settings, user CLAUDE.md, two live
// sessions and three ~/.claude.json backups.
func writeExtras(home, work string) error {
	cwd, err := json.Marshal(work)
	if err != nil {
		return err
	}
	files := map[string]string{
		"settings.json": `{"cleanupPeriodDays":30,"autoMemoryEnabled":true}` + "\n",
		"CLAUDE.md":     "# Personal preferences\n\nKeep answers short. Run the tests before saying done.\n",
		"sessions/41001.json": fmt.Sprintf(`{"pid":41001,"sessionId":"%s","cwd":%s,"startedAt":%d,"status":"busy"}`,
			"00000000-0000-4000-8000-000000000001", cwd, baseTime.Add(-time.Hour).UnixMilli()),
		"sessions/41002.json": fmt.Sprintf(`{"pid":41002,"sessionId":"%s","cwd":%s,"startedAt":%d,"status":"idle"}`,
			"00000000-0000-4000-8000-000000000002", cwd, baseTime.Add(-2*time.Hour).UnixMilli()),
	}
	for i := 0; i < 3; i++ {
		files[fmt.Sprintf("backups/.claude.json.backup.%d", baseTime.Add(-time.Duration(i)*time.Hour).UnixMilli())] = `{"projects":{}}` + "\n"
	}
	for rel, text := range files {
		if err := writeFileMkdir(filepath.Join(home, filepath.FromSlash(rel)), []byte(text)); err != nil {
			return err
		}
	}
	return nil
}

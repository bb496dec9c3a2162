package cli

import (
	"bytes"
	"encoding/json"
	"hash/fnv"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/memscope/memscope/demo"
	"github.com/memscope/memscope/internal/filehistgen"
	"github.com/memscope/memscope/internal/format"
	"github.com/memscope/memscope/internal/genhome"
	"github.com/memscope/memscope/internal/testroot"
)

// snapHomeSpec is what the common command lines need to know of a home.
type snapHomeSpec struct {
	// flags select the home (--demo, or --home DIR).
	flags []string
	// project is the project whose memory and prompt are shown ("" for
	// the command's default).
	project string
	// query is a prompt to run recall for.
	query string
	// replay are sessions to replay, export to export (the first also as
	// HTML); compact and extract are the sessions those commands run on.
	replay, export   []string
	compact, extract string
	// fh is a session with file history, turn one of its prompts and file
	// one of its tracking paths.
	fh, turn, file string
	// out is a folder for what commands write outside the home.
	out string
}

func (s snapHomeSpec) home(args ...string) []string {
	return append(slices.Clone(args), s.flags...)
}

func (s snapHomeSpec) proj(args ...string) []string {
	args = s.home(args...)
	if s.project != "" {
		args = append(args, "--project", s.project)
	}
	return args
}

// smallWindow is a context window small enough for the generated home's
// session to autocompact (and for the flush to run before it).
var smallWindow = []string{"--window", "40000", "--max-output", "2000"}

// readOnlyCases are every command's read-only forms (plans, dry runs and
// archive, which only reads the home) on one home, as text and as JSON.
func readOnlyCases(s snapHomeSpec) []snapCase {
	c := []snapCase{
		{"stat", s.home("stat")},
		{"stat.json", s.home("stat", "--json")},
		{"doctor", s.home("doctor")},
		{"doctor.json", s.home("doctor", "--json")},
		{"sessions", s.home("sessions")},
		{"sessions.json", s.home("sessions", "--json")},
		{"completion.values.sessions", s.home("completion", "values", "sessions")},
		{"completion.values.projects", s.home("completion", "values", "projects")},
		{"prompt", s.proj("prompt")},
		{"prompt.json", s.proj("prompt", "--json")},
		{"prompt.query", s.proj("prompt", "--query", s.query)},
		{"prompt.query.json", s.proj("prompt", "--query", s.query, "--json")},
		{"prompt.query.recall-on", s.proj("prompt", "--query", s.query, "--recall", "on")},
		{"prompt.text", s.proj("prompt", "--text")},
		{"lint", s.proj("lint")},
		{"lint.json", s.proj("lint", "--json")},
		{"prune.dry-run", s.proj("prune", "--dry-run")},
		{"prune.dry-run.json", s.proj("prune", "--dry-run", "--json")},
		{"undo.list", s.proj("undo", "--list")},
		{"undo.list.json", s.proj("undo", "--list", "--json")},
		{"hooks.status", s.proj("hooks", "status")},
		{"hooks.status.json", s.proj("hooks", "status", "--json")},
		{"trash", s.proj("trash")},
		{"trash.json", s.proj("trash", "--json")},
		{"cleanup.forecast", s.home("cleanup", "--forecast")},
		{"cleanup.forecast.json", s.home("cleanup", "--forecast", "--json")},
		{"cleanup.forecast.within7.json", s.home("cleanup", "--forecast", "--within", "7", "--json")},
		{"cleanup.forecast.days7", s.home("cleanup", "--forecast", "--days", "7", "--limit", "0")},
		{"export.memory", s.proj("export", "--memory")},
		{"export.memory.json", s.proj("export", "--memory", "--format", "json")},
		{"files", s.home("files")},
		{"files.json", s.home("files", "--json")},
		{"archive.json", s.home("archive", "--to", filepath.Join(s.out, "archive"), "--json")},
		{"archive.all", s.home("archive", "--older-than", "0", "--to", filepath.Join(s.out, "archive-all.tar.gz"))},
		{"compact." + format.ShortID(s.compact), s.home("compact", s.compact)},
		{"compact." + format.ShortID(s.compact) + ".json", s.home("compact", s.compact, "--json")},
		{"compact." + format.ShortID(s.compact) + ".manual", s.home("compact", s.compact, "--manual", "--preserve", "2")},
		{"compact." + format.ShortID(s.compact) + ".window", s.home(append([]string{"compact", s.compact}, smallWindow...)...)},
		{"compact." + format.ShortID(s.compact) + ".window.flush.json", s.home(append([]string{"compact", s.compact, "--flush", "--json"}, smallWindow...)...)},
		{"extract." + format.ShortID(s.extract), s.home("extract", s.extract)},
		{"extract." + format.ShortID(s.extract) + ".json", s.home("extract", s.extract, "--json")},
		{"search", s.home("search", "memory")},
		{"search.json", s.home("search", "memory", "--json")},
		{"search.project.regex", s.proj("search", "--regex", `mem(ory|o)\b`, "--in", "memory,claudemd,history,pastes", "--case")},
		{"search.none", s.home("search", "no such words anywhere")},
		{"watch.once", s.home("watch", "--once")},
		{"watch.once.json", s.home("watch", "--once", "--json")},
		{"origin", s.proj("origin")},
		{"origin.json", s.proj("origin", "--json")},
		{"review", s.proj("review")},
		{"review.json", s.proj("review", "--json")},
		{"overview", s.proj("overview")},
		{"overview.json", s.proj("overview", "--json")},
		{"replay.lost.all.json", s.home("replay", "--lost", "--all", "--json")},
		{"loads", s.proj("loads")},
		{"loads.json", s.proj("loads", "--json")},
		{"secrets", s.home("secrets")},
		{"secrets.json", s.home("secrets", "--json")},
		{"secrets.project", s.proj("secrets")},
		{"secrets.scrub", s.home("secrets", "--scrub", "--idle", "0")},
		{"secrets.scrub.json", s.home("secrets", "--scrub", "--idle", "0", "--json")},
		// the vault is written outside the home, as an archive is.
		{"vault.sync.json", s.home("vault", "sync", "--vault", filepath.Join(s.out, "vault"), "--json")},
		{"vault.list", s.home("vault", "list", "--vault", filepath.Join(s.out, "vault"))},
		{"vault.du.json", s.home("vault", "du", "--vault", filepath.Join(s.out, "vault"), "--json")},
		{"vault.verify", s.home("vault", "verify", "--vault", filepath.Join(s.out, "vault"))},
	}
	if len(s.replay) > 0 {
		c = append(c, snapCase{"vault.restore.dry-run", s.home("vault", "restore", s.replay[0], "--vault", filepath.Join(s.out, "vault"), "--dry-run")})
	}
	for _, id := range s.replay {
		c = append(c,
			snapCase{"replay." + format.ShortID(id), s.home("replay", id)},
			snapCase{"replay." + format.ShortID(id) + ".json", s.home("replay", id, "--json")},
		)
	}
	for i, id := range s.export {
		c = append(c,
			snapCase{"export." + format.ShortID(id), s.home("export", id)},
			snapCase{"export." + format.ShortID(id) + ".json", s.home("export", id, "--format", "json")},
		)
		if i == 0 {
			c = append(c, snapCase{"export." + format.ShortID(id) + ".html", s.home("export", id, "--format", "html")})
		}
	}
	if s.fh != "" {
		c = append(c, fileHistoryCases(s)...)
	}
	return c
}

// statuslineCases are the status line for the session the spec
// compacts, as text and JSON, and the input each reads on stdin.
func statuslineCases(s snapHomeSpec) ([]snapCase, map[string]string) {
	in := statusInput(s, "")
	return []snapCase{
		{"statusline", s.home("statusline")},
		{"statusline.json", s.home("statusline", "--json")},
	}, map[string]string{"statusline": in, "statusline.json": in}
}

// statusInput is the JSON Claude Code pipes to its statusLine command,
// for the session the spec compacts, started in the spec's project;
// extra is more fields (the client's context_window figures).
func statusInput(s snapHomeSpec, extra string) string {
	transcript := ""
	if len(s.flags) == 2 && s.flags[0] == "--home" {
		if m, _ := filepath.Glob(filepath.Join(s.flags[1], "projects", "*", s.compact+".jsonl")); len(m) == 1 {
			transcript = m[0]
		}
	}
	in, _ := json.Marshal(map[string]any{
		"hook_event_name": "Status", "session_id": s.compact, "transcript_path": transcript, "cwd": s.project,
		"model":     map[string]string{"id": "claude-opus-4-5", "display_name": "Opus"},
		"workspace": map[string]string{"current_dir": s.project, "project_dir": s.project},
		"version":   "2.1.331",
	})
	if extra != "" {
		in = append(in[:len(in)-1], ","+extra+"}"...)
	}
	return string(in)
}

// fileHistoryCases are `memscope files SESSION` and its read-only views.
func fileHistoryCases(s snapHomeSpec) []snapCase {
	p := "files." + format.ShortID(s.fh)
	return []snapCase{
		{p, s.home("files", s.fh)},
		{p + ".json", s.home("files", s.fh, "--json")},
		{p + ".turn", s.home("files", s.fh, "--turn", s.turn)},
		{p + ".turn.json", s.home("files", s.fh, "--turn", s.turn, "--json")},
		{p + ".file", s.home("files", s.fh, "--file", s.file)},
		{p + ".file.json", s.home("files", s.fh, "--file", s.file, "--json")},
		{p + ".diff", s.home("files", s.fh, "--file", s.file, "--diff", "1..disk")},
		{p + ".diff.json", s.home("files", s.fh, "--file", s.file, "--diff", "1..disk", "--json")},
		{p + ".rewind-plan", s.home("files", s.fh, "--rewind", s.turn)},
		{p + ".rewind-plan.json", s.home("files", s.fh, "--rewind", s.turn, "--json")},
		{p + ".restore-plan", s.home("files", s.fh, "--file", s.file, "--restore", "1")},
	}
}

// writeCases change the home (and the projects' files) and show the
// result; they run in order on a copy made for them.
func writeCases(r *snapRunner, s snapHomeSpec) ([]snapCase, map[string]func(t *testing.T)) {
	compacted := filepath.Join(s.out, "compacted.jsonl")
	after := map[string]func(t *testing.T){
		"w13.compact.out": func(t *testing.T) { r.nameNewIDs(t, s.flags[1], s.compact, compacted) },
	}
	c := []snapCase{
		{"w01.prune.apply", s.proj("prune", "--apply")},
		{"w02.undo.list", s.proj("undo", "--list")},
		{"w03.undo", s.proj("undo")},
		{"w04.undo.nothing.json", s.proj("undo", "--json")},
		{"w05.prune.apply-delete.json", s.proj("prune", "--apply", "--stale-action", "delete", "--json")},
		{"w06.trash", s.proj("trash")},
		{"w07.undo.json", s.proj("undo", "--json")},
		{"w08.undo.list.json", s.proj("undo", "--list", "--json")},
		{"w10.extract.write", s.home("extract", s.extract, "--write")},
		{"w11.extract.write-again.json", s.home("extract", s.extract, "--write", "--json")},
		{"w12.compact.flush-write.json", s.home(append([]string{"compact", s.compact, "--flush", "--write", "--json"}, smallWindow...)...)},
		{"w13.compact.out", s.home(append([]string{"compact", s.compact, "--out", compacted}, smallWindow...)...)},
		{"w14.replay.compacted", []string{"replay", compacted}},
		{"w15.export.out", s.home("export", s.export[0], "--out", filepath.Join(s.out, "export.md"))},
		{"w16.secrets.scrub.yes", s.home("secrets", "--scrub", "--idle", "0", "--yes")},
		{"w17.secrets.after", s.home("secrets")},
	}
	if s.fh != "" {
		c = append(c,
			snapCase{"w20.files.rewind", s.home("files", s.fh, "--rewind", s.turn, "--yes")},
			snapCase{"w21.files.undo", s.home("files", s.fh, "--undo")},
			snapCase{"w22.files.restore.json", s.home("files", s.fh, "--file", s.file, "--restore", "1", "--yes", "--json")},
			snapCase{"w23.files.undo.json", s.home("files", s.fh, "--undo", "--json")},
		)
	}
	return c, after
}

// demoSnapHome is the embedded demo, materialized at fixed paths: every
// command runs there (on shop-api, the other projects for a few), a
// subset again with --demo, and the writes on a second copy.
func demoSnapHome(t *testing.T, r *snapRunner) snapHome {
	ro := materializeSnapDemo(t, r, "demo")
	rw := materializeSnapDemo(t, r, "demo-rw")
	spec := snapHomeSpec{
		flags: []string{"--home", ro.Home}, project: ro.Project("shop-api"), query: "how do we test against the database?",
		replay:  []string{demo.SessionCheckout, demo.SessionRewind, demo.SessionNotes, demo.SessionInfra},
		export:  []string{demo.SessionRewind, demo.SessionInfra},
		compact: demo.SessionCheckout, extract: demo.SessionRewind,
		fh: demo.SessionRewind, file: "internal/payments/webhook.go", out: filepath.Join(r.base, "out", "demo"),
	}
	spec.turn = lastFileHistoryTurn(t, r, []string{"files", demo.SessionRewind, "--home", ro.Home, "--json"})
	h := snapHome{name: "demo", roDir: ro.Root, rwDir: rw.Root, ro: readOnlyCases(spec)}
	sl, stdin := statuslineCases(spec)
	h.ro, h.stdin = append(h.ro, sl...), stdin
	for _, p := range []string{"notes-site", "infra"} {
		other := spec
		other.project = ro.Project(p)
		h.ro = append(h.ro,
			snapCase{"prompt." + p, other.proj("prompt", "--query", "build the site")},
			snapCase{"prompt." + p + ".json", other.proj("prompt", "--json")},
			snapCase{"lint." + p, other.proj("lint")},
			snapCase{"prune.dry-run." + p, other.proj("prune", "--dry-run")},
			snapCase{"export.memory." + p, other.proj("export", "--memory")},
			snapCase{"sessions." + p, other.proj("sessions")},
		)
	}
	// Agent memory: the project-scope reviewer and the user-scope planner.
	h.ro = append(h.ro,
		snapCase{"lint.agent-reviewer", spec.proj("lint", "--agent", "reviewer")},
		snapCase{"lint.agent-planner.json", spec.proj("lint", "--agent", "planner@user", "--json")},
		snapCase{"prune.dry-run.agent-reviewer", spec.proj("prune", "--dry-run", "--agent", "reviewer")},
		snapCase{"export.memory.agent-planner", spec.proj("export", "--memory", "--agent", "planner")},
		snapCase{"lint.agent-unknown", spec.proj("lint", "--agent", "nobody")},
	)
	// --demo itself (its own temporary home and default project), for a
	// few command lines: each run materializes the demo. Not the
	// commands that show folder times (cleanup, archive, the files list):
	// the demo leaves its folders at the wall clock's time.
	d := spec
	d.flags, d.project = []string{"--demo"}, ""
	demoFlag := map[string]bool{
		"stat.json": true, "sessions": true, "prompt": true, "lint.json": true, "prune.dry-run": true,
		"undo.list.json": true, "trash": true, "replay.7c0d5e92": true, "export.7c0d5e92.json": true,
		"compact.3b9e2c41": true, "extract.7c0d5e92.json": true, "files.7c0d5e92.turn": true,
	}
	for _, c := range readOnlyCases(d) {
		if demoFlag[c.name] {
			delete(demoFlag, c.name)
			c.name = "demo-flag." + c.name
			h.ro = append(h.ro, c)
		}
	}
	if len(demoFlag) > 0 {
		t.Fatalf("--demo cases that are not read-only cases: %v", slices.Sorted(maps.Keys(demoFlag)))
	}
	spec.flags, spec.project, spec.out = []string{"--home", rw.Home}, rw.Project("shop-api"), filepath.Join(r.base, "out", "demo-rw")
	h.rw, h.after = writeCases(r, spec)
	return h
}

// materializeSnapDemo writes the demo under base/name, with each folder's
// time set to its newest entry's (the demo sets its files' times only),
// and names the path hashes its file history may show.
func materializeSnapDemo(t *testing.T, r *snapRunner, name string) demo.Layout {
	t.Helper()
	l, err := demo.Materialize(filepath.Join(r.base, name), snapshotNow)
	if err != nil {
		t.Fatal(err)
	}
	var rels []string
	err = filepath.WalkDir(l.Root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(l.Root, p)
			rels = append(rels, rel)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	r.demoFiles = rels
	r.trackHashes(l.Root, rels)
	folderTimesFromEntries(t, l.Root)
	return l
}

// testdataSnapHome is testdata/home, copied: the commands never see the
// checkout's folder, and the writes change a copy only.
func testdataSnapHome(t *testing.T, r *snapRunner) snapHome {
	ro := filepath.Join(r.base, "testdata", "home")
	rw := filepath.Join(r.base, "testdata-rw", "home")
	for _, dst := range []string{ro, rw} {
		copyTree(t, filepath.Join("..", "testdata", "home"), dst)
		spreadTimes(t, r, dst)
	}
	// The beta project's two sessions, a broken one with a subagent, an
	// empty one and one in the old sessions/ layout.
	beta, beta2, bad := "668e1d4c-98ed-55ff-b990-a2cdf6449cee", "fedcb1e2-dbe4-5555-90b5-52df88de5bed", "9d2c6a10-0000-4000-8000-000000000001"
	spec := snapHomeSpec{
		project: testroot.BetaProject, query: "terse answers please",
		replay:  []string{beta, beta2, bad, "00000000-0000-4000-8000-00000000e000", "5e0e8a7b-1111-4222-8333-444455556666"},
		export:  []string{beta, bad},
		compact: beta2, extract: beta2,
		flags: []string{"--home", ro}, out: filepath.Join(r.base, "out", "testdata"),
	}
	h := snapHome{name: "testdata", roDir: ro, rwDir: filepath.Dir(rw), ro: readOnlyCases(spec)}
	h.ro = append(h.ro,
		snapCase{"sessions.project.json", spec.proj("sessions", "--json")},
		snapCase{"files." + format.ShortID(beta), spec.home("files", beta)},
		// The client's own figures win over the transcript's; input that
		// is not the client's JSON, none at all, or a wrong flag print an
		// empty line and exit 0.
		snapCase{"statusline.context-window.json", spec.home("statusline", "--json")},
		snapCase{"statusline.bad-input", spec.home("statusline")},
		snapCase{"statusline.no-input", spec.home("statusline")},
		snapCase{"statusline.bad-flag", spec.home("statusline", "--nope")},
	)
	sl, stdin := statuslineCases(spec)
	h.ro, h.stdin = append(h.ro, sl...), stdin
	stdin["statusline.context-window.json"] = statusInput(spec, `"context_window":{"context_window_size":200000,"current_usage":{"input_tokens":5,"cache_read_input_tokens":150000,"cache_creation_input_tokens":900,"output_tokens":40}}`)
	stdin["statusline.bad-input"] = "{not json"
	stdin["statusline.bad-flag"] = "{}"
	spec.flags, spec.out = []string{"--home", rw}, filepath.Join(r.base, "out", "testdata-rw")
	h.rw, h.after = writeCases(r, spec)
	return h
}

// genSnapHome is a small home from scripts/memscope-gen (one project, two sessions
// with a compaction and subagents, memories, history with pastes) plus
// filehistgen's session, whose project folder is under the root so
// restores can write it. The generator's project is under the root too
// (gen/dev/work, a folder nothing creates): lists that sort projects by
// path then come out in one order wherever the temporary folder is (a
// /home/dev/... project sorted before a root under /tmp and after one
// under /dev/shm).
func genSnapHome(t *testing.T, r *snapRunner) snapHome {
	ro := filepath.Join(r.base, "gen")
	rw := filepath.Join(r.base, "gen-rw")
	runScriptsGen(t, filepath.Join(ro, "home"), filepath.Join(ro, "dev", "work"))
	data, err := os.ReadFile(filepath.Join(ro, "home", "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Projects []struct {
			Path     string
			Sessions []struct {
				SessionID string `json:"sessionId"`
			}
		}
	}
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	if len(m.Projects) == 0 || len(m.Projects[0].Sessions) < 2 {
		t.Fatalf("scripts/memscope-gen wrote %+v, want a project with two sessions", m.Projects)
	}
	// The manifest is the generator's, not part of a Claude home.
	if err := os.Remove(filepath.Join(ro, "home", "manifest.json")); err != nil {
		t.Fatal(err)
	}
	copyTree(t, filepath.Join(ro, "home"), filepath.Join(rw, "home"))
	tracked := slices.Sorted(maps.Keys(filehistgen.Versions))
	for _, root := range []string{ro, rw} {
		l, err := filehistgen.Write(root, snapshotNow.Add(-50*time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		r.trackHashes(l.CWD, tracked)
		r.trackContentHashes(t, filepath.Join(root, "home"))
		spreadTimes(t, r, root)
	}
	p := m.Projects[0]
	s1, s2 := p.Sessions[0].SessionID, p.Sessions[1].SessionID
	spec := snapHomeSpec{
		project: p.Path, query: "the worker output cache",
		replay: []string{s1, s2, filehistgen.SessionID}, export: []string{filehistgen.SessionID, s1},
		compact: s1, extract: s1,
		fh: filehistgen.SessionID, turn: filehistgen.U2, file: "README.md",
		flags: []string{"--home", filepath.Join(ro, "home")}, out: filepath.Join(r.base, "out", "gen"),
	}
	h := snapHome{name: "gen", roDir: ro, rwDir: rw, ro: readOnlyCases(spec)}
	sl, stdin := statuslineCases(spec)
	h.ro, h.stdin = append(h.ro, sl...), stdin
	app := spec
	app.project = filepath.Join(ro, "work", "app")
	h.ro = append(h.ro,
		snapCase{"prompt.app", app.proj("prompt")},
		snapCase{"lint.app.json", app.proj("lint", "--json")},
	)
	spec.flags, spec.out = []string{"--home", filepath.Join(rw, "home")}, filepath.Join(r.base, "out", "gen-rw")
	h.rw, h.after = writeCases(r, spec)
	return h
}

// nameNewIDs adds the uuids of the records compact --out appended to
// session's transcript in home (those the copy has and it has not) to
// the ids normalize replaces.
func (r *snapRunner) nameNewIDs(t *testing.T, home, session, compacted string) {
	t.Helper()
	orig, err := filepath.Glob(filepath.Join(home, "projects", "*", session+".jsonl"))
	if err != nil || len(orig) != 1 {
		t.Fatalf("transcript of %s in %s: %v %v", session, home, orig, err)
	}
	old := map[string]bool{}
	for _, id := range recordIDs(t, orig[0]) {
		old[id] = true
	}
	for _, id := range recordIDs(t, compacted) {
		if !old[id] && !slices.Contains(r.fresh, id) {
			r.fresh = append(r.fresh, id)
		}
	}
}

// recordIDs are the uuids of a transcript's records, in file order.
func recordIDs(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, line := range bytes.Split(data, []byte("\n")) {
		var rec struct {
			UUID string `json:"uuid"`
		}
		if json.Unmarshal(line, &rec) == nil && rec.UUID != "" {
			ids = append(ids, rec.UUID)
		}
	}
	return ids
}

// runScriptsGen writes a ~1.5 MB home with scripts/memscope-gen (seed and size
// fixed: the same files every time), its projects under work ("" for the
// generator's /home/dev/work).
func runScriptsGen(t *testing.T, dir, work string) {
	t.Helper()
	var flags []string
	if work != "" {
		flags = []string{"-work", work}
	}
	if err := genhome.Run(dir, "1500K", "7", append(flags, "-memories", "6", "-history", "60")...); err != nil {
		t.Fatal(err)
	}
}

// lastFileHistoryTurn is the newest turn `files SESSION --json` lists.
func lastFileHistoryTurn(t *testing.T, r *snapRunner, args []string) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if code := run(r.env(t, &stdout, &stderr), args); code != 0 {
		t.Fatalf("memscope %s: exit %d: %s", strings.Join(args, " "), code, stderr.String())
	}
	var fh struct {
		Turns []struct {
			MessageID string `json:"messageId"`
		} `json:"turns"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &fh); err != nil || len(fh.Turns) == 0 {
		t.Fatalf("memscope %s: no turns (%v)", strings.Join(args, " "), err)
	}
	return fh.Turns[len(fh.Turns)-1].MessageID
}

// copyTree copies the files, folders and symbolic links under src to dst.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		to := filepath.Join(dst, rel)
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(target, to)
		case d.IsDir():
			return os.MkdirAll(to, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(to, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// walkDeepestFirst calls fn for every file and folder under dir (not
// symbolic links), children before their folder: setting a folder's time
// after its entries' keeps it.
func walkDeepestFirst(t *testing.T, dir string, fn func(p string, d fs.DirEntry)) {
	t.Helper()
	var paths []string
	ents := map[string]fs.DirEntry{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type()&fs.ModeSymlink == 0 {
			paths = append(paths, p)
			ents[p] = d
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Sort(sort.Reverse(sort.StringSlice(paths)))
	for _, p := range paths {
		fn(p, ents[p])
	}
}

// spreadTimes gives every file and folder under dir a modification time
// between 1 hour and 45 days before snapshotNow, chosen by its path as
// the snapshot shows it (a slug or path hash of the root changes from run
// to run): a checkout's or a generator's times are when it ran, and ages
// (cleanup, staleness) must not depend on that.
func spreadTimes(t *testing.T, r *snapRunner, dir string) {
	t.Helper()
	walkDeepestFirst(t, dir, func(p string, _ fs.DirEntry) {
		rel, _ := filepath.Rel(dir, p)
		h := fnv.New32a()
		h.Write([]byte(r.normalize(filepath.ToSlash(rel), "")))
		mt := snapshotNow.Add(-time.Hour - time.Duration(h.Sum32()%45)*24*time.Hour)
		if err := os.Chtimes(p, mt, mt); err != nil {
			t.Fatal(err)
		}
	})
}

// folderTimesFromEntries sets every folder's time under dir to its newest
// entry's, as if the entries had just been written into it.
func folderTimesFromEntries(t *testing.T, dir string) {
	t.Helper()
	walkDeepestFirst(t, dir, func(p string, d fs.DirEntry) {
		if !d.IsDir() {
			return
		}
		ents, err := os.ReadDir(p)
		if err != nil {
			t.Fatal(err)
		}
		var newest time.Time
		for _, e := range ents {
			if info, err := e.Info(); err == nil && info.ModTime().After(newest) {
				newest = info.ModTime()
			}
		}
		if newest.IsZero() {
			newest = snapshotNow
		}
		if err := os.Chtimes(p, newest, newest); err != nil {
			t.Fatal(err)
		}
	})
}

// TestSnapshotProjectsSortWhereverTheRootIs: in each snapshot home the
// projects are all under the root ($ROOT, the test's temporary folder)
// or none is. Commands list projects in path order, so a home mixing
// the two (a fixed /home/dev/... beside $ROOT/...) printed a different
// order when the temporary folder sorted before /home (/dev/shm) than
// after it (/tmp): the snapshots then held only for some TMPDIRs.
func TestSnapshotProjectsSortWhereverTheRootIs(t *testing.T) {
	for _, home := range []string{"demo", "testdata", "gen", "prov"} {
		var under, outside []string
		for _, p := range strings.Fields(snapshotStdout(t, home, "completion.values.projects")) {
			if strings.HasPrefix(p, "$ROOT/") {
				under = append(under, p)
			} else {
				outside = append(outside, p)
			}
		}
		if len(under) > 0 && len(outside) > 0 {
			t.Errorf("%s: projects %q are under the root and %q are not: their order depends on where TMPDIR is", home, under, outside)
		}
		if len(under)+len(outside) == 0 {
			t.Errorf("%s: completion values projects lists no project", home)
		}
	}
}

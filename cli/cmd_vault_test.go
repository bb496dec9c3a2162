package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/memscope/memscope/demo"
	"github.com/memscope/memscope/engine/vault"
	"github.com/memscope/memscope/internal/faultfs"
	"github.com/memscope/memscope/model"
)

const demoSession = "7c0d5e92-1a3b-4f8c-b2d4-9e6f13a8c702"

// A SessionEnd hook's event arrives on a stdin the client keeps open:
// vault sync --hook answers once the object is complete, finds the home
// from the transcript's path, and keeps that session (and only it).
func TestVaultSyncAsAHook(t *testing.T) {
	l, err := demo.Materialize(t.TempDir(), time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	tr := filepath.Join(l.Home, "projects", model.Slug(l.Project("shop-api")), demoSession+".jsonl")
	vdir := filepath.Join(t.TempDir(), "vault")
	e, out, errb := testEnv(t)
	pr, pw := io.Pipe()
	defer pw.Close()
	go fmt.Fprintf(pw, `{"session_id":%q,"transcript_path":%q,"cwd":"/x","hook_event_name":"SessionEnd","reason":"exit"}`, demoSession, tr)
	e.stdin = pr
	done := make(chan int, 1)
	go func() { done <- run(e, []string{"vault", "sync", "--hook", "--vault", vdir, "--json"}) }()
	var code int
	select {
	case code = <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("vault sync --hook did not answer with stdin left open")
	}
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	var h vaultHookResult
	if err := json.Unmarshal(out.Bytes(), &h); err != nil || h.Skipped != "" || h.Synced == nil {
		t.Fatalf("hook result: %s (%v)", out, err)
	}
	if h.Home != l.Home || h.Session != demoSession {
		t.Errorf("hook synced %s of %s, want %s of %s", h.Session, h.Home, demoSession, l.Home)
	}
	list, err := vault.Open(vdir, e.root, nil).List(nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 || list[0].Session != demoSession {
		t.Errorf("the vault after the hook holds %+v, want the one session", list)
	}
}

// A hook never fails the client: bad input, no session, or a home that
// cannot be read all end with exit 0 and say why.
func TestVaultHookNeverFails(t *testing.T) {
	for name, in := range map[string]string{
		"malformed":  `{"session_id": `,
		"no session": `{"hook_event_name":"PreCompact"}`,
		"bad id":     `{"session_id":"../x","transcript_path":"/nowhere/projects/p/x.jsonl"}`,
		"no home":    `{"session_id":"abc","transcript_path":"/nowhere/projects/p/abc.jsonl"}`,
	} {
		e, out, errb := testEnv(t)
		e.stdin = strings.NewReader(in)
		if code := run(e, []string{"vault", "sync", "--hook", "--vault", filepath.Join(t.TempDir(), "v")}); code != 0 {
			t.Errorf("%s: exit %d: %s", name, code, errb)
		}
		if !strings.Contains(out.String(), "nothing synced") {
			t.Errorf("%s: %q does not say nothing was synced", name, out)
		}
	}
}

// demoWithVault materializes the demo home and returns a runner of
// memscope commands on it with a vault of the test's (stdout and stderr
// together, and the exit code).
func demoWithVault(t *testing.T) (demo.Layout, func(args ...string) (string, int)) {
	t.Helper()
	l, err := demo.Materialize(t.TempDir(), time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	vflags := []string{"--home", l.Home, "--vault", filepath.Join(t.TempDir(), "vault")}
	return l, func(args ...string) (string, int) {
		e, out, errb := testEnv(t)
		code := run(e, append(args, vflags...))
		return out.String() + errb.String(), code
	}
}

// syncAndSweep syncs the demo home into its vault and deletes the demo
// session's transcript as the sweep would; it returns the transcript's
// path and its bytes.
func syncAndSweep(t *testing.T, l demo.Layout, cmd func(args ...string) (string, int)) (string, []byte) {
	t.Helper()
	if out, code := cmd("vault", "sync"); code != 0 {
		t.Fatalf("sync: %d %s", code, out)
	}
	tr := filepath.Join(l.Home, "projects", model.Slug(l.Project("shop-api")), demoSession+".jsonl")
	want, _ := os.ReadFile(tr)
	os.Remove(tr)
	return tr, want
}

// Through the CLI: sync, the sweep deletes a session, list puts it
// first as lost, restore brings it back byte for byte, and --undo
// removes what the restore wrote.
func TestVaultRestoreThroughTheCLI(t *testing.T) {
	l, cmd := demoWithVault(t)
	tr, want := syncAndSweep(t, l, cmd)
	out, _ := cmd("vault", "list", "--lost")
	if lines := strings.Split(strings.TrimSpace(out), "\n"); len(lines) != 1 || !strings.HasPrefix(lines[0], demoSession) || !strings.Contains(lines[0], "LOST") {
		t.Fatalf("list --lost: %q", out)
	}
	out, code := cmd("vault", "restore", demoSession, "--json")
	if code != 0 {
		t.Fatalf("restore: %d %s", code, out)
	}
	var rep vault.RestoreReport
	json.Unmarshal([]byte(out), &rep)
	if got, _ := os.ReadFile(tr); string(got) != string(want) || rep.ID == "" {
		t.Fatalf("restored transcript differs, or no restore id: %s", out)
	}
	if out, code := cmd("vault", "restore", "--undo", rep.ID); code != 0 || !strings.Contains(out, "1 file removed") {
		t.Fatalf("restore --undo: %d %s", code, out)
	}
	if _, err := os.Stat(tr); err == nil {
		t.Errorf("the undone restore left the transcript")
	}
}

// cleanup --forecast says which transcripts the sweep deletes the vault
// holds as they are: all of them after a sync, one fewer once one grows.
func TestForecastSaysWhatTheVaultKeeps(t *testing.T) {
	l, err := demo.Materialize(t.TempDir(), time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	data := t.TempDir()
	forecast := func() cleanupForecastVault {
		e, out, errb := testEnv(t)
		e.getenv = func(k string) string {
			if k == "XDG_DATA_HOME" {
				return data
			}
			return ""
		}
		if code := run(e, []string{"cleanup", "--forecast", "--home", l.Home, "--json"}); code != 0 {
			t.Fatalf("exit %d: %s", code, errb)
		}
		var f cleanupForecastVault
		if err := json.Unmarshal(out.Bytes(), &f); err != nil {
			t.Fatal(err)
		}
		return f
	}
	if f := forecast(); f.Vault != nil {
		t.Fatalf("without a vault the forecast says %+v", f.Vault)
	}
	e, _, errb := testEnv(t)
	e.getenv = func(k string) string {
		if k == "XDG_DATA_HOME" {
			return data
		}
		return ""
	}
	if code := run(e, []string{"vault", "sync", "--home", l.Home}); code != 0 {
		t.Fatalf("sync: %s", errb)
	}
	f := forecast()
	if f.Vault == nil || f.Vault.Sessions == 0 || f.Vault.Kept != f.Vault.Sessions {
		t.Fatalf("after a sync: %+v, want every transcript the sweep deletes kept", f.Vault)
	}
	tr := filepath.Join(l.Home, "projects", model.Slug(l.Project("shop-api")), demoSession+".jsonl")
	fh, _ := os.OpenFile(tr, os.O_APPEND|os.O_WRONLY, 0)
	fh.WriteString(`{"type":"user","sessionId":"` + demoSession + `"}` + "\n")
	fh.Close()
	old := time.Date(2026, 11, 20, 11, 0, 0, 0, time.UTC)
	os.Chtimes(tr, old, old)
	g := forecast()
	if g.Vault.Kept != f.Vault.Kept-1 || len(g.Vault.NotKept) != 1 || !strings.HasSuffix(g.Vault.NotKept[0], demoSession+".jsonl") {
		t.Errorf("after the transcript grew: %+v, want it named not kept", g.Vault)
	}
}

// cleanupForecastVault is the part of cleanup --forecast --json the
// vault test reads.
type cleanupForecastVault struct {
	Vault *struct {
		Sessions int      `json:"sessions"`
		Kept     int      `json:"kept"`
		NotKept  []string `json:"notKept"`
	} `json:"vault"`
}

func TestSessionOfPath(t *testing.T) {
	for p, want := range map[string]string{
		"projects/-a/abc.jsonl":                   "abc",
		"projects/-a/abc/subagents/agent-x.jsonl": "abc",
		"projects/-a/memory/MEMORY.md":            "",
		"file-history/abc/0123@v1":                "abc",
		"history.jsonl":                           "",
		"projects/-a/notes.txt":                   "",
	} {
		got, ok := sessionOfPath(p)
		if string(got) != want || ok != (want != "") {
			t.Errorf("sessionOfPath(%q) = %q %v, want %q", p, got, ok, want)
		}
	}
}

// watch --vault keeps the whole home at start, then each session whose
// files change.
func TestWatchKeepsChangedSessions(t *testing.T) {
	l, err := demo.Materialize(t.TempDir(), time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	data := t.TempDir()
	e, _, errb := testEnv(t)
	e.getenv = func(k string) string {
		if k == "XDG_DATA_HOME" {
			return data
		}
		return ""
	}
	home := homeOfDir(t, l.Home)
	w := &watchRun{e: e, opts: watchOptions{vault: true}, home: home}
	w.keepAll()
	if !strings.Contains(errb.String(), "kept the home") {
		t.Fatalf("watch --vault at start: %q", errb)
	}
	slug := model.Slug(l.Project("shop-api"))
	tr := filepath.Join(l.Home, "projects", slug, demoSession+".jsonl")
	fh, _ := os.OpenFile(tr, os.O_APPEND|os.O_WRONLY, 0)
	fh.WriteString(`{"type":"user","sessionId":"` + demoSession + `"}` + "\n")
	fh.Close()
	errb.Reset()
	w.keep([]string{"projects/" + slug + "/" + demoSession + ".jsonl", "projects/" + slug + "/memory/MEMORY.md"})
	if !strings.Contains(errb.String(), "kept session "+demoSession+" (0 new, 1 changed") {
		t.Errorf("after an append: %q", errb)
	}
}

func homeOfDir(t *testing.T, dir string) *model.Home {
	t.Helper()
	h, err := model.OpenHome(dir, model.HomeFromFlag)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// A restore is journaled in the home: memscope undo (the command every
// change of memscope's is taken back with) removes the files it wrote,
// and a second undo finds the restore gone from the journal.
func TestVaultRestoreUndoneByUndo(t *testing.T) {
	l, cmd := demoWithVault(t)
	tr, want := syncAndSweep(t, l, cmd)
	if out, code := cmd("vault", "restore", demoSession); code != 0 || !strings.Contains(out, "memscope undo") {
		t.Fatalf("restore: %d %s", code, out)
	}
	if got, _ := os.ReadFile(tr); string(got) != string(want) {
		t.Fatal("the restored transcript differs from the one swept")
	}
	undo := func() (string, int) {
		e, out, errb := testEnv(t)
		code := run(e, []string{"undo", "--home", l.Home, "--project", l.Project("shop-api"), "--json"})
		return out.String() + errb.String(), code
	}
	out, code := undo()
	if code != 0 || !strings.Contains(out, "put back session "+demoSession+" from the vault") {
		t.Fatalf("undo: %d %s", code, out)
	}
	if _, err := os.Stat(tr); err == nil {
		t.Fatal("memscope undo left the restored transcript")
	}
	if out, _ := undo(); strings.Contains(out, "from the vault") {
		t.Errorf("a second undo undid the restore again: %s", out)
	}
}

// restore --undo takes back what the restore wrote in the home it wrote
// into (the --to one), never in the main home, which holds the same
// bytes; naming another home refuses the undo and names both.
func TestVaultUndoRestoreStaysInItsHome(t *testing.T) {
	l, _ := demoWithVault(t)
	vdir := filepath.Join(t.TempDir(), "vault")
	run1 := func(getenv func(string) string, args ...string) (string, int) {
		e, out, errb := testEnv(t)
		if getenv != nil {
			e.getenv = getenv
		}
		code := run(e, append(args, "--vault", vdir))
		return out.String() + errb.String(), code
	}
	if out, code := run1(nil, "vault", "sync", "--home", l.Home); code != 0 {
		t.Fatalf("sync: %d %s", code, out)
	}
	other := t.TempDir()
	out, code := run1(nil, "vault", "restore", demoSession, "--home", l.Home, "--to", other, "--json")
	if code != 0 {
		t.Fatalf("restore --to: %d %s", code, out)
	}
	var rep vault.RestoreReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil || rep.ID == "" || rep.Written == 0 {
		t.Fatalf("restore --to: %s (%v)", out, err)
	}
	rel := filepath.Join("projects", model.Slug(l.Project("shop-api")), demoSession+".jsonl")
	mainTr, otherTr := filepath.Join(l.Home, rel), filepath.Join(other, rel)
	if _, err := os.Stat(otherTr); err != nil {
		t.Fatalf("restore --to wrote no transcript in %s: %v", other, err)
	}
	out, code = run1(nil, "vault", "restore", "--undo", rep.ID, "--home", l.Home)
	if code == 0 || !strings.Contains(out, other) || !strings.Contains(out, l.Home) {
		t.Errorf("undo with another --home: exit %d %q, want a refusal naming both homes", code, out)
	}
	if _, err := os.Stat(mainTr); err != nil {
		t.Fatalf("undo removed the main home's transcript: %v", err)
	}
	env := func(k string) string {
		if k == "CLAUDE_CONFIG_DIR" {
			return l.Home
		}
		return ""
	}
	if out, code := run1(env, "vault", "restore", "--undo", rep.ID); code != 0 || !strings.Contains(out, fmt.Sprintf("%d files removed", rep.Written)) {
		t.Fatalf("undo: %d %s", code, out)
	}
	if _, err := os.Stat(mainTr); err != nil {
		t.Errorf("undo removed the main home's transcript: %v", err)
	}
	if _, err := os.Stat(otherTr); err == nil {
		t.Errorf("undo left the transcript the restore wrote in %s", other)
	}
}

// --dry-run does nothing: with prune --empty-trash, prune --undo and
// restore --undo, which cannot say what they would do, it is refused
// and the trash and the restored files stay.
func TestVaultDryRunNeverDeletes(t *testing.T) {
	l, _ := demoWithVault(t)
	vdir := filepath.Join(t.TempDir(), "vault")
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	cmd := func(args ...string) (string, int) {
		e, out, errb := testEnv(t)
		e.now = func() time.Time { return now }
		code := run(e, append(args, "--home", l.Home, "--vault", vdir))
		return out.String() + errb.String(), code
	}
	tr, _ := syncAndSweep(t, l, cmd)
	if out, code := cmd("vault", "sync"); code != 0 {
		t.Fatalf("sync after the sweep: %d %s", code, out)
	}
	now = now.AddDate(0, 0, 2)
	out, code := cmd("vault", "prune", "--keep-days", "1", "--json")
	var p vault.PruneReport
	if err := json.Unmarshal([]byte(out), &p); code != 0 || err != nil || p.ID == "" || p.Files == 0 {
		t.Fatalf("prune: %d %s (%v)", code, out, err)
	}
	trash, _ := os.ReadDir(filepath.Join(vdir, "trash"))
	if len(trash) == 0 {
		t.Fatal("the prune put nothing in the trash")
	}
	for _, args := range [][]string{
		{"vault", "prune", "--empty-trash", "--dry-run"},
		{"vault", "prune", "--undo", p.ID, "--dry-run"},
		{"vault", "restore", "--undo", "x", "--dry-run"},
	} {
		if out, code := cmd(args...); code != 2 || !strings.Contains(out, "--dry-run") {
			t.Errorf("%v: exit %d %q, want a usage error about --dry-run", args, code, out)
		}
	}
	if after, _ := os.ReadDir(filepath.Join(vdir, "trash")); len(after) != len(trash) {
		t.Errorf("prune --empty-trash --dry-run emptied the trash (%d entries, had %d)", len(after), len(trash))
	}
	if _, err := os.Stat(tr); err == nil {
		t.Errorf("the swept transcript is back")
	}
}

// restore --to warns of the sweep of the home it writes into: there a
// 1-day cleanupPeriodDays deletes the files again, whatever the source
// home's settings say.
func TestVaultRestoreWarnsOfTheTargetsSweep(t *testing.T) {
	_, cmd := demoWithVault(t)
	if out, code := cmd("vault", "sync"); code != 0 {
		t.Fatalf("sync: %d %s", code, out)
	}
	other := t.TempDir()
	if err := os.WriteFile(filepath.Join(other, "settings.json"), []byte(`{"cleanupPeriodDays": 1}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out, code := cmd("vault", "restore", demoSession, "--to", other, "--dry-run")
	if code != 0 || !strings.Contains(out, "cleanupPeriodDays (1)") {
		t.Errorf("restore --to a home sweeping after 1 day: %d %q, want the warning with its period", code, out)
	}
}

// A pack file name is untrusted (anything can be put in the vault's
// folder): verify and du print a leftover pack's name on one line (a
// newline in it cannot forge a report line) and without its terminal
// control sequences.
func TestVaultLeftoverPackNameSanitized(t *testing.T) {
	l, _ := demoWithVault(t)
	vdir := filepath.Join(t.TempDir(), "vault")
	cmd := func(args ...string) (string, int) {
		e, out, errb := testEnv(t)
		code := run(e, append(args, "--home", l.Home, "--vault", vdir))
		return out.String() + errb.String(), code
	}
	if out, code := cmd("vault", "sync"); code != 0 {
		t.Fatalf("sync: %d %s", code, out)
	}
	if err := os.WriteFile(filepath.Join(vdir, "packs", "evil\x1b]0;pwned\x07\nforged      all is well.pack"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, action := range []string{"verify", "du"} {
		out, _ := cmd("vault", action)
		if !strings.Contains(out, "leftover") || !strings.Contains(out, "evil") {
			t.Fatalf("%s does not name the leftover pack: %q", action, out)
		}
		if strings.ContainsAny(out, "\x1b\x07") || strings.Contains(out, "\nforged") {
			t.Errorf("%s printed the pack name's control characters or newline: %q", action, out)
		}
	}
}

// vault sync runs with the collector at vaultSyncGCPercent unless GOGC
// is set (then the environment's stands), and puts the old target back
// when it is done. The target is read at the vault's first write.
func TestVaultSyncRaisesGCUnlessGOGCIsSet(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	for _, gogc := range []string{"", "100"} {
		e, _, errb := testEnv(t)
		e.getenv = func(k string) string {
			if k == "GOGC" {
				return gogc
			}
			return ""
		}
		during := -1
		e.writes = &faultfs.FS{Base: e.writes, OnCall: func(faultfs.Step, string) {
			if during < 0 {
				during = debug.SetGCPercent(100)
				debug.SetGCPercent(during)
			}
		}}
		home := filepath.Join(t.TempDir(), "home")
		if err := os.CopyFS(home, os.DirFS("../testdata/home")); err != nil {
			t.Fatal(err)
		}
		if code := run(e, []string{"vault", "sync", "--home", home, "--vault", filepath.Join(t.TempDir(), "v"), "--json"}); code != 0 {
			t.Fatalf("exit %d: %s", code, errb)
		}
		checkRaisedGC(t, "the sync", gogc, during, vaultSyncGCPercent)
	}
}

// checkRaisedGC checks a command that raises the collector's target to
// raised (raiseGC) unless GOGC is set (gogc): during its run the target
// was during, and it is 100 again after it (what the test set).
func checkRaisedGC(t *testing.T, what, gogc string, during, raised int) {
	t.Helper()
	want := raised
	if gogc != "" {
		want = 100
	}
	if during != want {
		t.Errorf("GOGC=%q: the collector at %d during %s, want %d", gogc, during, what, want)
	}
	if after := debug.SetGCPercent(100); after != 100 {
		t.Errorf("GOGC=%q: the collector left at %d after %s, want 100", gogc, after, what)
	}
}

package secrets

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/memscope/memscope/engine/journal"
	"github.com/memscope/memscope/internal/secretgen"
	"github.com/memscope/memscope/model"
)

var now = time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)

func plantedHome(t *testing.T) (secretgen.Layout, *model.Home) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "claude")
	l, err := secretgen.Write(dir, filepath.Join("..", "..", "model", "testdata", "transcripts"), now)
	if err != nil {
		t.Fatal(err)
	}
	h, err := model.OpenHome(dir, model.HomeFromFlag)
	if err != nil {
		t.Fatal(err)
	}
	return l, h
}

func key(store Store, file string, line int, path string, rule string) string {
	return strings.Join([]string{string(store), file, string(rune('0' + line)), path, rule}, " | ")
}

// Every planted secret is found where it was planted (store, file,
// line, JSON path, rule, session), the request body's copy of the tool
// result too (marked as the same secret), and nothing else anywhere.
func TestScanFindsEveryPlantedSecret(t *testing.T) {
	t.Parallel()
	l, h := plantedHome(t)
	r := Scan(Options{Home: h})
	var got, want []string
	for _, f := range r.Findings {
		got = append(got, key(f.Store, f.File, f.Line, f.JSONPath, string(f.Rule)))
		if f.secret == "" || strings.Contains(f.Excerpt, f.secret) {
			t.Errorf("%s: excerpt %q shows the secret, or the secret is unknown", f.ID, f.Excerpt)
		}
	}
	for _, p := range append(slices.Clone(l.Planted), l.Duplicates...) {
		want = append(want, key(Store(p.Store), p.File, p.Line, p.JSONPath, p.Rule))
	}
	sort.Strings(got)
	sort.Strings(want)
	if !slices.Equal(got, want) {
		t.Fatalf("found\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
	for _, f := range r.Findings {
		for _, c := range l.Clean {
			if f.File == c {
				t.Errorf("finding in a clean file: %+v", f)
			}
		}
		switch {
		case f.Store == StoreTranscript && f.Line == 4:
			if f.SameAs == "" || f.Part != "request body" {
				t.Errorf("the request body's copy: sameAs %q part %q", f.SameAs, f.Part)
			}
		case f.Store == StoreTranscript:
			wantPart := map[int]string{1: "user prompt", 3: "tool result", 5: "assistant reply"}[f.Line]
			wantTurn := map[int]int{1: 1, 3: 2, 5: 2}[f.Line]
			if f.Part != wantPart || f.Turn != wantTurn || string(f.Session) != l.Session || f.Time.IsZero() {
				t.Errorf("line %d: part %q turn %d session %q time %v; want %q, turn %d", f.Line, f.Part, f.Turn, f.Session, f.Time, wantPart, wantTurn)
			}
		case f.Store == StorePaste || f.Store == StoreHistory:
			if string(f.Session) != l.Session || f.Project != l.Project {
				t.Errorf("%s: session %q project %q, want them from history", f.Store, f.Session, f.Project)
			}
		}
	}
	// --project keeps the project's stores and its history and pastes.
	other := Scan(Options{Home: h, Project: "/somewhere/else"})
	if len(other.Findings) != 0 {
		t.Errorf("another project has findings: %+v", other.Findings)
	}
	mine := Scan(Options{Home: h, Project: l.Project})
	if len(mine.Findings) != len(r.Findings) {
		t.Errorf("--project %s: %d findings, want %d", l.Project, len(mine.Findings), len(r.Findings))
	}
}

// snapshot is every file of the home with its bytes, mode and mtime.
type fileState struct {
	data  string
	mode  fs.FileMode
	mtime time.Time
}

func snapshot(t *testing.T, dir string) map[string]fileState {
	t.Helper()
	out := map[string]fileState{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(dir, p)
		if d.IsDir() || strings.HasPrefix(rel, ".memscope") {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		st, _ := os.Stat(p)
		out[filepath.ToSlash(rel)] = fileState{string(data), st.Mode(), st.ModTime()}
		return nil
	})
	return out
}

func sameState(t *testing.T, what string, got, want map[string]fileState) {
	t.Helper()
	for name, w := range want {
		g, ok := got[name]
		switch {
		case !ok:
			t.Errorf("%s: %s is gone", what, name)
		case g.data != w.data:
			t.Errorf("%s: %s has other bytes", what, name)
		case g.mode != w.mode || !g.mtime.Equal(w.mtime):
			t.Errorf("%s: %s mode %v mtime %v, want %v %v", what, name, g.mode, g.mtime, w.mode, w.mtime)
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("%s: new file %s", what, name)
		}
	}
}

// A scrub of everything leaves no planted secret in any file (but its
// copy), every line that parsed still parses, nothing else changes, and
// mtimes stay; the restore puts back every byte and mtime and deletes
// the copy.
func TestScrubAndRestore(t *testing.T) {
	t.Parallel()
	l, h := plantedHome(t)
	before := snapshot(t, h.Dir)
	r := Scan(Options{Home: h})
	p := PlanScrub(Options{Home: h}, r, nil, BusyOptions{Now: now})
	if p.Fingerprint() != PlanScrub(Options{Home: h}, r, nil, BusyOptions{Now: now}).Fingerprint() {
		t.Fatal("the same plan twice has two fingerprints")
	}
	if p.Secrets() != len(r.Findings) || len(p.Skipped) != 0 {
		t.Fatalf("plan takes %d of %d findings, skips %v", p.Secrets(), len(r.Findings), p.Skipped)
	}
	for _, f := range p.Files {
		for _, pl := range l.Planted {
			if strings.Contains(f.Diff, pl.Secret) {
				t.Fatalf("the diff of %s prints a secret", f.File)
			}
		}
		if f.File == l.Transcript && !strings.Contains(f.Diff, "[REDACTED:github-pat]") {
			t.Errorf("diff of %s lacks the marker:\n%s", f.File, f.Diff)
		}
	}
	res, err := Apply(ApplyOptions{Home: h, Busy: BusyOptions{Now: now}, Now: now}, p)
	if err != nil {
		t.Fatal(err)
	}
	if res.Secrets != len(r.Findings) || res.ID == "" {
		t.Fatalf("result %+v", res)
	}
	after := snapshot(t, h.Dir)
	for name, st := range after {
		for _, pl := range l.Planted {
			if strings.Contains(st.data, pl.Secret) {
				t.Errorf("%s still holds the %s secret", name, pl.Rule)
			}
		}
		if !st.mtime.Equal(before[name].mtime) || st.mode != before[name].mode {
			t.Errorf("%s: mtime or mode changed by the scrub", name)
		}
		if strings.HasSuffix(name, ".jsonl") {
			for i, line := range strings.Split(strings.TrimSuffix(st.data, "\n"), "\n") {
				if !json.Valid([]byte(line)) {
					t.Errorf("%s:%d no longer parses", name, i+1)
				}
			}
		}
	}
	for _, c := range l.Clean {
		if after[c] != before[c] {
			t.Errorf("clean file %s changed", c)
		}
	}
	// The copy holds the secrets, privately; a scan says so.
	copies, _ := Copies(h)
	if len(copies) != 1 || copies[0].ID != res.ID || copies[0].Secrets != res.Secrets {
		t.Fatalf("copies %+v", copies)
	}
	st, err := os.Stat(filepath.Join(copies[0].Dir, manifestName))
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("copy mode %v, %v", st.Mode(), err)
	}
	if again := Scan(Options{Home: h}); len(again.Findings) != 0 || len(again.Copies) != 1 {
		t.Fatalf("after the scrub: %d findings, copies %+v", len(again.Findings), again.Copies)
	}
	rres, err := Restore(ApplyOptions{Home: h, Now: now}, res.ID)
	if err != nil {
		t.Fatal(err)
	}
	if rres.Secrets != res.Secrets {
		t.Errorf("restored %d secrets, want %d", rres.Secrets, res.Secrets)
	}
	sameState(t, "after restore", snapshot(t, h.Dir), before)
	if _, err := os.Stat(copies[0].Dir); !os.IsNotExist(err) {
		t.Errorf("the copy is still there after the restore: %v", err)
	}
}

// Selecting by rule or by id scrubs only those; restore after Claude
// Code appended keeps the appended lines.
func TestScrubSelectionAndAppendedRestore(t *testing.T) {
	t.Parallel()
	l, h := plantedHome(t)
	r := Scan(Options{Home: h})
	var ghID string
	for _, f := range r.Findings {
		if f.Rule == "github-pat" {
			ghID = f.ID
		}
	}
	p := PlanScrub(Options{Home: h}, r, Selection{ghID, "slack-token"}, BusyOptions{Now: now})
	if p.Secrets() != 2 || p.Writes() != 2 {
		t.Fatalf("plan: %d secrets in %d files, want 2 in 2", p.Secrets(), p.Writes())
	}
	res, err := Apply(ApplyOptions{Home: h, Busy: BusyOptions{Now: now}, Now: now}, p)
	if err != nil {
		t.Fatal(err)
	}
	left := Scan(Options{Home: h})
	if len(left.Findings) != len(r.Findings)-2 {
		t.Errorf("%d findings left, want %d", len(left.Findings), len(r.Findings)-2)
	}
	tp := h.Abs(l.Transcript)
	scrubbed, _ := os.ReadFile(tp)
	tail := `{"type":"last-prompt","lastPrompt":"later","leafUuid":"a-3"}` + "\n"
	f, _ := os.OpenFile(tp, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(tail)
	f.Close()
	rres, err := Restore(ApplyOptions{Home: h, Now: now}, res.ID)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(tp)
	if !bytes.HasSuffix(got, []byte(tail)) || len(rres.Notes) == 0 {
		t.Errorf("the appended line is lost, or not said (%q)", rres.Notes)
	}
	if !bytes.Contains(got, []byte(l.Planted[0].Secret)) || bytes.Equal(got[:len(scrubbed)], scrubbed) {
		t.Error("the restore did not put the secret back")
	}
}

// Files Claude Code may be writing are left alone: changed in the last
// minutes, open in a process (/proc/<pid>/fd), or of a running session.
func TestScrubRefusesBusyFiles(t *testing.T) {
	t.Parallel()
	l, h := plantedHome(t)
	r := Scan(Options{Home: h})
	tp := h.Abs(l.Transcript)
	refusal := func(b BusyOptions) string {
		p := PlanScrub(Options{Home: h}, r, nil, b)
		for _, f := range p.Files {
			if f.File == l.Transcript {
				return f.Refused
			}
		}
		t.Fatal("no plan for the transcript")
		return ""
	}
	if why := refusal(BusyOptions{Now: now}); why != "" {
		t.Fatalf("an idle transcript is refused: %s", why)
	}
	if why := refusal(BusyOptions{Now: now, Idle: 2 * time.Hour}); !strings.Contains(why, "changed 1h0m0s ago") {
		t.Errorf("recently changed: %q", why)
	}
	// A fake /proc: process 4242 holds the transcript open.
	proc := filepath.Join(t.TempDir(), "proc")
	os.MkdirAll(filepath.Join(proc, "4242", "fd"), 0o755)
	os.Symlink(tp, filepath.Join(proc, "4242", "fd", "7"))
	root := model.MountFS(nil, "/proc", model.DirFS(proc))
	if why := refusal(BusyOptions{Now: now, Root: root}); !strings.Contains(why, "open in process 4242") {
		t.Errorf("open in a process: %q", why)
	}
	// A live interactive session of the transcript's session id.
	os.Remove(filepath.Join(proc, "4242", "fd", "7"))
	os.MkdirAll(filepath.Join(h.Dir, "sessions"), 0o755)
	os.WriteFile(filepath.Join(h.Dir, "sessions", "4242.json"), []byte(`{"pid":4242,"sessionId":"`+l.Session+`"}`), 0o600)
	if why := refusal(BusyOptions{Now: now, Root: root}); !strings.Contains(why, "session is running (process 4242)") {
		t.Errorf("running session: %q", why)
	}
	os.RemoveAll(filepath.Join(proc, "4242"))
	if why := refusal(BusyOptions{Now: now, Root: root}); why != "" {
		t.Errorf("a session record of a process that is gone still refuses: %q", why)
	}
	p := PlanScrub(Options{Home: h}, r, nil, BusyOptions{Now: now, Idle: 90 * time.Minute})
	if p.Writes() != 0 {
		t.Fatalf("every planted file is an hour old: %d writes planned", p.Writes())
	}
	// The refused file is skipped by Apply; the others are scrubbed
	// (the session record is gone: only the open transcript is busy).
	os.Remove(filepath.Join(h.Dir, "sessions", "4242.json"))
	os.MkdirAll(filepath.Join(proc, "4242", "fd"), 0o755)
	os.Symlink(tp, filepath.Join(proc, "4242", "fd", "7"))
	busy := BusyOptions{Now: now, Root: root}
	p = PlanScrub(Options{Home: h}, r, nil, busy)
	if _, err := Apply(ApplyOptions{Home: h, Busy: busy, Now: now}, p); err != nil {
		t.Fatal(err)
	}
	for _, f := range Scan(Options{Home: h}).Findings {
		if f.File != l.Transcript {
			t.Errorf("%s:%d is not scrubbed", f.File, f.Line)
		}
	}
	if data, _ := os.ReadFile(tp); !strings.Contains(string(data), l.Planted[0].Secret) {
		t.Error("the transcript open in a process was scrubbed")
	}
}

// A plan whose file changed since (a byte of what was planned is not the
// same) is refused, nothing written; a file that only grew since (lines
// appended, as the client does) is scrubbed with the appended lines kept.
func TestScrubRefusesChangedFile(t *testing.T) {
	t.Parallel()
	l, h := plantedHome(t)
	r := Scan(Options{Home: h})
	p := PlanScrub(Options{Home: h}, r, nil, BusyOptions{Now: now})
	before := snapshot(t, h.Dir)
	tp := h.Abs(l.Transcript)
	data, _ := os.ReadFile(tp)
	os.WriteFile(tp, append([]byte(" "), data[1:]...), 0o600)
	os.Chtimes(tp, now.Add(-time.Hour), now.Add(-time.Hour))
	_, err := Apply(ApplyOptions{Home: h, Busy: BusyOptions{Now: now}, Now: now}, p)
	if err == nil || !strings.Contains(err.Error(), "changed on disk") {
		t.Fatalf("err = %v, want a conflict", err)
	}
	after := snapshot(t, h.Dir)
	delete(after, l.Transcript)
	delete(before, l.Transcript)
	sameState(t, "after a refused scrub", after, before)
	if cs, _ := Copies(h); len(cs) != 0 {
		t.Errorf("a refused scrub left a copy: %+v", cs)
	}

	os.WriteFile(tp, data, 0o600)
	f, _ := os.OpenFile(tp, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("{\"type\":\"appended\"}\n")
	f.Close()
	os.Chtimes(tp, now.Add(-time.Hour), now.Add(-time.Hour))
	res, err := Apply(ApplyOptions{Home: h, Busy: BusyOptions{Now: now}, Now: now}, p)
	if err != nil {
		t.Fatalf("a file that only grew since the plan: %v", err)
	}
	got, _ := os.ReadFile(tp)
	if strings.Contains(string(got), l.Planted[0].Secret) || !strings.HasSuffix(string(got), "{\"type\":\"appended\"}\n") {
		t.Errorf("scrubbed with the line appended since the plan kept? %q", got[max(0, len(got)-80):])
	}
	if _, err := Restore(ApplyOptions{Home: h, Now: now}, res.ID); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(tp); string(got) != string(data)+"{\"type\":\"appended\"}\n" {
		t.Errorf("restored: the appended line lost or the secrets not back")
	}
}

// A transcript Claude Code is appending to is refused, not scrubbed: by
// its mtime at the plan, and, with the idle rule off, by the check at the
// rename. Either way no appended line is lost and every line parses.
func TestScrubConcurrentWriter(t *testing.T) {
	t.Parallel()
	for _, idle := range []time.Duration{DefaultIdle, time.Nanosecond} {
		t.Run(idle.String(), func(t *testing.T) {
			l, h := plantedHome(t)
			tp := h.Abs(l.Transcript)
			stop, done := make(chan struct{}), make(chan int)
			started := make(chan struct{})
			go func() {
				n := 0
				for {
					select {
					case <-stop:
						done <- n
						return
					default:
					}
					f, err := os.OpenFile(tp, os.O_APPEND|os.O_WRONLY, 0)
					if err == nil {
						// Half a line, then the rest, as the client's
						// appends may land.
						line := `{"type":"queue-operation","operation":"enqueue","n":` + string(rune('0'+n%10)) + `}` + "\n"
						f.WriteString(line[:10])
						f.WriteString(line[10:])
						f.Close()
						n++
					}
					if n == 1 {
						close(started)
					}
					time.Sleep(200 * time.Microsecond)
				}
			}()
			<-started
			busy := BusyOptions{Now: time.Now(), Idle: idle}
			if idle < time.Second {
				// The idle rule off: only the checks against the disk
				// (at the apply, and at the rename) stand in the way.
				busy.Now = busy.Now.Add(time.Hour)
			}
			o := Options{Home: h}
			p := PlanScrub(o, Scan(o), nil, busy)
			var refused string
			for _, f := range p.Files {
				if f.File == l.Transcript {
					refused = f.Refused
				}
			}
			if idle == DefaultIdle && !strings.Contains(refused, "Claude Code may be writing it") {
				t.Errorf("a transcript being appended is planned: refused %q", refused)
			}
			_, err := Apply(ApplyOptions{Home: h, Busy: busy, Now: now}, p)
			close(stop)
			appended := <-done
			t.Logf("apply: %v", err)
			data, _ := os.ReadFile(tp)
			lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
			if got := strings.Count(string(data), `"queue-operation"`); got != appended {
				t.Fatalf("%d appended lines in the file, %d written (err %v)", got, appended, err)
			}
			for i, line := range lines {
				if !json.Valid([]byte(line)) {
					t.Fatalf("line %d does not parse: %q", i+1, line)
				}
			}
			if idle == DefaultIdle {
				if err != nil {
					t.Fatalf("the other files: %v", err)
				}
				if !strings.Contains(string(data), l.Planted[0].Secret) {
					t.Error("the busy transcript was scrubbed")
				}
			} else if err != nil && !strings.Contains(err.Error(), "changed on disk") {
				t.Errorf("err = %v, want a conflict or success", err)
			}
		})
	}
}

// A secret in a settings file is reported but scrubbed only when its
// finding is named: it is configuration Claude Code uses.
func TestScrubLeavesSettingsUnlessNamed(t *testing.T) {
	t.Parallel()
	_, h := plantedHome(t)
	key := "sk-ant-api03-" + secretgen.Token(99, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_", 93) + "AA"
	os.WriteFile(filepath.Join(h.Dir, "settings.json"), []byte("{\n  \"env\": {\"ANTHROPIC_API_KEY\": \""+key+"\"}\n}\n"), 0o600)
	os.Chtimes(filepath.Join(h.Dir, "settings.json"), now.Add(-time.Hour), now.Add(-time.Hour))
	r := Scan(Options{Home: h})
	var id string
	for _, f := range r.Findings {
		if f.Store == StoreSettings {
			id = f.ID
			if f.JSONPath != "env.ANTHROPIC_API_KEY" || f.Rule != "anthropic-api-key" || f.Line != 2 {
				t.Errorf("settings finding %+v", f)
			}
		}
	}
	if id == "" {
		t.Fatal("the key in settings.json is not found")
	}
	all := PlanScrub(Options{Home: h}, r, nil, BusyOptions{Now: now})
	if len(all.Skipped) != 1 || all.Skipped[0].Finding != id || !strings.Contains(all.Skipped[0].Why, "--only "+id) {
		t.Errorf("skipped %+v", all.Skipped)
	}
	named := PlanScrub(Options{Home: h}, r, Selection{id}, BusyOptions{Now: now})
	if named.Secrets() != 1 || len(named.Skipped) != 0 || named.Files[0].File != "settings.json" {
		t.Errorf("named: %d secrets, skipped %+v", named.Secrets(), named.Skipped)
	}
}

// plantUndoCopy writes an undo journal into the home's memory folder
// whose one entry keeps a file that held a GitLab token on its second
// line, and returns the token.
func plantUndoCopy(t *testing.T, l secretgen.Layout, h *model.Home) string {
	t.Helper()
	tok := "glpat-" + secretgen.Token(98, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", 20)
	j := &journal.Journal{}
	j.Add(journal.Entry{ID: "20261122-100000.000", Time: now.Add(-2 * time.Hour), Op: "edit", Summary: "edit deploy.md",
		Files: []journal.File{{Path: "deploy.md", Existed: true, Before: []byte("line one\nthe gitlab token " + tok + "\n"), After: strings.Repeat("a", 64)}}})
	jp := filepath.Join(h.Dir, "projects", l.Slug, "memory", filepath.FromSlash(journal.Path))
	os.MkdirAll(filepath.Dir(jp), 0o700)
	if err := os.WriteFile(jp, j.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	return tok
}

// A secret memscope's undo journal keeps (a memory file as it was before
// an edit removed the secret) is reported where it is, and a scrub says
// why it leaves it.
func TestScanReportsUndoCopies(t *testing.T) {
	t.Parallel()
	l, h := plantedHome(t)
	tok := plantUndoCopy(t, l, h)
	r := Scan(Options{Home: h})
	var got []Finding
	for _, f := range r.Findings {
		if f.Store == StoreUndoCopy {
			got = append(got, f)
		}
	}
	if len(got) != 1 || got[0].Rule != "gitlab-pat" || got[0].Line != 2 || got[0].secret != tok ||
		got[0].JSONPath != `["20261122-100000.000"].files[0].before` || !strings.Contains(got[0].Part, "undo copy of deploy.md") {
		t.Fatalf("undo copy findings %+v", got)
	}
	p := PlanScrub(Options{Home: h}, r, nil, BusyOptions{Now: now})
	found := false
	for _, s := range p.Skipped {
		found = found || s.Finding == got[0].ID && strings.Contains(s.Why, "undo copy")
	}
	if !found {
		t.Errorf("the plan does not say why it leaves the undo copy: %+v", p.Skipped)
	}
}

// Outside the home, a project's CLAUDE.md, settings and agent memory are
// read through the machine's root (and reported, never scrubbed).
func TestScanReadsProjectFiles(t *testing.T) {
	t.Parallel()
	l, h := plantedHome(t)
	proj := t.TempDir()
	// The planted transcripts say the project is /home/me/app: point it
	// at a folder of the test's through a root that shows it there.
	tok := "npm_" + secretgen.Token(97, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", 36)
	os.MkdirAll(filepath.Join(proj, ".claude", "agent-memory", "reviewer"), 0o755)
	os.WriteFile(filepath.Join(proj, "CLAUDE.md"), []byte("# App\n\npublish with "+tok+"\n"), 0o644)
	os.WriteFile(filepath.Join(proj, ".claude", "agent-memory", "reviewer", "notes.md"), []byte("token "+tok+"\n"), 0o644)
	root := model.MountFS(nil, l.Project, model.DirFS(proj))
	r := Scan(Options{Home: h, Root: root})
	var outside []string
	for _, f := range r.Findings {
		if f.Outside {
			outside = append(outside, string(f.Store)+" "+f.File)
		}
	}
	want := []string{"claude-md /home/me/app/CLAUDE.md", "memory /home/me/app/.claude/agent-memory/reviewer/notes.md"}
	if strings.Join(outside, ",") != strings.Join(want, ",") {
		t.Fatalf("outside findings %q, want %q", outside, want)
	}
	p := PlanScrub(Options{Home: h, Root: root}, r, nil, BusyOptions{Now: now})
	if len(p.Skipped) != 2 {
		t.Errorf("skipped %+v", p.Skipped)
	}
	for _, f := range p.Files {
		if strings.HasPrefix(f.File, "/") {
			t.Errorf("a file outside the home is planned: %s", f.File)
		}
	}
}

// Offsets are the file's own: a byte order mark, CRLF line ends and a
// file read line by line (over 4 MiB) scrub exactly the secret.
func TestScrubOffsetsWithBOMAndCRLF(t *testing.T) {
	t.Parallel()
	_, h := plantedHome(t)
	tok := "glpat-" + secretgen.Token(96, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", 20)
	big := strings.Repeat("filler line of text\r\n", (5<<20)/21)
	files := map[string]string{
		"rules/bom.md":      "\ufefftoken " + tok + "\r\nnext line\r\n",
		"rules/big.md":      big + "token " + tok + "\r\n" + big,
		"history.jsonl":     "\ufeff" + `{"display":"use ` + tok + `","timestamp":1,"project":"/p"}` + "\r\n",
		"plans/crlf.md":     "a\r\nb " + tok + "\r\n",
		"todos/nested.json": "{\r\n  \"x\": \"" + tok + "\"\r\n}\r\n",
	}
	for name, content := range files {
		p := filepath.Join(h.Dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(content), 0o600)
		os.Chtimes(p, now.Add(-time.Hour), now.Add(-time.Hour))
	}
	r := Scan(Options{Home: h})
	p := PlanScrub(Options{Home: h}, r, Selection{"gitlab-pat"}, BusyOptions{Now: now})
	if p.Secrets() != len(files) {
		t.Fatalf("plan takes %d secrets, want %d (findings %d)", p.Secrets(), len(files), len(r.Findings))
	}
	if _, err := Apply(ApplyOptions{Home: h, Busy: BusyOptions{Now: now}, Now: now}, p); err != nil {
		t.Fatal(err)
	}
	for name, content := range files {
		got, _ := os.ReadFile(filepath.Join(h.Dir, filepath.FromSlash(name)))
		if want := strings.Replace(content, tok, "[REDACTED:gitlab-pat]", 1); string(got) != want {
			t.Errorf("%s scrubbed wrong: %q…", name, string(got)[:min(len(got), 80)])
		}
	}
}

// A plan shown with a busy file keeps its fingerprint while time passes
// (the reason names how long ago the file changed), and changes when the
// file is no longer left alone.
func TestFingerprintStableWhileTimePasses(t *testing.T) {
	t.Parallel()
	l, h := plantedHome(t)
	os.Chtimes(h.Abs(l.Transcript), now.Add(-time.Minute), now.Add(-time.Minute))
	r := Scan(Options{Home: h})
	at := func(d time.Duration) Plan { return PlanScrub(Options{Home: h}, r, nil, BusyOptions{Now: now.Add(d)}) }
	p0, p1 := at(0), at(time.Minute)
	if p0.Fingerprint() != p1.Fingerprint() {
		t.Error("the fingerprint moved with the clock")
	}
	if p2 := at(20 * time.Minute); p2.Fingerprint() == p0.Fingerprint() || p2.Writes() != p0.Writes()+1 {
		t.Errorf("the transcript became idle, but the plan is the same (%d writes, was %d)", p2.Writes(), p0.Writes())
	}
}

// The projects folder is walked once per scan: a problem found there (a
// link to nothing) is reported once, not once per walk.
func TestScanWalksProjectsOnce(t *testing.T) {
	t.Parallel()
	_, h := plantedHome(t)
	if err := os.Symlink(filepath.Join(h.Dir, "nowhere"), filepath.Join(h.Dir, "projects", "-gone")); err != nil {
		t.Fatal(err)
	}
	r := Scan(Options{Home: h})
	n := 0
	for _, p := range r.Problems {
		if p.File == "projects/-gone" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("the broken link is reported %d times, want once: %+v", n, r.Problems)
	}
}

// A JSON file of the other stores (todos, plans, debug) is planned as it
// was scanned, as JSON: a secret the scan found after an escaped newline
// ("cd app\nAPI_TOKEN=…", which as raw text follows a letter) is
// scrubbed, inside its string.
func TestScrubOtherJSONAsScanned(t *testing.T) {
	t.Parallel()
	_, h := plantedHome(t)
	tok := secretgen.Token(95, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", 24)
	name := "todos/t.json"
	content := `{"cmd":"cd app\nAPI_TOKEN=` + tok + `"}` + "\n"
	p := filepath.Join(h.Dir, filepath.FromSlash(name))
	os.MkdirAll(filepath.Dir(p), 0o755)
	os.WriteFile(p, []byte(content), 0o600)
	os.Chtimes(p, now.Add(-time.Hour), now.Add(-time.Hour))
	r := Scan(Options{Home: h})
	var id string
	for _, f := range r.Findings {
		if f.File == name {
			id = f.ID
			if f.JSONPath != "cmd" || f.Rule != "dotenv-secret" {
				t.Errorf("finding %+v", f)
			}
		}
	}
	if id == "" {
		t.Fatal("the token in todos/t.json is not found")
	}
	plan := PlanScrub(Options{Home: h}, r, Selection{id}, BusyOptions{Now: now})
	if plan.Secrets() != 1 || plan.Files[0].Refused != "" || plan.Files[0].Edits.At(0).JSONPath != "cmd" {
		t.Fatalf("plan %+v", plan.Files)
	}
	if _, err := Apply(ApplyOptions{Home: h, Busy: BusyOptions{Now: now}, Now: now}, plan); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(p)
	if want := strings.Replace(content, tok, "[REDACTED:dotenv-secret]", 1); string(got) != want {
		t.Errorf("scrubbed %q, want %q", got, want)
	}
}

// A plan's diff never shows part of a secret it does not scrub: one that
// starts before the context shown around the scrubbed one is masked too.
func TestScrubDiffMasksSecretsAtTheEdge(t *testing.T) {
	t.Parallel()
	_, h := plantedHome(t)
	ghp := "ghp_" + secretgen.Token(94, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", 36)
	aws := "AKIA" + secretgen.Token(93, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16)
	name := "plans/two.md"
	p := filepath.Join(h.Dir, filepath.FromSlash(name))
	os.MkdirAll(filepath.Dir(p), 0o755)
	os.WriteFile(p, []byte("tokens "+ghp+" and "+aws+" end\n"), 0o600)
	os.Chtimes(p, now.Add(-time.Hour), now.Add(-time.Hour))
	r := Scan(Options{Home: h})
	plan := PlanScrub(Options{Home: h}, r, Selection{"aws-access-key-id"}, BusyOptions{Now: now})
	var diff string
	for _, f := range plan.Files {
		if f.File == name {
			diff = f.Diff
		}
	}
	if !strings.Contains(diff, "[REDACTED:aws-access-key-id]") {
		t.Fatalf("no diff of %s:\n%s", name, diff)
	}
	for n := 8; n <= len(ghp); n++ {
		for i := 0; i+n <= len(ghp); i++ {
			if strings.Contains(diff, ghp[i:i+n]) {
				t.Fatalf("the diff shows %d characters of the token it does not scrub:\n%s", n, diff)
			}
		}
	}
}

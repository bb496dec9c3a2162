package cli

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/memscope/memscope/engine/secrets"
	"github.com/memscope/memscope/internal/faultfs"
	"github.com/memscope/memscope/internal/secretgen"
)

func secretsHome(t *testing.T) secretgen.Layout {
	t.Helper()
	l, err := secretgen.Write(filepath.Join(t.TempDir(), "claude"), filepath.Join("..", "model", "testdata", "transcripts"),
		time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// runSecrets runs a command on the home and returns stdout, checking
// the exit code.
func runIn(t *testing.T, e *env, out, errb *bytes.Buffer, code int, args ...string) []byte {
	t.Helper()
	out.Reset()
	errb.Reset()
	if got := run(e, args); got != code {
		t.Fatalf("%v: exit %d, want %d\nstdout %s\nstderr %s", args, got, code, out, errb)
	}
	return bytes.Clone(out.Bytes())
}

type homeFile struct {
	data  []byte
	mtime time.Time
	mode  fs.FileMode
}

func homeFiles(t *testing.T, dir string) map[string]homeFile {
	t.Helper()
	out := map[string]homeFile{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if strings.HasPrefix(rel, ".memscope") {
			return nil
		}
		data, _ := os.ReadFile(p)
		st, _ := os.Stat(p)
		out[rel] = homeFile{data, st.ModTime(), st.Mode()}
		return nil
	})
	return out
}

// dropContext removes what a replay estimates from the text (context by
// category, in characters/4), which a shorter marker changes.
func dropContext(v any) any {
	switch x := v.(type) {
	case map[string]any:
		delete(x, "context")
		for k, e := range x {
			x[k] = dropContext(e)
		}
	case []any:
		for i, e := range x {
			x[i] = dropContext(e)
		}
	}
	return v
}

// Issue 19's "done when", through the command line: every planted secret
// found where it is; the scrub (planned, then applied by fingerprint)
// leaves none in any file, every line parses and the session replays the
// same but for the estimates of its text; the restore brings back every
// byte and mtime.
func TestSecretsCommandScrubRestore(t *testing.T) {
	t.Parallel()
	l := secretsHome(t)
	e, out, errb := testEnv(t)
	var r struct {
		Findings []secrets.Finding `json:"findings"`
	}
	json.Unmarshal(runIn(t, e, out, errb, 1, "secrets", "--home", l.Home, "--json"), &r)
	found := map[string]bool{}
	for _, f := range r.Findings {
		found[string(f.Store)+" "+f.File+" "+f.JSONPath+" "+string(f.Rule)] = true
	}
	for _, p := range l.Planted {
		if !found[p.Store+" "+p.File+" "+p.JSONPath+" "+p.Rule] {
			t.Errorf("not found: %+v", p)
		}
	}
	if len(r.Findings) != len(l.Planted)+len(l.Duplicates) {
		t.Errorf("%d findings, want %d", len(r.Findings), len(l.Planted)+len(l.Duplicates))
	}
	text := string(runIn(t, e, out, errb, 1, "secrets", "--home", l.Home))
	shown := string(runIn(t, e, out, errb, 1, "secrets", "--home", l.Home, "--show"))
	for _, p := range l.Planted {
		if strings.Contains(text, p.Secret) {
			t.Errorf("the text report prints the %s secret", p.Rule)
		}
		if !strings.Contains(shown, p.Secret) {
			t.Errorf("--show does not print the %s secret", p.Rule)
		}
	}

	replayBefore := runIn(t, e, out, errb, 0, "replay", l.Session, "--home", l.Home, "--json")
	before := homeFiles(t, l.Home)
	var plan struct {
		Fingerprint string `json:"fingerprint"`
		Applied     bool   `json:"applied"`
		Result      secrets.Result
	}
	json.Unmarshal(runIn(t, e, out, errb, 0, "secrets", "--home", l.Home, "--scrub", "--json"), &plan)
	if plan.Applied || plan.Fingerprint == "" {
		t.Fatalf("the plan: %+v", plan)
	}
	if got := homeFiles(t, l.Home); !reflect.DeepEqual(got, before) {
		t.Fatal("the plan wrote something")
	}
	runIn(t, e, out, errb, 1, "secrets", "--home", l.Home, "--scrub", "--yes", "--plan", "0123456789abcdef")
	if !strings.Contains(errb.String(), "scrub refused, nothing was written") {
		t.Errorf("stderr %q", errb)
	}
	json.Unmarshal(runIn(t, e, out, errb, 0, "secrets", "--home", l.Home, "--scrub", "--yes", "--plan", plan.Fingerprint, "--json"), &plan)
	if !plan.Applied || plan.Result.Secrets != len(r.Findings) {
		t.Fatalf("the scrub: %+v", plan)
	}

	after := homeFiles(t, l.Home)
	for name, f := range after {
		for _, p := range l.Planted {
			if bytes.Contains(f.data, []byte(p.Secret)) {
				t.Errorf("%s still holds the planted %s", name, p.Rule)
			}
		}
		if strings.HasSuffix(name, ".jsonl") {
			for i, line := range bytes.Split(bytes.TrimSuffix(f.data, []byte("\n")), []byte("\n")) {
				if !json.Valid(line) {
					t.Errorf("%s:%d does not parse", name, i+1)
				}
			}
		}
		if !f.mtime.Equal(before[name].mtime) {
			t.Errorf("%s: the scrub changed the mtime", name)
		}
	}
	replayAfter := runIn(t, e, out, errb, 0, "replay", l.Session, "--home", l.Home, "--json")
	var b, a any
	json.Unmarshal(replayBefore, &b)
	json.Unmarshal(replayAfter, &a)
	if !reflect.DeepEqual(dropContext(b), dropContext(a)) {
		t.Errorf("the scrubbed session replays differently:\nbefore %s\nafter  %s", replayBefore, replayAfter)
	}
	listed := string(runIn(t, e, out, errb, 0, "secrets", "--home", l.Home))
	if !strings.Contains(listed, "still on disk in") || !strings.Contains(listed, "--forget "+plan.Result.ID) {
		t.Errorf("the listing does not say the copy holds the secrets:\n%s", listed)
	}

	runIn(t, e, out, errb, 2, "secrets", "--home", l.Home, "--restore", "20990101-000000-abcdef")
	restored := string(runIn(t, e, out, errb, 0, "secrets", "--home", l.Home, "--restore", plan.Result.ID))
	if !strings.Contains(restored, "the copy is deleted") {
		t.Errorf("restore says %q", restored)
	}
	if got := homeFiles(t, l.Home); !reflect.DeepEqual(got, before) {
		for name, f := range got {
			if !bytes.Equal(f.data, before[name].data) || !f.mtime.Equal(before[name].mtime) {
				t.Errorf("after the restore %s differs", name)
			}
		}
	}
	if r := runIn(t, e, out, errb, 0, "replay", l.Session, "--home", l.Home, "--json"); !bytes.Equal(r, replayBefore) {
		t.Error("after the restore the session replays differently")
	}
}

// Forget deletes the copy and says the scrub can no longer be undone; a
// write that fails (ENOSPC) fails the scrub with exit 1, naming the file,
// and leaves every file as it was.
func TestSecretsCommandForgetAndFailure(t *testing.T) {
	t.Parallel()
	l := secretsHome(t)
	e, out, errb := testEnv(t)
	before := homeFiles(t, l.Home)
	e.writes = &faultfs.FS{Step: faultfs.StepRename, Nth: 2, Err: syscall.ENOSPC}
	runIn(t, e, out, errb, 1, "secrets", "--home", l.Home, "--scrub", "--yes")
	if !strings.Contains(errb.String(), "no space left on device") || !strings.Contains(errb.String(), "nothing was scrubbed") {
		t.Errorf("stderr %q", errb)
	}
	if got := homeFiles(t, l.Home); !reflect.DeepEqual(got, before) {
		t.Error("a failed scrub changed files")
	}
	e.writes = nil
	var res struct {
		Result secrets.Result `json:"result"`
	}
	json.Unmarshal(runIn(t, e, out, errb, 0, "secrets", "--home", l.Home, "--scrub", "--yes", "--only", "slack-token", "--json"), &res)
	if res.Result.Secrets != 1 {
		t.Fatalf("scrub --only slack-token: %+v", res)
	}
	msg := string(runIn(t, e, out, errb, 0, "secrets", "--home", l.Home, "--forget", res.Result.ID))
	if !strings.Contains(msg, "can no longer be restored") {
		t.Errorf("forget says %q", msg)
	}
	if _, err := os.Stat(res.Result.Copy); !os.IsNotExist(err) {
		t.Errorf("the copy is still there: %v", err)
	}
	runIn(t, e, out, errb, 2, "secrets", "--home", l.Home, "--restore", res.Result.ID)
	runIn(t, e, out, errb, 2, "secrets", "--home", l.Home, "--forget", "../x")
	runIn(t, e, out, errb, 2, "secrets", "--home", l.Home, "--scrub", "--restore", "x")
	runIn(t, e, out, errb, 2, "secrets", "--home", l.Home, "--yes")
}

// Every store heading of the text report has its findings under it: a
// memory file holding the secret a transcript held first was folded
// under the transcript's line, leaving "memory (2 findings…)" empty.
func TestSecretsEveryHeadingHasLines(t *testing.T) {
	r := secrets.Report{Home: "/h",
		Stores: []secrets.StoreCount{{Store: secrets.StoreTranscript, Files: 1, Findings: 2}, {Store: secrets.StoreMemory, Files: 1, Findings: 2}},
		Findings: []secrets.Finding{
			{ID: "t1", Rule: "aws-access-key-id", Store: secrets.StoreTranscript, File: "projects/p/s.jsonl", Line: 1, Excerpt: "AKIA…"},
			{ID: "t2", Rule: "aws-access-key-id", Store: secrets.StoreTranscript, File: "projects/p/s.jsonl", Line: 2, Excerpt: "AKIA…", SameAs: "t1"},
			{ID: "m1", Rule: "aws-access-key-id", Store: secrets.StoreMemory, File: "projects/p/memory/a.md", Line: 3, Excerpt: "AKIA…", SameAs: "t1"},
			{ID: "m2", Rule: "aws-access-key-id", Store: secrets.StoreMemory, File: "projects/p/memory/a.md", Line: 9, Excerpt: "AKIA…", SameAs: "t1"},
		}}
	var b bytes.Buffer
	printSecrets(&b, r, false)
	got := b.String()
	for _, want := range []string{
		"\n  t1  aws-access-key-id          projects/p/s.jsonl:1",
		"and 1 more place of the same secret",
		"\nmemory (2 findings, 1 file read):\n  m1  aws-access-key-id          projects/p/memory/a.md:3",
		"\n  m2  aws-access-key-id          projects/p/memory/a.md:9",
		"same secret as t1",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("report lacks %q:\n%s", want, got)
		}
	}
}

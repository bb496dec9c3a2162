package secrets

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memscope/memscope/engine/store"
	"github.com/memscope/memscope/internal/faultfs"
	"github.com/memscope/memscope/model"
)

// fuzzSecret is the secret each fuzzed history holds (a database URL's
// password, a rule with a JSON path and a text form alike).
const fuzzSecret = "postgres://app:Zx9vQ2mL7pK4rT8wY3nB@db.internal:5432/app"

// fuzzHome writes a home whose history.jsonl is content, an hour old.
func fuzzHome(t *testing.T, content []byte) (*model.Home, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "claude")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, model.HistoryPath)
	if err := os.WriteFile(p, content, 0o600); err != nil {
		t.Fatal(err)
	}
	old := now.Add(-time.Hour)
	os.Chtimes(p, old, old)
	h, err := model.OpenHome(dir, model.HomeFromFlag)
	if err != nil {
		t.Fatal(err)
	}
	return h, p
}

// FuzzScrubEdit: whatever history.jsonl holds around a line with a
// secret (prefix, the line's JSON and what follows), a scrub either
// refuses, writing nothing, or replaces exactly the planned spans: the
// secret is gone, the line count is the same, every line that parsed
// still parses, nothing else changed; and its restore puts back every
// byte and the mtime, leaving no copy and no hidden file.
func FuzzScrubEdit(f *testing.F) {
	f.Add([]byte(`{"display":"hi"}`+"\n"), `{"display":"connect with %s please","project":"/p"}`, []byte("\n"))
	f.Add([]byte{}, `%s`, []byte{})
	f.Add([]byte("\xef\xbb\xbf"), `{"display":"a\u00e9 %s \ud83d\ude00"}`, []byte("\r\n{}\n"))
	f.Add([]byte("not json\n"), `{"pastedContents":{"1":{"content":"x=%s"}}}`, []byte("\n\n"))
	f.Fuzz(func(t *testing.T, head []byte, line string, tail []byte) {
		if !strings.Contains(line, "%s") {
			return
		}
		content := append(append(bytes.Clone(head), strings.Replace(line, "%s", fuzzSecret, 1)...), tail...)
		h, p := fuzzHome(t, content)
		st0, _ := os.Stat(p)
		o := Options{Home: h}
		busy := BusyOptions{Now: now}
		plan := PlanScrub(o, Scan(o), nil, busy)
		res, err := Apply(ApplyOptions{Home: h, Write: store.WithOSExchange(faultfs.NoSync{}), Busy: busy, Now: now}, plan)
		got, _ := os.ReadFile(p)
		if err != nil || res.ID == "" {
			if !bytes.Equal(got, content) {
				t.Fatalf("a scrub that did not land (%v) changed the file", err)
			}
			return
		}
		var edits []Edit
		for _, pf := range plan.Files {
			edits = append(edits, pf.Edits.All().collect()...)
		}
		if !bytes.Equal(got, applyEdits(content, editList(edits))) {
			t.Fatalf("the file is not the planned edit of what it was")
		}
		if bytes.Count(got, []byte("\n")) != bytes.Count(content, []byte("\n")) {
			t.Fatalf("the line count changed")
		}
		bl, al := bytes.Split(content, []byte("\n")), bytes.Split(got, []byte("\n"))
		for i := range bl {
			if json.Valid(bl[i]) && !json.Valid(al[i]) {
				t.Fatalf("line %d parsed and no longer does: %q", i+1, al[i])
			}
		}
		if _, err := Restore(ApplyOptions{Home: h, Write: store.WithOSExchange(faultfs.NoSync{}), Now: now}, res.ID); err != nil {
			t.Fatalf("restore: %v", err)
		}
		back, _ := os.ReadFile(p)
		st, _ := os.Stat(p)
		if !bytes.Equal(back, content) || !st.ModTime().Equal(st0.ModTime()) || st.Mode() != st0.Mode() {
			t.Fatalf("restored %q (mtime %v mode %v), want %q (%v %v)", back, st.ModTime(), st.Mode(), content, st0.ModTime(), st0.Mode())
		}
		if cs, _ := Copies(h); len(cs) != 0 {
			t.Fatalf("copies left: %+v", cs)
		}
		if left, _ := hiddenFiles(h.Dir); len(left) > 0 {
			t.Fatalf("hidden files left: %v", left)
		}
	})
}

// FuzzScrubRestore: whatever a scrub copy's manifest holds (torn,
// corrupt, forged offsets, markers or stamps), a restore never panics
// and never writes a file into anything but what the manifest says it
// was: it refuses, leaving history.jsonl as it is, or the file is
// afterwards exactly the bytes the manifest's "before" stamp names.
func FuzzScrubRestore(f *testing.F) {
	const id = "20261124-120000-abcdef"
	content := []byte(`{"display":"connect with [REDACTED:database-url-password] ok"}` + "\n")
	f.Add(content, []byte(`{"id":"`+id+`","time":"2026-11-24T12:00:00Z","files":[{"file":"history.jsonl","edits":1}]}
{"file":"history.jsonl","mode":384,"mtime":"2026-11-24T11:00:00Z","before":{"exists":true,"size":77,"sha256":"x"},"after":{"exists":true,"size":66,"sha256":"y"},"edits":1}
{"rule":"database-url-password","offset":40,"afterOffset":40,"marker":"[REDACTED:database-url-password]","bytes":"WngydlEybUw3cEs0clQ4d1kzbkI="}
`))
	f.Add(content, []byte(`{"id":"`+id+`","files":[{"file":"history.jsonl","edits":2}]}`+"\n"))
	f.Add(content, []byte(`{"id":"`+id+`","files":[{"file":"../outside","edits":0}]}`+"\n"+`{"file":"../outside","edits":0}`+"\n"))
	f.Add([]byte{}, []byte("\x00\n{"))
	f.Fuzz(func(t *testing.T, content, mf []byte) {
		h, p := fuzzHome(t, content)
		dir := h.Abs(filepath.Join(CopyDir, id))
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, manifestName), mf, 0o600); err != nil {
			t.Fatal(err)
		}
		m, merr := readManifest(h, id, true)
		_, err := Restore(ApplyOptions{Home: h, Write: store.WithOSExchange(faultfs.NoSync{}), Now: now}, id)
		got, _ := os.ReadFile(p)
		if err != nil {
			if !bytes.Equal(got, content) {
				t.Fatalf("a refused restore (%v) changed history.jsonl to %q", err, got)
			}
			return
		}
		if merr != nil {
			t.Fatalf("a restore went through a manifest that does not read: %v", merr)
		}
		if bytes.Equal(got, content) {
			return
		}
		for _, mfile := range m.Files {
			if h.Abs(mfile.File) == p && store.StampOf(got, true, nil).SameContent(mfile.Before) {
				return
			}
		}
		t.Fatalf("history.jsonl became %q, which no 'before' of the manifest names", got)
	})
}

// A manifest whose stamp says a negative size (damaged or edited by
// hand) is refused when read, naming the manifest and its line: a
// restore cut history.jsonl at it and panicked (FuzzScrubRestore found
// it, its seed 0de3edfc58ee5100).
func TestManifestNegativeSizeRefused(t *testing.T) {
	const id = "20261124-120000-abcdef"
	content := []byte(`{"display":"connect with [REDACTED:database-url-password] ok"}` + "\n")
	h, p := fuzzHome(t, content)
	dir := h.Abs(filepath.Join(CopyDir, id))
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	mf := `{"id":"` + id + `","time":"2026-11-24T12:00:00Z","files":[{"file":"history.jsonl","edits":1}]}
{"file":"history.jsonl","mode":384,"mtime":"2026-11-24T11:00:00Z","before":{"exists":true,"size":77,"sha256":"x"},"after":{"exists":true,"size":-6,"sha256":"y"},"edits":1}
{"rule":"database-url-password","offset":3,"afterOffset":3,"marker":"[REDACTED:database-url-password]","bytes":"AA=="}
`
	if err := os.WriteFile(filepath.Join(dir, manifestName), []byte(mf), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Restore(ApplyOptions{Home: h, Write: store.WithOSExchange(faultfs.NoSync{}), Now: now}, id)
	if err == nil || !strings.Contains(err.Error(), filepath.Join(dir, manifestName)+" line 2") || !strings.Contains(err.Error(), "-6") {
		t.Fatalf("restore of a manifest with a negative size: %v (want it refused, naming %s line 2)", err, manifestName)
	}
	if got, _ := os.ReadFile(p); !bytes.Equal(got, content) {
		t.Fatalf("the refused restore changed history.jsonl to %q", got)
	}
}

package demo

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memscope/memscope/model"
)

var testNow = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

func TestMaterializeWritesEveryStore(t *testing.T) {
	l, err := Materialize(t.TempDir(), testNow)
	if err != nil {
		t.Fatal(err)
	}
	shopMem := filepath.Join(l.Home, "projects", model.Slug(l.Project("shop-api")), "memory")
	idx, err := os.ReadFile(filepath.Join(shopMem, "MEMORY.md"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(idx), "\n"); n <= 200 {
		t.Errorf("shop-api MEMORY.md has %d lines; the demo needs it over the 200-line cap", n)
	}
	// Ages come from the manifest: a 150-day-old file has that mtime.
	st, err := os.Stat(filepath.Join(shopMem, "project_api_versioning.md"))
	if err != nil {
		t.Fatal(err)
	}
	if age := testNow.Sub(st.ModTime()).Hours() / 24; age < 150 || age > 151 {
		t.Errorf("project_api_versioning.md is %.1f days old, want 150", age)
	}
	data, _ := os.ReadFile(filepath.Join(shopMem, "user_role.md"))
	if strings.Contains(string(data), "{{") {
		t.Errorf("placeholder left in user_role.md:\n%s", data)
	}
	for _, p := range []string{
		filepath.Join(l.Project("shop-api"), "CLAUDE.md"),
		filepath.Join(l.Project("shop-api"), ".claude", "rules", "migrations.md"),
		filepath.Join(l.Home, "CLAUDE.md"),
		filepath.Join(l.Home, "history.jsonl"),
		filepath.Join(l.Home, "projects", model.Slug(l.Project("shop-api")), SessionRewind, "subagents", "agent-a1b2c3d4.jsonl"),
		filepath.Join(l.Home, "projects", model.Slug(l.Project("shop-api")), SessionRewind, "subagents", "agent-a1b2c3d4.meta.json"),
		filepath.Join(l.Project("shop-api"), ".claude", "agent-memory", "reviewer", "MEMORY.md"),
		filepath.Join(l.Home, "agent-memory", "planner", "plan-shape.md"),
	} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("missing %s", p)
		}
	}
}

func TestDemoTranscriptsAreValidJSONLWithCompactions(t *testing.T) {
	l, err := Materialize(t.TempDir(), testNow)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(l.Home, "projects", model.Slug(l.Project("shop-api")), SessionCheckout+".jsonl")
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	boundaries, partial, line := 0, 0, 0
	for sc.Scan() {
		line++
		var rec struct {
			Type            string          `json:"type"`
			Subtype         string          `json:"subtype"`
			CompactMetadata json.RawMessage `json:"compactMetadata"`
		}
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatalf("line %d: %v", line, err)
		}
		if rec.Subtype == "compact_boundary" {
			boundaries++
			if strings.Contains(string(rec.CompactMetadata), "preservedSegment") {
				partial++
			}
		}
	}
	// Three autocompactions at 167k tokens and one partial /compact at the end.
	if boundaries != 4 || partial != 1 {
		t.Errorf("checkout session has %d compact boundaries (%d partial), want 4 (1 partial)", boundaries, partial)
	}
}

func TestDemoHistoryPastes(t *testing.T) {
	l, err := Materialize(t.TempDir(), testNow)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(l.Home, "history.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var resolved, missing, mismatch int
	last := int64(0)
	for i, ln := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var e struct {
			Timestamp      int64 `json:"timestamp"`
			PastedContents map[string]struct {
				ContentHash string `json:"contentHash"`
			} `json:"pastedContents"`
		}
		if err := json.Unmarshal([]byte(ln), &e); err != nil {
			t.Fatalf("history line %d: %v", i+1, err)
		}
		if e.Timestamp <= last {
			t.Errorf("history line %d: timestamp %d not after %d", i+1, e.Timestamp, last)
		}
		last = e.Timestamp
		for _, pc := range e.PastedContents {
			if pc.ContentHash == "" {
				continue
			}
			body, err := os.ReadFile(filepath.Join(l.Home, "paste-cache", pc.ContentHash+".txt"))
			switch {
			case err != nil:
				missing++
			case pasteHash(string(body)) != pc.ContentHash:
				mismatch++
			default:
				resolved++
			}
		}
	}
	if resolved != 2 || missing != 1 || mismatch != 1 {
		t.Errorf("pastes: resolved %d missing %d mismatch %d, want 2 1 1", resolved, missing, mismatch)
	}
}

// The demo's project trees hold Go files, which the demo writes out with
// their real names and contents, but which must not be packages of this
// module (go build ./... and go test ./... would build them): every .go
// file under demo/ other than the package's own sits below a folder the
// go tool skips (a name starting with "_" or ".", or testdata).
func TestDemoGoFilesAreNotPackages(t *testing.T) {
	var goFiles int
	err := filepath.WalkDir(".", func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(p) != ".go" || filepath.Dir(p) == "." {
			return err
		}
		goFiles++
		for _, el := range strings.Split(filepath.ToSlash(filepath.Dir(p)), "/") {
			if strings.HasPrefix(el, "_") || strings.HasPrefix(el, ".") || el == "testdata" {
				return nil
			}
		}
		t.Errorf("%s builds as a package of the module", p)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if goFiles == 0 {
		t.Fatal("no Go file in the demo's trees: the test tests nothing")
	}
	l, err := Materialize(t.TempDir(), testNow)
	if err != nil {
		t.Fatal(err)
	}
	want, err := files.ReadFile("_files/shop-api/tree/cmd/reindex/main.go")
	if err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(filepath.Join(l.Project("shop-api"), "cmd", "reindex", "main.go")); err != nil || string(got) != string(want) {
		t.Errorf("the demo wrote cmd/reindex/main.go as %q (%v), want the embedded file", got, err)
	}
}

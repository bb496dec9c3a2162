package engine

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// opsNow is the fixed clock of the ops tests.
var opsNow = time.Date(2026, 11, 22, 11, 14, 20, 836_000_000, time.UTC)

// writeTree writes files (slash paths → content) under dir.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for rel, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// readTree reads every file under dir but the journal.
func readTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel == ".memscope" {
				return filepath.SkipDir
			}
			return nil
		}
		data, err := os.ReadFile(p)
		out[rel] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// diffTrees says how two trees differ, "" when they are equal.
func diffTrees(a, b map[string]string) string {
	var d []string
	for k, v := range a {
		if w, ok := b[k]; !ok {
			d = append(d, "only before: "+k)
		} else if v != w {
			d = append(d, "differs: "+k+"\n"+UnifiedDiff(k, []byte(v), true, []byte(w), true))
		}
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			d = append(d, "only after: "+k)
		}
	}
	return strings.Join(d, "\n")
}

// clientMemory is a memory file as the client writes it.
func clientMemory(name, desc, typ, body string) string {
	return "---\nname: " + name + "\ndescription: " + desc + "\nmetadata:\n  node_type: memory\n  type: " + typ +
		"\n  modified: 2026-10-01T08:00:00.000Z\n---\n\n" + body
}

// opsFixture is a small memory folder: an index with two entries, three
// topic files linking each other by name, one of them not indexed.
func opsFixture() map[string]string {
	return map[string]string{
		"MEMORY.md": "# Memory\n\n- [feedback_terse](feedback_terse.md) — short answers, no recap\n" +
			"- [Merge freeze](./project_freeze.md) — no merges 2026-12-03 → 2026-12-10\n\n## Notes\n\nfree text\n",
		"feedback_terse.md": clientMemory("terse", "Short answers", "feedback", "Answer briefly. See [[freeze]].\n\n**Why:** asked twice.\n"),
		"project_freeze.md": clientMemory("freeze", "Merge freeze in December", "project", "No merges; [[terse]] still applies, as does [[terse|the terse rule]].\n"),
		"user_role.md":      clientMemory("role", "Backend lead", "user", "Deep Go.\n"),
	}
}

// openFixture writes files to a temp dir and opens a store on it.
func openFixture(t *testing.T, files map[string]string) (*MemoryStore, string) {
	t.Helper()
	dir := t.TempDir()
	writeTree(t, dir, files)
	s, probs := OpenMemoryStore(dir, nil)
	if len(probs) > 0 {
		t.Fatalf("fixture problems: %v", probs)
	}
	return s, dir
}

func timeHours(n int) time.Duration { return time.Duration(n) * time.Hour }

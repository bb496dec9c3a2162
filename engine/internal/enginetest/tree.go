package enginetest

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memscope/memscope/engine/internal/udiff"
)

// OpsNow is the fixed clock of the ops tests.
var OpsNow = time.Date(2026, 11, 22, 11, 14, 20, 836_000_000, time.UTC)

// WriteTree writes files (slash paths → content) under dir.
func WriteTree(t *testing.T, dir string, files map[string]string) {
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

// ReadTree reads every file under dir but the journal.
func ReadTree(t *testing.T, dir string) map[string]string {
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

// DiffTrees says how two trees differ, "" when they are equal.
func DiffTrees(a, b map[string]string) string {
	var d []string
	for k, v := range a {
		if w, ok := b[k]; !ok {
			d = append(d, "only before: "+k)
		} else if v != w {
			d = append(d, "differs: "+k+"\n"+udiff.Unified(k, []byte(v), true, []byte(w), true))
		}
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			d = append(d, "only after: "+k)
		}
	}
	return strings.Join(d, "\n")
}

// ClientMemory is a memory file as the client writes it.
func ClientMemory(name, desc, typ, body string) string {
	return "---\nname: " + name + "\ndescription: " + desc + "\nmetadata:\n  node_type: memory\n  type: " + typ +
		"\n  modified: 2026-10-01T08:00:00.000Z\n---\n\n" + body
}

// Leftovers lists the temporary and staged files a write left under
// dirs: the atomic writer's and the stores' names hold ".memscope-".
func Leftovers(t testing.TB, dirs ...string) []string {
	t.Helper()
	var out []string
	for _, dir := range dirs {
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && strings.Contains(d.Name(), ".memscope-") {
				out = append(out, p)
			}
			return nil
		})
	}
	return out
}

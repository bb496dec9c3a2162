// Package demo builds memscope's embedded demo: a Claude home with several
// projects, typed memories of every type and age, an index over the cap,
// history with resolved and missing pastes, and transcripts with several
// compactions, plus the project folders their CLAUDE.md files live in.
//
// Everything is written by us for memscope. Ages are relative to the time
// the demo is materialized, so the demo always looks lived-in.
package demo

import (
	"bytes"
	"embed"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/memscope/memscope/model"
)

// The demo's files live under _files, a name the go tool skips: the
// project trees hold .go files (shop-api's cmd/ and internal/), which
// must not build as packages of this module. all: keeps the dot-files.
//
//go:embed all:_files
var files embed.FS

// Layout says where a materialized demo lives.
type Layout struct {
	// Root holds everything below.
	Root string
	// Home is the Claude home ($CLAUDE_CONFIG_DIR).
	Home string
	// Work holds the demo projects' folders.
	Work string
}

// Project returns the folder of a demo project ("shop-api", "notes-site", "infra").
func (l Layout) Project(name string) string { return filepath.Join(l.Work, name) }

// demoProjects are the projects of the demo, in the order they are listed.
var demoProjects = []string{"shop-api", "notes-site", "infra"}

// memoryAges is how many days ago each demo memory file was last written.
var memoryAges = map[string]int{
	"shop-api/MEMORY.md":                             1,
	"shop-api/user_role.md":                          40,
	"shop-api/feedback_terse_answers.md":             12,
	"shop-api/feedback_no_db_mocks.md":               95,
	"shop-api/feedback_integration_tests_real_db.md": 3,
	"shop-api/project_merge_freeze.md":               1,
	"shop-api/project_checkout_rewrite.md":           64,
	"shop-api/project_api_versioning.md":             150,
	"shop-api/reference_dashboards.md":               20,
	"shop-api/reference_linear.md":                   200,
	"shop-api/user_timezone.md":                      8,
	"shop-api/feedback_commit_messages.md":           30,
	"shop-api/project_payment_provider.md":           45,
	"shop-api/reference_staging.md":                  5,
	"shop-api/feedback_error_wrapping.md":            0,
	"shop-api/project_search_index.md":               110,
	"shop-api/notes_untyped.md":                      70,
	"shop-api/broken_frontmatter.md":                 15,
	"shop-api/archive/project_q2_launch.md":          160,
	"shop-api/reference_vendor_docs.md":              9,
	"shop-api/project_incident_notes.md":             33,
	"notes-site/MEMORY.md":                           6,
	"notes-site/user_writer.md":                      90,
	"notes-site/project_build.md":                    6,
	"notes-site/feedback_link_checks.md":             21,
	"notes-site/reference_analytics.md":              2,
}

// instructionsAge is how many days ago the demo's CLAUDE.md files, rules
// and project files were written.
const instructionsAge = 60

// Materialize writes the demo under root (which should be empty or
// missing) and returns its layout. now anchors every age and timestamp.
func Materialize(root string, now time.Time) (Layout, error) {
	root, err := filepath.Abs(root)
	if err != nil {
		return Layout{}, err
	}
	l := Layout{Root: root, Home: filepath.Join(root, "claude"), Work: filepath.Join(root, "work")}
	w := &writer{now: now}
	// Instructions and project files were written before any session of
	// the demo ran (loads judge rules over the sessions after them).
	written := func(string) int { return instructionsAge }
	if err := w.copyTree("_files/user", l.Home, written); err != nil {
		return l, err
	}
	for _, p := range demoProjects {
		if err := w.copyTree("_files/"+p+"/tree", l.Project(p), written); err != nil {
			return l, err
		}
		if _, err := fs.Stat(files, "_files/"+p+"/memory"); err == nil {
			memDir := filepath.Join(l.Home, "projects", model.Slug(l.Project(p)), "memory")
			if err := w.copyTree("_files/"+p+"/memory", memDir, func(rel string) int { return memoryAges[p+"/"+rel] }); err != nil {
				return l, err
			}
		}
	}
	shopMem := filepath.Join(l.Home, "projects", model.Slug(l.Project("shop-api")), "memory")
	w.file(filepath.Join(shopMem, "project_incident_notes.md"), incidentNotes(now.AddDate(0, 0, -33)), 33)
	w.transcripts(l)
	w.history(l)
	// What 2.1.331's cleanup also sweeps: other sessions' image caches
	// and the skill archives at every start, growth-test state by age.
	w.file(filepath.Join(l.Home, "image-cache", SessionRewind, "1.png"), []byte("\x89PNG demo screenshot"), 2)
	w.file(filepath.Join(l.Home, "mcp-skill-archives", "pdf-tools.zip"), []byte("PK demo archive"), 1)
	w.file(filepath.Join(l.Home, "state", "growth-test-onboarding.json"), []byte(`{"variant":"b"}`+"\n"), 40)
	return l, w.err
}

// writer collects the first error so the steps above read straight.
type writer struct {
	now time.Time
	err error
}

func (w *writer) file(p string, data []byte, ageDays int) {
	if w.err != nil {
		return
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		w.err = err
		return
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		w.err = err
		return
	}
	mt := w.now.Add(-time.Duration(ageDays)*24*time.Hour - time.Hour)
	if err := os.Chtimes(p, mt, mt); err != nil {
		w.err = err
	}
}

// copyTree copies an embedded folder to dst, replacing {{modified}} with
// the ISO time age(rel) days ago and setting the file's mtime to match.
func (w *writer) copyTree(src, dst string, age func(rel string) int) error {
	err := fs.WalkDir(files, src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel := strings.TrimPrefix(p, src+"/")
		data, err := files.ReadFile(p)
		if err != nil {
			return err
		}
		days := 0
		if age != nil {
			days = age(rel)
		}
		mod := w.now.Add(-time.Duration(days)*24*time.Hour - time.Hour).UTC().Format("2006-01-02T15:04:05.000Z")
		data = bytes.ReplaceAll(data, []byte("{{modified}}"), []byte(mod))
		w.file(filepath.Join(dst, filepath.FromSlash(rel)), data, days)
		return w.err
	})
	if err != nil {
		return fmt.Errorf("demo: copy %s: %w", src, err)
	}
	return nil
}

// incidentNotes is a memory that outgrew the 4096-byte guidance: recall
// shows only its head.
func incidentNotes(when time.Time) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "---\nname: project-incident-notes\ndescription: Running notes from the checkout incidents this quarter\nmetadata:\n  node_type: memory\n  type: project\n  modified: %s\n---\n\n", when.UTC().Format("2006-01-02T15:04:05.000Z"))
	causes := []string{"connection pool exhausted after a deploy", "pricing cache served stale bundle prices", "webhook retries doubled the order count", "search reindex locked the products table", "a slow migration held a lock on orders"}
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&b, "- Incident %d (%s): %s; mitigated by rolling back and paging the owner.\n", i+1, when.AddDate(0, 0, -2*i).Format("2006-01-02"), causes[i%len(causes)])
	}
	b.WriteString("\n**Why:** patterns repeat; the notes help spot them.\n**How to apply:** check here before guessing at a checkout outage cause.\n")
	return []byte(b.String())
}

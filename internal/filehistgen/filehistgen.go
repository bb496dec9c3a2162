// Package filehistgen writes a small Claude home with file history for
// tests: one session whose transcript carries file-history-snapshot and
// file-history-delta records as the client writes them, its backups, and
// the project's files as they stand now. It covers the odd cases the
// client produces: a null backup (a file the session created), an
// isSnapshotUpdate record, a delta whose snapshot never reached the file,
// a backup referenced by no record, and a record whose backup is missing.
package filehistgen

import (
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/memscope/memscope/model"
)

// SessionID is the generated session.
const SessionID = "5e551014-0000-4000-8000-000000000001"

// The prompts' uuids, in order. U3's snapshot record is missing: only
// its deltas reached the transcript.
const (
	U1 = "a0000001-0000-4000-8000-000000000001"
	U2 = "a0000002-0000-4000-8000-000000000002"
	U3 = "a0000003-0000-4000-8000-000000000003"
	U4 = "a0000004-0000-4000-8000-000000000004"
)

// Prompts are the prompts' texts, keyed by uuid.
var Prompts = map[string]string{
	U1: "Fix the README\nand add a new file",
	U2: "Now edit the app",
	U3: "Take notes in app2",
	U4: "  \nOne more pass",
}

// Versions are the backups' contents by tracking path and version; a
// missing version is a null backup (the file did not exist) or, for
// README.md v3, a backup file that is missing on disk.
var Versions = map[string]map[int]string{
	"README.md":         {1: "# App\nold line\n", 2: "# App\nnew line\n"},
	"new.txt":           {2: "created\n"},
	"src/app.go":        {1: "package app\n", 2: "package app\n\nfunc A() {}\n", 3: "package app // unreferenced\n"},
	"../app2/notes.txt": {1: "notes\n"},
}

// Disk is every tracked file's content on disk now.
var Disk = map[string]string{
	"README.md":         "# App\nnewest line\n",
	"new.txt":           "created and edited\n",
	"src/app.go":        "package app\n\nfunc A() {}\nfunc B() {}\n",
	"../app2/notes.txt": "notes v2\n",
}

// Layout is where a generated home lives.
type Layout struct {
	// Home is the Claude home; CWD the session's project folder.
	Home, CWD string
	// Transcript is the transcript's path inside the home.
	Transcript string
}

// Abs is the absolute path of a tracking path.
func (l Layout) Abs(trackingPath string) string {
	return filepath.Clean(filepath.Join(l.CWD, trackingPath))
}

// BackupName is the backup file name of a tracking path's version.
func (l Layout) BackupName(trackingPath string, v int) string {
	return model.BackupFileName(l.Abs(trackingPath), v)
}

// Write creates root/home and root/work/app (plus root/work/app2) with
// the session; t0 is the first prompt's time.
func Write(root string, t0 time.Time) (Layout, error) {
	l := Layout{Home: filepath.Join(root, "home"), CWD: filepath.Join(root, "work", "app")}
	slug := model.Slug(l.CWD)
	l.Transcript = path.Join("projects", slug, SessionID+".jsonl")
	g := &gen{l: l, t: t0}
	g.build()
	files := map[string][]byte{filepath.Join(l.Home, filepath.FromSlash(l.Transcript)): []byte(g.b.String())}
	for p, vs := range Versions {
		for v, c := range vs {
			files[filepath.Join(l.Home, model.FileHistoryDir, SessionID, l.BackupName(p, v))] = []byte(c)
		}
	}
	for p, c := range Disk {
		files[l.Abs(p)] = []byte(c)
	}
	for name, data := range files {
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			return l, fmt.Errorf("generate file history home: %w", err)
		}
		if err := os.WriteFile(name, data, 0o644); err != nil {
			return l, fmt.Errorf("generate file history home: %w", err)
		}
		// Fixed times, so what shows them (an unreferenced backup's
		// time is its mtime) is the same on every run.
		if err := os.Chtimes(name, t0, t0); err != nil {
			return l, fmt.Errorf("generate file history home: %w", err)
		}
	}
	return l, nil
}

type gen struct {
	l    Layout
	t    time.Time
	b    strings.Builder
	last string
}

func (g *gen) iso() string {
	g.t = g.t.Add(time.Second)
	return g.t.UTC().Format("2006-01-02T15:04:05.000Z")
}

func (g *gen) line(v any) {
	// Only maps of strings and numbers are encoded: Marshal cannot fail.
	data, _ := json.Marshal(v)
	g.b.Write(data)
	g.b.WriteByte('\n')
}

func (g *gen) chain(typ, uuid string, message map[string]any) {
	g.line(map[string]any{"type": typ, "uuid": uuid, "parentUuid": nilIfEmpty(g.last), "isSidechain": false, "sessionId": SessionID,
		"cwd": g.l.CWD, "version": "2.1.330", "gitBranch": "main", "timestamp": g.iso(), "message": message})
	g.last = uuid
}

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func (g *gen) prompt(uuid string) {
	g.chain("user", uuid, map[string]any{"role": "user", "content": Prompts[uuid]})
}

func (g *gen) answer(uuid string) {
	g.chain("assistant", uuid, map[string]any{"role": "assistant", "id": "msg_" + uuid, "content": []any{map[string]any{"type": "text", "text": "done"}}})
}

// backup is a backup entry; v 0 is null (the file did not exist).
func (g *gen) backup(p string, v, nameVersion int) map[string]any {
	var name any
	if nameVersion > 0 {
		name = g.l.BackupName(p, nameVersion)
	}
	return map[string]any{"backupFileName": name, "version": v, "backupTime": g.iso(), "realParentDir": filepath.Dir(g.l.Abs(p))}
}

func (g *gen) snapshot(id string, update bool, files map[string]any) {
	g.line(map[string]any{"type": "file-history-snapshot", "messageId": id, "snapshot": map[string]any{"messageId": id, "trackedFileBackups": files, "timestamp": g.iso()}, "isSnapshotUpdate": update})
}

func (g *gen) delta(assistant, snapshot, p string, b map[string]any) {
	g.line(map[string]any{"type": "file-history-delta", "messageId": assistant, "snapshotMessageId": snapshot, "trackingPath": p, "backup": b, "timestamp": g.iso()})
}

func (g *gen) build() {
	g.prompt(U1)
	g.snapshot(U1, false, map[string]any{})
	g.answer("b0000001")
	g.delta("b0000001", U1, "README.md", g.backup("README.md", 1, 1))
	g.delta("b0000001", U1, "new.txt", g.backup("new.txt", 1, 0))

	g.prompt(U2)
	g.snapshot(U2, false, map[string]any{"README.md": g.backup("README.md", 2, 2), "new.txt": g.backup("new.txt", 2, 2)})
	g.answer("b0000002")
	g.delta("b0000002", U2, "src/app.go", g.backup("src/app.go", 1, 1))

	// U3's snapshot never reached the file; its deltas did, one of them
	// pointing at a backup that is missing on disk.
	g.prompt(U3)
	g.answer("b0000003")
	g.delta("b0000003", U3, "../app2/notes.txt", g.backup("../app2/notes.txt", 1, 1))
	g.delta("b0000003", U3, "README.md", g.backup("README.md", 3, 3))

	g.prompt(U4)
	g.snapshot(U4, false, map[string]any{"README.md": g.backup("README.md", 2, 2)})
	g.snapshot(U4, true, map[string]any{"README.md": g.backup("README.md", 3, 3), "new.txt": g.backup("new.txt", 2, 2),
		"src/app.go": g.backup("src/app.go", 2, 2), "../app2/notes.txt": g.backup("../app2/notes.txt", 1, 1)})
	g.answer("b0000004")
}

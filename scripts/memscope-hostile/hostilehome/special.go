package hostilehome

import (
	"fmt"
	"os"
	"sort"
)

// Special kinds: what Special puts where a regular file is expected.
const (
	// KindFIFO is a named pipe: opening it for reading blocks until a
	// writer comes, which never happens here.
	KindFIFO = "fifo"
	// KindDevZero is a symbolic link to /dev/zero: reading it never ends.
	KindDevZero = "devzero"
	// KindURandom is a symbolic link to /dev/urandom: reading it never
	// ends, and the bytes are random.
	KindURandom = "urandom"
)

// SpecialKinds lists the kinds Special knows.
var SpecialKinds = []string{KindFIFO, KindDevZero, KindURandom}

// specialPlaces maps each place Special can spoil to its home-relative
// path in a content home (contentHome plus the extras specialExtras
// writes). Every one is a file memscope reads as data.
func specialPlaces(r *Result) map[string]string {
	proj := "projects/" + r.Slug
	return map[string]string{
		"memory-index":  r.MemoryDir + "/MEMORY.md",
		"memory-file":   r.MemoryDir + "/feedback_terse.md",
		"team-memory":   r.MemoryDir + "/team/shared.md",
		"journal":       r.MemoryDir + "/.memscope/journal.jsonl",
		"trash":         r.MemoryDir + "/.trash/20261122-120000/old_note.md",
		"settings":      "settings.json",
		"history":       "history.jsonl",
		"transcript":    r.Transcript,
		"subagent":      proj + "/" + SessionID + "/subagents/agent-0bad.jsonl",
		"tool-result":   proj + "/" + SessionID + "/tool-results/toolu_01.txt",
		"paste":         r.Paste,
		"claude-md":     "CLAUDE.md",
		"rule":          "rules/hostile.md",
		"file-history":  "file-history/" + SessionID + "/" + specialBackup,
		"live-session":  "sessions/4242.json",
		"config-backup": "backups/.claude.json.backup.1795262400000",
	}
}

// SpecialPlaces lists the places Special can spoil, sorted.
func SpecialPlaces() []string {
	r := &Result{Slug: slug(ProjectPath), MemoryDir: "projects/" + slug(ProjectPath) + "/memory", Transcript: "x"}
	out := make([]string, 0, 16)
	for k := range specialPlaces(r) {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// specialBackup is the file-history backup of ProjectPath/main.go, v1.
const specialBackup = "c0ffee00c0ffee00@v1"

// specialExtras writes the files a content home lacks but memscope reads:
// a journal entry, a trashed memory, a file-history snapshot and its
// backup, a live session and a config backup.
func specialExtras(w *homeWriter) {
	mem := w.res.MemoryDir
	w.file(mem+"/.memscope/journal.jsonl", []byte(`{"id":"20261122-120000-1","time":"2026-11-22T12:00:00Z","op":"delete","summary":"delete old_note.md","files":[{"path":"old_note.md","existed":true,"before":"b2xk","after":""}]}`+"\n"))
	w.file(mem+"/.trash/20261122-120000/old_note.md", memoryFile("old-note", "A trashed note", "project", "old"))
	w.file("file-history/"+SessionID+"/"+specialBackup, []byte("package main\n"))
	w.appendLines(w.res.Transcript, literal(fmt.Sprintf(
		`{"type":"file-history-snapshot","messageId":%q,"snapshot":{"messageId":%q,"trackedFileBackups":{"main.go":{"backupFileName":%q,"version":1,"backupTime":%q}},"timestamp":%q},"isSnapshotUpdate":false}`,
		uuidN(7), uuidN(7), specialBackup, stamp(7), stamp(7))))
	w.file("sessions/4242.json", []byte(`{"pid":4242,"sessionId":"`+SessionID+`","cwd":"`+ProjectPath+`","startedAt":1795262400000,"status":"idle"}`+"\n"))
	w.file("backups/.claude.json.backup.1795262400000", []byte("{}\n"))
}

// writeSpecial writes a content home whose file at place (every place
// when place is "") is replaced by a file of the given kind.
func writeSpecial(w *homeWriter, kind, place string) {
	if kind == "" {
		kind = KindFIFO
	}
	contentHome(w, " plain text")
	specialExtras(w)
	if w.err != nil {
		return
	}
	places := specialPlaces(w.res)
	targets := map[string]string{}
	if place == "" {
		targets = places
	} else if p, ok := places[place]; ok {
		targets[place] = p
	} else {
		w.err = fmt.Errorf("unknown place %q (known: %v)", place, SpecialPlaces())
		return
	}
	w.res.Special = map[string]string{}
	for name, rel := range targets {
		p := w.path(rel)
		if err := os.Remove(p); err != nil {
			w.err = fmt.Errorf("replace %s: %w", rel, err)
			return
		}
		var err error
		switch kind {
		case KindFIFO:
			err = mkfifo(p)
		case KindDevZero:
			err = os.Symlink("/dev/zero", p)
		case KindURandom:
			err = os.Symlink("/dev/urandom", p)
		default:
			err = fmt.Errorf("unknown kind %q (known: %v)", kind, SpecialKinds)
		}
		if err != nil {
			w.err = fmt.Errorf("%s at %s: %w", kind, rel, err)
			return
		}
		w.res.Special[name] = rel
	}
}

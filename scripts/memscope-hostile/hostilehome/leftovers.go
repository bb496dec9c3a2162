package hostilehome

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
)

// DeadPID is the writer process named in Leftovers' copies: larger than
// any process id Linux gives (pid_max is at most 2^22), so never alive.
const DeadPID = "99999999"

// writeLeftovers writes a content home as memscope writes that were
// killed, or failed on a full disk, leave it: in the main project's
// memory folder a staged copy and a temporary file of a gone writer, a
// copy named as before memscope put its pid in names (an hour old), a
// write probe, an empty deletion folder, an empty archive folder; in the
// second project's memory folder a .memscope/ holding only the journal's
// lock; in the home's .memscope/ a restore journal whose entry is still
// pending, naming a file of a project tree outside the home (in out),
// with the restore's temporary copy beside it. Result.Leftovers lists
// every one (absolute paths): what memscope must find and may remove;
// Result.Targets the user's files beside them (sha256), which must
// never change.
func writeLeftovers(w *homeWriter, out string) {
	out, ok := w.outside(out)
	if !ok {
		return
	}
	mem := w.res.MemoryDir
	note := mem + "/note.md"
	w.file(note, memoryFile("note", "A note", "project", "A note that a prune was rewriting."))
	copies := []string{
		mem + "/.note.md.memscope-" + DeadPID + "-stage-3",
		mem + "/.MEMORY.md.memscope-" + DeadPID + "-987654",
		mem + "/.note.md.memscope-123456",
		mem + "/.memscope-" + DeadPID + "-probe-42",
		mem + "/.trash/20261122-120000.000/.old.md.memscope-" + DeadPID + "-remove-1",
	}
	for _, c := range copies {
		w.file(c, []byte("a copy of a file, left by a killed memscope\n"))
	}
	hourAgo := baseTime.Add(-1e9 * 3600)
	os.Chtimes(w.path(mem+"/.note.md.memscope-123456"), hourAgo, hourAgo)
	folders := []string{mem + "/.trash/20261121-090000.000", mem + "/.archive/project"}
	for _, d := range folders {
		if err := os.MkdirAll(w.path(d), 0o700); err != nil && w.err == nil {
			w.err = err
		}
	}
	lock := "projects/" + slug("/home/me/second") + "/memory/.memscope/journal.lock"
	w.file(lock, nil)

	// A restore killed after its first file: the project tree is outside
	// the home, as a user's project is.
	outside := &homeWriter{dir: out, res: &Result{}}
	outside.file("src/main.go", []byte("package main // restored\n"))
	outside.file("src/.main.go.memscope-"+DeadPID+"-55", []byte("package main // restored\n"))
	outside.file("src/util.go", []byte("package main // not yet restored\n"))
	if outside.err != nil {
		w.err = outside.err
		return
	}
	target := filepath.Join(out, "src", "main.go")
	entry := map[string]any{"id": "20261122-120000.000", "time": baseTime, "op": "file-restore", "summary": "rewind to a turn", "pending": true,
		"files": []map[string]any{
			{"path": strings.TrimPrefix(filepath.ToSlash(target), "/"), "existed": true, "before": base64.StdEncoding.EncodeToString([]byte("package main // before\n")), "after": sha256Hex("package main // restored\n")},
			{"path": strings.TrimPrefix(filepath.ToSlash(filepath.Join(out, "src", "util.go")), "/"), "existed": true, "before": base64.StdEncoding.EncodeToString([]byte("package main // not yet restored\n")), "after": sha256Hex("package main // util restored\n")},
		}}
	w.jsonl(".memscope/file-history/"+SessionID+"/journal.jsonl", entry)
	w.file(".memscope/file-history/"+SessionID+"/.journal.jsonl.memscope-"+DeadPID+"-77", []byte("half a journal\n"))

	for _, rel := range append(append(copies, folders...), lock, ".memscope/file-history/"+SessionID+"/.journal.jsonl.memscope-"+DeadPID+"-77") {
		w.res.Leftovers = append(w.res.Leftovers, w.path(rel))
	}
	w.res.Leftovers = append(w.res.Leftovers, filepath.Join(out, "src", ".main.go.memscope-"+DeadPID+"-55"))
	w.recordTargets(out, []string{"src/main.go", "src/util.go"})
}

func sha256Hex(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

package hostilehome

import "path/filepath"

// writeLinkLoops writes a content home whose walks (inventory, forecast,
// archive) meet symbolic links out of the home (to a folder of files
// that look like a Claude home's, twice, and to the outside root), loops
// (loopA → loopB → loopA, selfloop → ., uploop → ..) in the main project,
// a link that stays inside (an absolute debug/latest, as the client
// makes it), and a link inside the home to the main project's folder
// (projects/alias), which a walk must enter once, not twice. Targets records the sha256 of
// every outside file: none may be read into an archive.
func writeLinkLoops(w *homeWriter, out string) {
	out, ok := w.outside(out)
	if !ok {
		return
	}
	w.file("debug/0badc0de.txt", []byte("a debug log\n"))
	// The outside folder looks like a project: transcripts, a session
	// folder with a subagent and tool results, and a secret.
	outside := &homeWriter{dir: out, res: &Result{}}
	etc := "etc"
	outside.jsonl(etc+"/"+uuidN(300)+".jsonl", transcriptRecords(uuidN(300), "/etc", " outside")[1:5]...)
	outside.jsonl(etc+"/"+uuidN(300)+"/subagents/agent-out.jsonl", transcriptRecords(uuidN(300), "/etc", " outside agent")[1:5]...)
	outside.file(etc+"/"+uuidN(300)+"/tool-results/toolu_out.txt", []byte("outside tool result\n"))
	outside.file(etc+"/secret.txt", []byte("root:secret\n"))
	outside.file(etc+"/memory/MEMORY.md", []byte("- [Out](out.md) — outside\n"))
	outside.file("top.txt", []byte("the outside root\n"))
	if outside.err != nil {
		w.err = outside.err
		return
	}
	proj := "projects/" + w.res.Slug
	links := map[string]string{
		"projects/etc":  filepath.Join(out, etc),
		"projects/etc2": filepath.Join(out, etc),
		"projects/root": out,
		"file-history/0badc0de-0000-4000-8000-00000000e7c0": filepath.Join(out, etc),
		"paste-cache/00000000000e7c00.txt":                  filepath.Join(out, etc, "secret.txt"),
		"debug/secret.txt":                                  filepath.Join(out, etc, "secret.txt"),
		proj + "/loopA":                                     "loopB",
		proj + "/loopB":                                     "loopA",
		proj + "/selfloop":                                  ".",
		proj + "/uploop":                                    "..",
		"debug/latest":                                      w.path("debug/0badc0de.txt"),
		// Inside the home, to a folder a walk reaches by its own name:
		// walked once, under that name.
		"projects/alias": w.res.Slug,
	}
	if w.symlinks(links, false) {
		w.recordTargets(out, outside.res.Files)
	}
}

package hostilehome

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// PasswdLike is the content of SymlinksOut's stand-in for /etc/passwd.
const PasswdLike = "root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n"

// LinkedProject is the startup directory of SymlinksOut's second project,
// whose whole memory folder is a link outside the home.
const LinkedProject = "/home/me/linked"

// outside readies the folder out for link targets outside the home: it
// must be outside it and empty; then the content home is written and the
// result made ready to record links and targets. ok is false (w.err set)
// when it cannot be.
func (w *homeWriter) outside(out string) (string, bool) {
	out, err := filepath.Abs(out)
	if err != nil {
		w.err = fmt.Errorf("outside %s: %w", out, err)
		return "", false
	}
	if rel, err := filepath.Rel(w.dir, out); err == nil && !strings.HasPrefix(rel, "..") {
		w.err = fmt.Errorf("outside folder %s is inside the home %s", out, w.dir)
		return "", false
	}
	if err := ensureEmpty(out); err != nil {
		w.err = err
		return "", false
	}
	contentHome(w, " plain text")
	w.res.Outside = out
	w.res.Targets = map[string]string{}
	w.res.Links = map[string]string{}
	return out, true
}

// writeSymlinksOut writes a plain home whose memory file, second project's
// memory folder, cached paste and user rule are symlinks to files outside
// the home, in out. Every target's sha256 is recorded so a test can prove
// no write went through a link.
func writeSymlinksOut(w *homeWriter, out string) {
	out, ok := w.outside(out)
	if !ok {
		return
	}
	outside := &homeWriter{dir: out, res: &Result{}}
	pasteText := "an outside paste\nthat memscope may show but never write\n"
	outside.file("passwd", []byte(PasswdLike))
	outside.file("memdir/MEMORY.md", []byte("- [Outside](outside_note.md) — lives outside the home\n"))
	outside.file("memdir/outside_note.md", memoryFile("outside-note", "A memory outside the home", "project", "Outside."))
	outside.file("paste.txt", []byte(pasteText))
	outside.file("rule.md", []byte("# Outside rule\nnever write me\n"))
	if outside.err != nil {
		w.err = outside.err
		return
	}

	linkedSlug := slug(LinkedProject)
	w.jsonl("projects/"+linkedSlug+"/"+uuidN(55)+".jsonl", transcriptRecords(uuidN(55), LinkedProject, " linked")[1:5]...)
	hash := pasteHash([]byte(pasteText))
	links := map[string]string{
		w.res.MemoryDir + "/passwd.md":       filepath.Join(out, "passwd"),
		"projects/" + linkedSlug + "/memory": filepath.Join(out, "memdir"),
		"paste-cache/" + hash + ".txt":       filepath.Join(out, "paste.txt"),
		"rules/outside.md":                   filepath.Join(out, "rule.md"),
		w.res.MemoryDir + "/dangling_out.md": filepath.Join(out, "missing.md"),
	}
	if !w.symlinks(links, true) {
		return
	}
	w.file(w.res.MemoryDir+"/MEMORY.md", []byte("# Memory index\n"+
		"- [Terse](feedback_terse.md) — hook\n"+
		"- [Passwd](passwd.md) — a link to a file outside the home\n"))
	ref := w.marshal(historyLine(6, "[Pasted text #1 +2 lines] outside paste", ProjectPath, SessionID, map[string]any{
		"1": map[string]any{"id": 1, "type": "text", "contentHash": hash}}))
	w.appendLines("history.jsonl", literal(string(ref)))
	w.res.HistoryLines++
	w.recordTargets(out, outside.res.Files)
}

// symlinks makes each link (home-relative) point at its target and
// records it (in Files too when listed); false when one failed (w.err).
func (w *homeWriter) symlinks(links map[string]string, listed bool) bool {
	for rel, target := range links {
		if w.err != nil || !w.mkdirFor(rel) {
			return false
		}
		if err := os.Symlink(target, w.path(rel)); err != nil {
			w.err = fmt.Errorf("symlink %s: %w", rel, err)
			return false
		}
		w.res.Links[rel] = target
		if listed {
			w.res.Files = append(w.res.Files, rel)
		}
	}
	return w.err == nil
}

// recordTargets records the sha256 of the files (relative to out) links
// lead to, which nothing may ever change.
func (w *homeWriter) recordTargets(out string, files []string) {
	for _, f := range files {
		p := filepath.Join(out, f)
		sum, err := sha256File(p)
		if err != nil {
			w.err = err
			return
		}
		w.res.Targets[p] = sum
	}
}

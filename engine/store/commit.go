package store

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
	"time"

	"github.com/memscope/memscope/engine/journal"
	secscan "github.com/memscope/memscope/engine/scan"
	"github.com/memscope/memscope/model"
)

// clientReads reports whether the client reads rel as memory.
func clientReads(rel string) bool {
	return rel == model.MemoryIndexName || model.IsMemoryTopicPath(rel)
}

// fileTarget is what one file becomes, and what it was (for rolling back).
type fileTarget struct {
	rel    string
	data   []byte
	exists bool
	perm   fs.FileMode
	// modTime, unless zero, is the mtime the file gets, with exactly
	// perm: a file put back as it was (undo, a move) keeps its age.
	modTime    time.Time
	prev       []byte
	prevExists bool
	prevPerm   fs.FileMode
	prevStamp  FileStamp
}

// metaStager is a StoreFS that can stage a file with an exact mode and
// mtime (DirFS); the rename into place keeps both.
type metaStager interface {
	stageAs(name string, data []byte, perm fs.FileMode, modTime time.Time) (string, error)
}

// stage stages t's new content: with its mode and mtime when it keeps
// them and the file system can.
func stage(fsys FS, t fileTarget) (string, error) {
	if ms, ok := fsys.(metaStager); ok && !t.modTime.IsZero() {
		return ms.stageAs(t.rel, t.data, t.perm, t.modTime)
	}
	return fsys.Stage(t.rel, t.data, t.perm)
}

// putBack writes t's previous content back (a rollback), with the mtime
// and mode it had when the file system can.
func putBack(fsys FS, t fileTarget) error {
	if !t.prevExists {
		return fsys.Remove(t.rel)
	}
	back := fileTarget{rel: t.rel, data: t.prev, perm: t.prevPerm, modTime: t.prevStamp.ModTime}
	if _, ok := fsys.(metaStager); !ok || back.modTime.IsZero() {
		return fsys.WriteFile(t.rel, t.prev, t.perm)
	}
	name, err := stage(fsys, back)
	if err != nil {
		return err
	}
	if err := fsys.Rename(name, t.rel); err != nil {
		return errors.Join(err, fsys.Remove(name))
	}
	return nil
}

// rollbackError is a failed change whose rollback failed too: files may be
// half changed, and the journal entry is kept so undo can finish the job.
type rollbackError struct {
	err, rollback error
}

// applyTargets writes the targets: one file through the atomic writer;
// several by staging every new content first, then renaming each into
// place, then removing. Just before, each file is checked once more
// against the content it was read with. A failure rolls back what was
// already done. during names the operation in errors.
func applyTargets(fsys FS, ts []fileTarget, during string) error {
	for _, t := range ts {
		data, exists, info, err := readStoreFile(fsys, t.rel)
		if err != nil {
			return err
		}
		if now := StampOf(data, exists, info); !now.SameContent(t.prevStamp) {
			return &ConflictError{Path: t.rel, Read: t.prevStamp, Now: now, During: during}
		}
	}
	cfs, checked := fsys.(checkedFS)
	checked = checked && cfs.checksAtRename()
	if len(ts) == 1 {
		t := ts[0]
		switch {
		case checked && t.exists:
			// Staged and synced first; the check is made at the rename
			// (ops_concurrent.go), so a concurrent write cannot be lost.
			name, err := stage(fsys, t)
			if err != nil {
				return fmt.Errorf("%s: %w", during, err)
			}
			return cfs.replaceChecked(name, t.rel, t.prevStamp, during)
		case checked:
			return cfs.removeChecked(t.rel, t.prevStamp, during)
		case t.exists && !t.modTime.IsZero():
			name, err := stage(fsys, t)
			if err != nil {
				return fmt.Errorf("%s: %w", during, err)
			}
			if err := fsys.Rename(name, t.rel); err != nil {
				return errors.Join(err, fsys.Remove(name))
			}
			return nil
		case t.exists:
			return fsys.WriteFile(t.rel, t.data, t.perm)
		}
		return fsys.Remove(t.rel)
	}
	staged := map[string]string{}
	// unstage removes the staged files; one it cannot remove is named in
	// the error, never left behind silently.
	unstage := func(err error) error {
		var left error
		for _, name := range staged {
			left = errors.Join(left, fsys.Remove(name))
		}
		if left != nil {
			return fmt.Errorf("%w (and a staged file could not be removed: %w)", err, left)
		}
		return err
	}
	for _, t := range ts {
		if !t.exists {
			continue
		}
		name, err := stage(fsys, t)
		if err != nil {
			return unstage(fmt.Errorf("%s: %w", during, err))
		}
		staged[t.rel] = name
	}
	var done []fileTarget
	fail := func(err error) error {
		err = unstage(err)
		var rbErr error
		for i := len(done) - 1; i >= 0; i-- {
			rbErr = errors.Join(rbErr, putBack(fsys, done[i]))
		}
		if rbErr != nil {
			return &rollbackError{err: err, rollback: rbErr}
		}
		return fmt.Errorf("%s: %w (nothing was changed)", during, err)
	}
	// Renames first, removals last: an interrupted change then leaves
	// extra files, never missing ones.
	for _, t := range ts {
		if !t.exists {
			continue
		}
		var err error
		if checked {
			err = cfs.replaceChecked(staged[t.rel], t.rel, t.prevStamp, during)
		} else {
			err = fsys.Rename(staged[t.rel], t.rel)
		}
		if err != nil {
			if checked {
				delete(staged, t.rel) // replaceChecked removed it
			}
			return fail(err)
		}
		delete(staged, t.rel)
		done = append(done, t)
	}
	for _, t := range ts {
		if t.exists {
			continue
		}
		var err error
		if checked {
			err = cfs.removeChecked(t.rel, t.prevStamp, during)
		} else {
			err = fsys.Remove(t.rel)
		}
		if err != nil {
			return fail(err)
		}
		done = append(done, t)
	}
	return nil
}

// commit scans, journals and applies the workset as one change.
func (s *Store) commit(op journal.OpKind, summary string, w *workset, o WriteOptions) (Change, error) {
	rels := w.changed()
	ch := Change{Op: op, Summary: summary, Files: w.changedFiles(rels), Diff: w.diff(rels)}
	if len(rels) == 0 {
		return ch, nil
	}
	if o.Now.IsZero() {
		// The time goes into the journal, trash names and modified lines;
		// a zero time is a caller's bug, not a time to write down.
		return ch, errors.New("write refused: WriteOptions.Now is not set")
	}
	all, blocking := w.scan(rels)
	if s.doc {
		// A document (CLAUDE.md, a rule) is read by the client too.
		all, blocking = w.scanWhere(rels, func(string) bool { return true })
	}
	ch.Findings = all
	if len(blocking) > 0 && !o.Force {
		return ch, &ScanBlockedError{Findings: blocking}
	}
	defer s.lockJournal().Release(true)
	j, _, err := s.readJournal()
	if err != nil {
		return ch, err
	}
	// Entries left by changes that never landed go with this rewrite.
	_, phantom, _ := s.landedEntries(j)
	for _, p := range phantom {
		j.Drop(p.ID)
	}
	entry := journal.Entry{ID: j.NewID(o.Now), Time: o.Now.UTC(), Op: op, Summary: summary}
	if s.doc {
		entry.Folder = s.dir
	}
	targets := make([]fileTarget, 0, len(rels))
	for _, rel := range rels {
		f := w.files[rel]
		jf := journal.File{Path: rel, Existed: f.baseExists, Mode: f.perm}
		if f.baseExists {
			jf.Before, jf.ModTime = f.base, f.baseStamp.ModTime
		}
		if f.exists {
			jf.After = hashBytes(f.data)
		}
		entry.Files = append(entry.Files, jf)
		targets = append(targets, fileTarget{rel: rel, data: f.data, exists: f.exists, perm: f.perm, modTime: f.modTime, prev: f.base, prevExists: f.baseExists, prevPerm: f.perm, prevStamp: f.baseStamp})
	}
	// Write ahead: the journal holds the old bytes before any file changes,
	// so even a crash mid-change leaves something undo can restore.
	// Adding to a full journal drops its oldest entry; a change that
	// fails puts the journal back as it was, that entry included.
	before := j.Clone()
	j.Add(entry)
	if err := s.writeJournal(j); err != nil {
		return ch, err
	}
	made := absentFolders(s.fsys, targets)
	if err := applyTargets(s.fsys, targets, string(op)); err != nil {
		// The folders made for the change (.trash/<time>/, .archive/) go
		// too; a folder something else was written into stays.
		for i := len(made) - 1; i >= 0; i-- {
			_ = s.fsys.Remove(made[i])
		}
		var rb *rollbackError
		if !errors.As(err, &rb) {
			j = before
			if jerr := s.writeJournal(j); jerr != nil {
				// A journal with no other entry can go whole: a removal
				// needs no room (a disk out of inodes cannot rewrite it).
				if len(j.Bytes()) > 0 || s.fsys.Remove(journal.Path) != nil {
					err = fmt.Errorf("%w (and the journal entry %s could not be removed: %v)", err, entry.ID, jerr)
				}
			}
		}
		s.Reload()
		return ch, err
	}
	removeEmptiedFolders(s.fsys, targets)
	ch.ID = entry.ID
	s.Reload()
	return ch, nil
}

// removeEmptiedFolders removes the folders of memscope's own (the
// trash's, the archive's) that a change emptied by moving or removing
// their files (an undone deletion, a memory restored from the trash), up
// to the trash or archive folder itself: a folder that still holds
// anything stays, and so does every folder of the user's.
func removeEmptiedFolders(fsys FS, ts []fileTarget) {
	for _, t := range ts {
		if t.exists {
			continue
		}
		for d := path.Dir(t.rel); d != "." && IsOwnFolder(d); d = path.Dir(d) {
			if _, err := fs.Stat(fsys, d); err != nil {
				continue
			}
			if ents, err := fs.ReadDir(fsys, d); err != nil || len(ents) > 0 || fsys.Remove(d) != nil {
				break
			}
		}
	}
}

// IsOwnFolder reports whether the folder rel of a memory folder is one
// memscope's changes make: the trash or the archive, or a folder in them
// (a deletion's .trash/<time>/ and the subfolders of what it holds).
func IsOwnFolder(rel string) bool {
	for _, own := range []string{TrashDir, ArchiveDir} {
		if rel == own || strings.HasPrefix(rel, own+"/") {
			return true
		}
	}
	return false
}

// absentFolders lists the folders the targets' new files go into that do
// not exist yet, parents first.
func absentFolders(fsys FS, ts []fileTarget) []string {
	seen := map[string]bool{}
	var out []string
	for _, t := range ts {
		if !t.exists {
			continue
		}
		var chain []string
		for d := path.Dir(t.rel); d != "." && !seen[d]; d = path.Dir(d) {
			seen[d] = true
			if _, err := fs.Stat(fsys, d); !errors.Is(err, fs.ErrNotExist) {
				break
			}
			chain = append([]string{d}, chain...)
		}
		out = append(out, chain...)
	}
	return out
}

// scan runs the security scan over the files the client reads (MEMORY.md
// and topic files) as the change leaves them. It returns every finding,
// and the high-severity ones the change adds: a finding already present
// before the change (anywhere in the files it touches, so a move or a
// rename adds nothing) does not block, so a file holding a leaked key can
// still be edited, retyped or cleaned.
func (w *workset) scan(rels []string) (all, blocking []secscan.Finding) {
	return w.scanWhere(rels, clientReads)
}

// ScanEdit scans after, the new content of the file name, as every
// change is scanned (see Store): it returns every finding, and the
// high-severity ones after adds to before (the file's content until now;
// existed false when it had none). Writes outside a memory folder (a
// CLAUDE.md saved from $EDITOR) use it to stop where the store would.
func ScanEdit(name string, before []byte, existed bool, after []byte) (all, blocking []secscan.Finding) {
	w := &workset{files: map[string]*wfile{name: {base: before, baseExists: existed, data: after, exists: true}}}
	return w.scanWhere([]string{name}, func(string) bool { return true })
}

// scanWhere is scan over the files of rels that scanned says to scan.
func (w *workset) scanWhere(rels []string, scanned func(rel string) bool) (all, blocking []secscan.Finding) {
	type key struct {
		rule    secscan.RuleID
		excerpt string
	}
	before := map[key]int{}
	for _, rel := range rels {
		if f := w.files[rel]; f.baseExists && scanned(rel) {
			for _, fd := range secscan.Scan(rel, string(f.base)) {
				before[key{fd.Rule, fd.Excerpt}]++
			}
		}
	}
	for _, rel := range rels {
		f := w.files[rel]
		if !f.exists || !scanned(rel) {
			continue
		}
		for _, fd := range secscan.Scan(rel, string(f.data)) {
			all = append(all, fd)
			k := key{fd.Rule, fd.Excerpt}
			if before[k] > 0 {
				before[k]--
				continue
			}
			if fd.Severity == secscan.SeverityHigh {
				blocking = append(blocking, fd)
			}
		}
	}
	return all, blocking
}

func (e *rollbackError) Error() string {
	return fmt.Sprintf("%v; putting the files back failed too (%v): run undo to restore them from the journal", e.err, e.rollback)
}

func (e *rollbackError) Unwrap() error { return e.err }

package engine

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/memscope/memscope/model"
)

// FileRestoreJournalDir holds, per session, the journal of memscope's
// file-history restores: <home>/.memscope/file-history/<sessionId>/
// journal.jsonl. Each entry keeps the bytes every file had before the
// restore, so the restore can be undone. It is a folder of memscope's own
// in the home: the client's cleanup sweeps only its named folders
// (file-history/ among them, by the folder's mtime), so the saved
// content outlives the backups it was restored from.
const FileRestoreJournalDir = ".memscope/file-history"

// FileRestoreJournal is a session's restore journal, inside the home.
func FileRestoreJournal(sid model.SessionID) string {
	return path.Join(FileRestoreJournalDir, string(sid), "journal.jsonl")
}

// checkSessionID refuses a session id that is not one plain name: it
// becomes a folder name, and comes from transcripts.
func checkSessionID(sid model.SessionID) error {
	s := string(sid)
	if s == "" || s == "." || s == ".." || strings.ContainsAny(s, `/\`+"\x00") {
		return fmt.Errorf("session id %q is not a plain name", s)
	}
	return nil
}

// ApplyFileRestore carries out a plan in the home at homeDir, reading
// backups through fsys (the same home). It refuses, writing nothing, when
// a step was refused, when a file changed since the plan was made (size
// and SHA-256; a ConflictError), or when a backup changed. The content
// every file has now is journaled first, so UndoFileRestore can put it
// back; then each file is written atomically or, for a null version,
// deleted.
func ApplyFileRestore(homeDir string, fsys fs.FS, p *FileRestorePlan, now time.Time) (Change, error) {
	return applyFileRestore(model.OSWriteFS{}, homeDir, fsys, p, now)
}

// applyFileRestore is ApplyFileRestore writing through wfs (tests inject
// faults).
func applyFileRestore(wfs model.WriteFS, homeDir string, fsys fs.FS, p *FileRestorePlan, now time.Time) (Change, error) {
	ch := Change{Op: p.op(), Summary: p.summary(), Files: []ChangedFile{}}
	if err := checkSessionID(p.SessionID); err != nil {
		return ch, fmt.Errorf("restore refused, nothing was written: %w", err)
	}
	if r := p.Refusals(); len(r) > 0 {
		return ch, fmt.Errorf("restore refused, nothing was written: %s", strings.Join(r, "; "))
	}
	// Checks, journal and writes under the session journal's lock, so a
	// second memscope restoring or undoing at once waits its turn.
	jname := filepath.Join(homeDir, filepath.FromSlash(FileRestoreJournal(p.SessionID)))
	defer lockJournalFile(jname)()
	type write struct {
		step FileRestoreStep
		data []byte
	}
	var writes []write
	var files []JournalFile
	var diffs strings.Builder
	for _, s := range p.Steps {
		if !s.writes() {
			continue
		}
		cur, before, refusal := readTarget(s.Target)
		if refusal != "" {
			return ch, fmt.Errorf("restore refused, nothing was written: %s: %s", s.Target, refusal)
		}
		if !cur.sameContent(s.Current) {
			return ch, &ConflictError{Path: s.Target, Read: s.Current, Now: cur, During: "restore"}
		}
		w := write{step: s}
		if s.Action == model.RestoreCopy {
			data, err := fs.ReadFile(fsys, s.BackupPath)
			if err != nil {
				return ch, fmt.Errorf("restore refused, nothing was written: read backup %s: %w", s.BackupPath, err)
			}
			if got := stampOf(data, true, nil); !got.sameContent(s.After) {
				return ch, fmt.Errorf("restore refused, nothing was written: backup %s changed since the plan was made", s.BackupPath)
			}
			w.data = data
		}
		writes = append(writes, w)
		jf := JournalFile{Path: journalPath(s.Target), Existed: cur.Exists, Before: before, After: s.After.SHA256}
		if cur.Exists {
			if st, err := os.Lstat(s.Target); err == nil {
				jf.Mode = st.Mode().Perm()
			}
		}
		files = append(files, jf)
		diffs.WriteString(s.Diff)
	}
	if len(writes) == 0 {
		ch.Summary += " (nothing to do: every file already is as it would be restored)"
		return ch, nil
	}
	j, err := readRestoreJournal(jname)
	if err != nil {
		return ch, err
	}
	ch.ID = j.newID(now)
	j.add(JournalEntry{ID: ch.ID, Time: now.UTC(), Op: ch.Op, Summary: ch.Summary, Files: files})
	if err := model.WriteFileAtomicWith(wfs, jname, j.bytes(), 0o600); err != nil {
		return ch, fmt.Errorf("save the current content before restoring (nothing was restored): %w", err)
	}
	for _, w := range writes {
		s := w.step
		a := FileModified
		if s.Action == model.RestoreDelete {
			a = FileDeleted
			if err := wfs.Remove(s.Target); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return ch, fmt.Errorf("restore %s: %w (memscope files --undo puts back what was done)", s.Target, err)
			}
		} else {
			if !s.Current.Exists {
				a = FileCreated
			}
			mode := fs.FileMode(0o644)
			if m, err := fs.Stat(fsys, s.BackupPath); err == nil {
				mode = m.Mode().Perm()
			}
			if err := model.WriteFileAtomicWith(wfs, s.Target, w.data, mode); err != nil {
				return ch, fmt.Errorf("restore %s: %w (memscope files --undo puts back what was done)", s.Target, err)
			}
		}
		ch.Files = append(ch.Files, ChangedFile{Path: s.Target, Action: a})
	}
	ch.Diff = diffs.String()
	return ch, nil
}

// readRestoreJournal reads a restore journal from disk; a missing one is
// empty. Lines that do not parse are kept as they are.
func readRestoreJournal(name string) (*journal, error) {
	data, err := os.ReadFile(name)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("read the restore journal: %w", err)
	}
	j, _ := parseJournal(name, data)
	return j, nil
}

// FileRestores lists a session's journaled restores, oldest first, and
// the journal lines that could not be read.
func FileRestores(fsys fs.FS, sid model.SessionID) ([]JournalEntry, []model.Problem, error) {
	name := FileRestoreJournal(sid)
	data, err := fs.ReadFile(fsys, name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("read the restore journal: %w", err)
	}
	entries, probs := ParseJournal(name, data)
	return entries, probs, nil
}

// UndoFileRestore reverts the newest journaled restore of session sid in
// the home at homeDir: every file gets back the bytes (or the absence) it
// had before, then the entry leaves the journal. It refuses with a
// ConflictError, writing nothing, when a file is neither as the restore
// left it nor as it was before; a file already back is left alone, so an
// interrupted undo can be run again.
func UndoFileRestore(homeDir string, sid model.SessionID) (Change, error) {
	return undoFileRestore(model.OSWriteFS{}, homeDir, sid)
}

// undoFileRestore is UndoFileRestore writing through wfs.
func undoFileRestore(wfs model.WriteFS, homeDir string, sid model.SessionID) (Change, error) {
	if err := checkSessionID(sid); err != nil {
		return Change{}, fmt.Errorf("undo refused: %w", err)
	}
	jname := filepath.Join(homeDir, filepath.FromSlash(FileRestoreJournal(sid)))
	defer lockJournalFile(jname)()
	j, err := readRestoreJournal(jname)
	if err != nil {
		return Change{}, err
	}
	e, ok := j.last()
	if !ok {
		return Change{}, fmt.Errorf("%w (session %s)", ErrNothingToUndo, sid)
	}
	ch := Change{ID: e.ID, Op: e.Op, Summary: "undo: " + e.Summary, Files: []ChangedFile{}}
	type undoFile struct {
		JournalFile
		existsNow bool
	}
	var todo []undoFile
	var diffs strings.Builder
	for _, f := range e.Files {
		target := targetOf(f.Path)
		cur, data, refusal := readTarget(target)
		if refusal != "" {
			return ch, fmt.Errorf("undo refused, nothing was written: %s: %s", target, refusal)
		}
		atBefore := cur.Exists == f.Existed && (!cur.Exists || bytes.Equal(data, f.Before))
		atAfter := cur.Exists == (f.After != "") && (!cur.Exists || cur.SHA256 == f.After)
		switch {
		case atBefore:
			continue
		case !atAfter:
			return ch, &ConflictError{Path: target, Read: FileStamp{Exists: f.After != "", SHA256: f.After}, Now: cur, During: "undo of " + e.ID}
		}
		todo = append(todo, undoFile{f, cur.Exists})
		diffs.WriteString(contentDiff(f.Path, f.Path, data, cur.Exists, f.Before, f.Existed))
	}
	for _, f := range todo {
		target := targetOf(f.Path)
		a := FileModified
		if !f.existsNow {
			a = FileCreated
		}
		if f.Existed {
			mode := f.Mode
			if mode == 0 {
				mode = 0o644
			}
			if err := model.WriteFileAtomicWith(wfs, target, f.Before, mode); err != nil {
				return ch, fmt.Errorf("undo %s: %w", e.ID, err)
			}
		} else {
			a = FileDeleted
			if err := wfs.Remove(target); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return ch, fmt.Errorf("undo %s: %w", e.ID, err)
			}
		}
		ch.Files = append(ch.Files, ChangedFile{Path: target, Action: a})
	}
	j.drop(e.ID)
	if err := model.WriteFileAtomicWith(wfs, jname, j.bytes(), 0o600); err != nil {
		return ch, fmt.Errorf("undo %s: files restored, but the journal could not be updated: %w", e.ID, err)
	}
	ch.Diff = diffs.String()
	return ch, nil
}

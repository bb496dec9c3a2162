package filehist

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

	"github.com/memscope/memscope/engine/journal"
	"github.com/memscope/memscope/engine/store"
	"github.com/memscope/memscope/model"
)

// RestoreJournalDir holds, per session, the journal of memscope's
// file-history restores: <home>/.memscope/file-history/<sessionId>/
// journal.jsonl. Each entry keeps the bytes every file had before the
// restore, so the restore can be undone. It is a folder of memscope's own
// in the home: the client's cleanup sweeps only its named folders
// (file-history/ among them, by the folder's mtime), so the saved
// content outlives the backups it was restored from.
const RestoreJournalDir = ".memscope/file-history"

// RestoreJournal is a session's restore journal, inside the home.
func RestoreJournal(sid model.SessionID) string {
	return path.Join(RestoreJournalDir, string(sid), "journal.jsonl")
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

// ApplyRestore carries out a plan in the home at homeDir, reading
// backups through fsys (the same home). It refuses, writing nothing, when
// a step was refused, when a file changed since the plan was made (size
// and SHA-256; a ConflictError), or when a backup changed. The content
// every file has now is journaled first, so UndoRestore can put it
// back; then each file is written atomically or, for a null version,
// deleted.
func ApplyRestore(homeDir string, fsys fs.FS, p *RestorePlan, now time.Time) (store.Change, error) {
	return ApplyRestoreWith(model.OSWriteFS{}, homeDir, fsys, p, now)
}

// ApplyRestoreWith is ApplyRestore writing through wfs (the app's writer;
// tests inject faults).
func ApplyRestoreWith(wfs model.WriteFS, homeDir string, fsys fs.FS, p *RestorePlan, now time.Time) (store.Change, error) {
	ch := store.Change{Op: p.op(), Summary: p.summary(), Files: []store.ChangedFile{}}
	if err := checkSessionID(p.SessionID); err != nil {
		return ch, fmt.Errorf("restore refused, nothing was written: %w", err)
	}
	if r := p.Refusals(); len(r) > 0 {
		return ch, fmt.Errorf("restore refused, nothing was written: %s", strings.Join(r, "; "))
	}
	// Checks, journal and writes under the session journal's lock, so a
	// second memscope restoring or undoing at once waits its turn.
	jname := filepath.Join(homeDir, filepath.FromSlash(RestoreJournal(p.SessionID)))
	defer journal.Acquire(jname).Release(true)
	type write struct {
		step RestoreStep
		data []byte
	}
	var writes []write
	var files []journal.File
	var diffs strings.Builder
	for _, s := range p.Steps {
		if !s.writes() {
			continue
		}
		cur, before, refusal := readTarget(s.Target)
		if refusal != "" {
			return ch, fmt.Errorf("restore refused, nothing was written: %s: %s", s.Target, refusal)
		}
		if !cur.SameContent(s.Current) {
			return ch, &store.ConflictError{Path: s.Target, Read: s.Current, Now: cur, During: "restore"}
		}
		w := write{step: s}
		if s.Action == model.RestoreCopy {
			data, err := model.ReadFileBounded(fsys, s.BackupPath, model.MaxBackupBytes)
			if err != nil {
				return ch, fmt.Errorf("restore refused, nothing was written: read backup %s: %w", s.BackupPath, err)
			}
			if got := store.StampOf(data, true, nil); !got.SameContent(s.After) {
				return ch, fmt.Errorf("restore refused, nothing was written: backup %s changed since the plan was made", s.BackupPath)
			}
			w.data = data
		}
		writes = append(writes, w)
		jf := journal.File{Path: journalPath(s.Target), Existed: cur.Exists, Before: before, After: s.After.SHA256}
		if cur.Exists {
			// Mode and mtime too: the undo puts the file back as old as
			// it was.
			if st, err := os.Lstat(s.Target); err == nil {
				jf.Mode, jf.ModTime = st.Mode().Perm(), st.ModTime()
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
	// The intent first: the entry, marked pending, holds every file's
	// content before any file changes, so a restore killed part way
	// leaves a record undo understands (each file is as before or as
	// after); it is marked done once every file is written.
	ch.ID = j.NewID(now)
	j.Add(journal.Entry{ID: ch.ID, Time: now.UTC(), Op: ch.Op, Summary: ch.Summary, Files: files, Pending: true})
	if err := model.WriteFileAtomicWith(wfs, jname, j.Bytes(), 0o600); err != nil {
		return ch, fmt.Errorf("save the current content before restoring (nothing was restored): %w", err)
	}
	// failed ends a restore a write failed: the atomic writer left that
	// file as it was, so when it was the first, nothing changed and the
	// entry goes (the journal never presents a change that did not
	// land); else it stays pending, for undo.
	failed := func(target string, err error) (store.Change, error) {
		if len(ch.Files) > 0 {
			return ch, fmt.Errorf("restore %s: %w (memscope files --undo puts back what was done)", target, err)
		}
		j.Drop(ch.ID)
		id := ch.ID
		ch.ID = ""
		if len(j.Bytes()) == 0 {
			// No room may be left to rewrite it; a removal needs none.
			if rerr := wfs.Remove(jname); rerr == nil || errors.Is(rerr, fs.ErrNotExist) {
				return ch, fmt.Errorf("restore %s: %w (nothing was restored)", target, err)
			}
		}
		if jerr := model.WriteFileAtomicWith(wfs, jname, j.Bytes(), 0o600); jerr != nil {
			return ch, fmt.Errorf("restore %s: %w (nothing was restored; its journal entry %s, still pending, is for no change)", target, err, id)
		}
		return ch, fmt.Errorf("restore %s: %w (nothing was restored)", target, err)
	}
	for _, w := range writes {
		s := w.step
		a := store.FileModified
		if s.Action == model.RestoreDelete {
			a = store.FileDeleted
			if err := wfs.Remove(s.Target); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return failed(s.Target, err)
			}
		} else {
			if !s.Current.Exists {
				a = store.FileCreated
			}
			// The version's mode: the client's backup is a copy with the
			// mode kept. The content is written now, so the mtime is now.
			var err error
			if m, serr := fs.Stat(fsys, s.BackupPath); serr == nil {
				err = model.WriteFileAtomicAs(wfs, s.Target, w.data, m.Mode().Perm(), time.Time{})
			} else {
				err = model.WriteFileAtomicWith(wfs, s.Target, w.data, 0o644)
			}
			if err != nil {
				return failed(s.Target, err)
			}
		}
		ch.Files = append(ch.Files, store.ChangedFile{Path: s.Target, Action: a})
	}
	ch.Diff = diffs.String()
	j.Done(ch.ID)
	if err := model.WriteFileAtomicWith(wfs, jname, j.Bytes(), 0o600); err != nil {
		// Every file is restored; the entry, still marked pending, undoes
		// it all the same.
		return ch, fmt.Errorf("restored, but the journal could not mark restore %s done (memscope files --undo still undoes it): %w", ch.ID, err)
	}
	return ch, nil
}

// readRestoreJournal reads a restore journal from disk; a missing one is
// empty. Lines that do not parse are kept as they are.
func readRestoreJournal(name string) (*journal.Journal, error) {
	data, err := model.ReadRegularFile(name, model.MaxJournalBytes)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("read the restore journal: %w", err)
	}
	j, _ := journal.Parse(name, data)
	return j, nil
}

// Restores lists a session's journaled restores, oldest first, and
// the journal lines that could not be read.
func Restores(fsys fs.FS, sid model.SessionID) ([]journal.Entry, []model.Problem, error) {
	name := RestoreJournal(sid)
	data, err := model.ReadFileBounded(fsys, name, model.MaxJournalBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("read the restore journal: %w", err)
	}
	entries, probs := journal.ParseEntries(name, data)
	return entries, probs, nil
}

// UndoRestore reverts the newest journaled restore of session sid in
// the home at homeDir: every file gets back the bytes (or the absence) it
// had before, then the entry leaves the journal. It refuses with a
// ConflictError, writing nothing, when a file is neither as the restore
// left it nor as it was before; a file already back is left alone, so an
// interrupted undo can be run again.
func UndoRestore(homeDir string, sid model.SessionID) (store.Change, error) {
	return UndoRestoreWith(model.OSWriteFS{}, homeDir, sid)
}

// UndoRestoreWith is UndoRestore writing through wfs.
func UndoRestoreWith(wfs model.WriteFS, homeDir string, sid model.SessionID) (store.Change, error) {
	if err := checkSessionID(sid); err != nil {
		return store.Change{}, fmt.Errorf("undo refused: %w", err)
	}
	jname := filepath.Join(homeDir, filepath.FromSlash(RestoreJournal(sid)))
	defer journal.Acquire(jname).Release(true)
	j, err := readRestoreJournal(jname)
	if err != nil {
		return store.Change{}, err
	}
	e, ok := j.Last()
	if !ok {
		return store.Change{}, fmt.Errorf("%w (session %s)", store.ErrNothingToUndo, sid)
	}
	ch := store.Change{ID: e.ID, Op: e.Op, Summary: "undo: " + e.Summary, Files: []store.ChangedFile{}}
	if e.Pending {
		ch.Summary += " (interrupted: only the files it changed are put back)"
	}
	type undoFile struct {
		journal.File
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
			return ch, &store.ConflictError{Path: target, Read: store.FileStamp{Exists: f.After != "", SHA256: f.After}, Now: cur, During: "undo of " + e.ID}
		}
		todo = append(todo, undoFile{f, cur.Exists})
		diffs.WriteString(contentDiff(f.Path, f.Path, data, cur.Exists, f.Before, f.Existed))
	}
	for _, f := range todo {
		target := targetOf(f.Path)
		a := store.FileModified
		if !f.existsNow {
			a = store.FileCreated
		}
		if f.Existed {
			mode := f.Mode
			if mode == 0 {
				mode = 0o644
			}
			// Back with its mode and, when the entry kept it, its mtime.
			var err error
			if f.Mode != 0 {
				err = model.WriteFileAtomicAs(wfs, target, f.Before, mode, f.ModTime)
			} else {
				err = model.WriteFileAtomicWith(wfs, target, f.Before, mode)
			}
			if err != nil {
				return ch, fmt.Errorf("undo %s: %w", e.ID, err)
			}
		} else {
			a = store.FileDeleted
			if err := wfs.Remove(target); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return ch, fmt.Errorf("undo %s: %w", e.ID, err)
			}
		}
		ch.Files = append(ch.Files, store.ChangedFile{Path: target, Action: a})
	}
	j.Drop(e.ID)
	if err := model.WriteFileAtomicWith(wfs, jname, j.Bytes(), 0o600); err != nil {
		return ch, fmt.Errorf("undo %s: files restored, but the journal could not be updated: %w", e.ID, err)
	}
	ch.Diff = diffs.String()
	return ch, nil
}

package cli

import (
	"errors"
	"fmt"
	"io"
	"path"
	"strings"

	"github.com/memscope/memscope/engine/filehist"
	"github.com/memscope/memscope/engine/store"
	"github.com/memscope/memscope/internal/format"
	"github.com/memscope/memscope/model"
)

var filesCommand = &command{
	name:  "files",
	usage: "memscope files [SESSION] [--turn UUID] [--file PATH [--diff V1[..V2|..disk]] [--restore V]] [--rewind UUID] [--yes [--plan FP]] [--undo] [--json]",
	summary: `the per-session file snapshots Claude Code keeps for /rewind: turns, versions, diffs, restore

Without SESSION, lists the sessions that have a file-history folder. With
SESSION (an id, a unique prefix, or a transcript path), lists its turns
(each user prompt with a snapshot: the files it edited and the versions
backed up at its start), every version of every tracked file (null = the
file did not exist), backups no record names and records whose backup is
missing.
  --turn UUID        one turn, with what /rewind to it would do
  --file PATH        one file's versions (tracking path or absolute path)
  --diff R           with --file: V1..V2, V..disk, or V (V to the next
                     version, or to disk for the newest)
  --restore V        with --file: put version V back (null deletes the file)
  --rewind UUID      put every tracked file back as it was before the turn,
                     as /rewind "Restore code" does (entry in the turn's
                     snapshot, else version 1; null deletes)
  --yes              do it; without it, the plan and diffs are shown and
                     nothing is written
  --plan FP          with --yes: only if the plan is still the one shown
                     with fingerprint FP (no file changed since)
  --undo             revert the session's newest restore
A restore is refused, writing nothing, when a target is a symlink or a
folder, its folder is reached through a symlink, a backup is missing or
belongs to another path, or a file changed since the plan (size+SHA-256).
Before writing, the files' current bytes are journaled in
<home>/.memscope/file-history/<session>/journal.jsonl (never swept by the
client's cleanup), so --undo can put them back byte for byte.

--json prints: without SESSION {home, sessions: [{sessionId, transcript,
projectSlug, backups, bytes, modTime}]}; with SESSION {sessionId,
transcript, cwd, backupDir, backupDirExists, turns: [{messageId, time,
prompt, promptLine, snapshotLine, synthesized, tracked, touched:
[{trackingPath, how: edited|backed-up, version, backupFileName, absent,
line}]}], files: [{trackingPath, target, versions: [{version,
backupFileName, absent, backupTime, backupPath, backupExists, size, mode,
turns, unreferenced}]}], unreferenced: [{name, path, pathHash, version,
size, mode, modTime}], missingBackups: [{trackingPath, backupFileName,
version, turn}], problems}; --turn {turn, rewindPlan}; --file {file,
disk: {exists, size, sha256}}; --diff {trackingPath, from, to, diff};
--restore/--rewind {fingerprint, plan: {sessionId, turn, trackingPath, version, steps:
[{trackingPath, action: restore|delete|leave, target, backupPath, backup,
fromFirstVersion, current, after, diff, unchanged, refused}]}, applied,
change}; --undo {id, op, summary, files: [{path, action}], diff}.`,
	run: steps(parseFiles, runFiles, showFiles),
}

// filesOptions are the flags of memscope files and its SESSION ("" lists
// the sessions).
type filesOptions struct {
	home             homeFlags
	session          string
	json, yes, undo  bool
	turn, file, diff string
	restore, rewind  string
	plan             string
}

// filesReport is what one mode of files found or did.
type filesReport struct {
	// notes are said on stderr first (problems reading the folders).
	notes []string
	// json is what --json prints; text prints the text report.
	json any
	text func(w io.Writer)
	// code is the exit code once printed: 1 for a refused restore.
	code int
}

func parseFiles(e *env, args []string) (filesOptions, error) {
	var f filesOptions
	fs := newFlags("files", &f.home, &f.json)
	fs.StringVar(&f.turn, "turn", "", "show one turn (prompt `UUID` or unique prefix)")
	fs.StringVar(&f.file, "file", "", "show one tracked file (tracking path or absolute `PATH`)")
	fs.StringVar(&f.diff, "diff", "", "with --file: V1..V2, V..disk or V")
	fs.StringVar(&f.restore, "restore", "", "with --file: restore version `V`")
	fs.StringVar(&f.rewind, "rewind", "", "restore every tracked file as before turn `UUID`")
	fs.BoolVar(&f.yes, "yes", false, "write the restore (without it, only the plan is shown)")
	fs.BoolVar(&f.undo, "undo", false, "revert the session's newest restore")
	fs.StringVar(&f.plan, "plan", "", "with --yes: restore only if the plan is still the one shown with this fingerprint `FP`")
	pos, err := parseInterspersed(e, fs, args)
	if err != nil {
		return f, err
	}
	if len(pos) > 1 {
		return f, badUsagef("one SESSION at most")
	}
	if len(pos) == 1 {
		f.session = pos[0]
	}
	if err := f.check(len(pos) == 1); err != nil {
		return f, badUsage(err)
	}
	return f, nil
}

// check rejects flag combinations that mean nothing.
func (f *filesOptions) check(haveSession bool) error {
	actions := 0
	for _, set := range []bool{f.diff != "", f.restore != "", f.rewind != "", f.undo, f.turn != ""} {
		if set {
			actions++
		}
	}
	switch {
	case !haveSession && (actions > 0 || f.file != ""):
		return errors.New("name a SESSION (memscope files lists them)")
	case actions > 1:
		return errors.New("--turn, --diff, --restore, --rewind and --undo go one at a time")
	case (f.diff != "" || f.restore != "") && f.file == "":
		return errors.New("--diff and --restore need --file PATH")
	case f.file != "" && (f.rewind != "" || f.undo || f.turn != ""):
		return errors.New("--file goes with --diff or --restore only")
	case f.yes && f.restore == "" && f.rewind == "":
		return errors.New("--yes goes with --restore or --rewind")
	case f.plan != "" && !f.yes:
		return errors.New("--plan goes with --yes")
	}
	return nil
}

// runFiles opens the home and runs the mode the flags ask for: the
// sessions with file history, or SESSION's turns, a turn, a file, a diff,
// a restore (planned, or done with --yes) or the undo of one.
func runFiles(e *env, f filesOptions) (filesReport, error) {
	o, err := e.openHome(&f.home)
	if err != nil {
		return filesReport{}, err
	}
	defer o.close()
	if f.session == "" {
		return filesSessions(o), nil
	}
	s, err := loadFileHistory(e, o, f.session)
	if err != nil {
		return filesReport{}, err
	}
	switch {
	case f.undo:
		return filesUndo(e, o, s)
	case f.rewind != "":
		p, err := filehist.PlanTurnRestore(o.home.FS, s, f.rewind)
		if err != nil {
			return filesReport{}, err
		}
		return filesRestore(e, o, p, f)
	case f.restore != "":
		v, err := filehist.ParseVersionRef(f.restore)
		if err != nil || v.Disk {
			return filesReport{}, badUsagef("--restore %q: want a version number", f.restore)
		}
		p, err := filehist.PlanVersionRestore(o.home.FS, s, f.file, v.Version)
		if err != nil {
			return filesReport{}, err
		}
		return filesRestore(e, o, p, f)
	case f.diff != "":
		return filesDiff(o, s, f.file, f.diff)
	case f.file != "":
		return filesFile(s, f.file)
	case f.turn != "":
		return filesTurn(o, s, f.turn)
	}
	return filesReport{json: s, text: func(w io.Writer) { printFileHistory(w, s) }}, nil
}

// showFiles prints what runFiles returned, as text or --json.
func showFiles(e *env, opts filesOptions, rep filesReport) error {
	for _, n := range rep.notes {
		fmt.Fprintf(e.stderr, "memscope files: %s\n", n)
	}
	if err := e.output(opts.json, rep.json, rep.text); err != nil {
		return err
	}
	if rep.code != 0 {
		return exitStatus(rep.code)
	}
	return nil
}

// loadFileHistory reads SESSION's file history: a transcript found like
// the other session commands find it, else a file-history folder alone
// (its transcript swept or deleted).
func loadFileHistory(e *env, o *opened, arg string) (*filehist.SessionFileHistory, error) {
	sf, err := openSession(e, &homeFlags{dir: o.home.Dir}, arg)
	if err != nil {
		sid, ok := backupOnlySession(o, arg)
		if !ok {
			return nil, err
		}
		s, err := filehist.ReadSessionFileHistory(o.home.FS, sid, "")
		return &s, err
	}
	defer sf.close()
	r, err := model.OpenRegular(sf.fsys, sf.name)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", sf.disk, err)
	}
	defer r.Close()
	t, err := model.ReadFileHistoryTranscript(r, sf.name)
	if err != nil {
		return nil, err
	}
	// The file name is the session id (records' sessionId fields are
	// content, and may say anything).
	sid := model.SessionID(strings.TrimSuffix(path.Base(sf.name), ".jsonl"))
	if path.Base(sf.name) == "transcript.jsonl" {
		// The seed layout: sessions/<id>/transcript.jsonl.
		sid = model.SessionID(path.Base(path.Dir(sf.name)))
	}
	if sf.home == nil && t.SessionID != "" {
		sid = t.SessionID
	}
	folder, probs := model.ReadFileHistorySession(o.home.FS, sid)
	t.Problems = append(t.Problems, probs...)
	s := filehist.BuildSessionFileHistory(sid, sf.name, t, folder)
	return &s, nil
}

// backupOnlySession finds a file-history folder by id or unique prefix.
func backupOnlySession(o *opened, arg string) (model.SessionID, bool) {
	sessions, _ := filehist.Sessions(o.home.FS)
	var hit model.SessionID
	for _, s := range sessions {
		id := string(s.SessionID)
		if id == arg {
			return s.SessionID, true
		}
		if strings.HasPrefix(id, arg) {
			if hit != "" {
				return "", false
			}
			hit = s.SessionID
		}
	}
	return hit, hit != ""
}

func filesSessions(o *opened) filesReport {
	sessions, probs := filehist.Sessions(o.home.FS)
	r := filesReport{json: map[string]any{"home": o.home.Dir, "sessions": sessions},
		text: func(w io.Writer) { printFileHistorySessions(w, o.home.Dir, sessions) }}
	for _, p := range probs {
		r.notes = append(r.notes, model.SanitizeForTerminal(p.Error()))
	}
	return r
}

func filesTurn(o *opened, s *filehist.SessionFileHistory, id string) (filesReport, error) {
	t, ok := s.Turn(id)
	if !ok {
		return filesReport{}, fmt.Errorf("session %s has no turn %q with a file-history snapshot (or the prefix is ambiguous)", s.SessionID, id)
	}
	p, err := filehist.PlanTurnRestore(o.home.FS, s, t.MessageID)
	if err != nil {
		return filesReport{}, err
	}
	return filesReport{json: map[string]any{"turn": t, "rewindPlan": p}, text: func(w io.Writer) {
		printTurn(w, *t)
		fmt.Fprintf(w, "\n/rewind to this turn (memscope files %s --rewind %s):\n", s.SessionID, t.MessageID)
		printPlan(w, p, false)
	}}, nil
}

func filesFile(s *filehist.SessionFileHistory, name string) (filesReport, error) {
	f, ok := s.File(name)
	if !ok {
		return filesReport{}, fmt.Errorf("session %s tracks no file %q", s.SessionID, name)
	}
	disk, err := diskStamp(f)
	if err != nil {
		return filesReport{}, err
	}
	return filesReport{json: map[string]any{"file": f, "disk": disk}, text: func(w io.Writer) {
		printTrackedFile(w, *f, s.Turns)
		if disk.Exists {
			fmt.Fprintf(w, "    disk  %s, sha256 %s\n", format.Bytes(disk.Size), disk.SHA256[:12])
		} else {
			fmt.Fprintln(w, "    disk  (no file)")
		}
	}}, nil
}

// diskStamp is the tracked file on disk now.
func diskStamp(f *filehist.TrackedFile) (store.FileStamp, error) {
	data, exists, err := filehist.ReadFileVersion(nil, f, filehist.DiskRef)
	if err != nil || !exists {
		return store.FileStamp{}, err
	}
	return filehist.StampBytes(data), nil
}

func filesDiff(o *opened, s *filehist.SessionFileHistory, name, spec string) (filesReport, error) {
	f, ok := s.File(name)
	if !ok {
		return filesReport{}, fmt.Errorf("session %s tracks no file %q", s.SessionID, name)
	}
	from, to, err := filehist.ParseVersionRange(spec, f)
	if err != nil {
		return filesReport{}, badUsage(err)
	}
	d, err := filehist.FileVersionDiff(o.home.FS, f, from, to)
	if err != nil {
		return filesReport{}, err
	}
	return filesReport{json: map[string]any{"trackingPath": f.TrackingPath, "from": from.String(), "to": to.String(), "diff": d}, text: func(w io.Writer) {
		if d == "" {
			fmt.Fprintf(w, "%s: %s and %s are the same\n", model.SanitizeForTerminal(f.TrackingPath), from, to)
			return
		}
		io.WriteString(w, d)
	}}, nil
}

// filesRestore shows the plan p, or with --yes (and the plan unchanged
// since --plan's fingerprint) applies it, journaled for --undo.
func filesRestore(e *env, o *opened, p *filehist.RestorePlan, f filesOptions) (filesReport, error) {
	refused := len(p.Refusals()) > 0
	if f.yes && f.plan != "" && f.plan != p.Fingerprint() {
		return filesReport{}, fmt.Errorf("restore refused, nothing was written: the files or backups changed since plan %s was shown (now %s); look at the plan again", f.plan, p.Fingerprint())
	}
	if !f.yes || refused {
		r := filesReport{json: map[string]any{"plan": p, "fingerprint": p.Fingerprint(), "applied": false}, text: func(w io.Writer) {
			printPlan(w, p, true)
			switch {
			case refused:
				fmt.Fprintln(w, "refused: nothing was written")
			case p.Writes() == 0:
				fmt.Fprintln(w, "nothing to do: every file already is as it would be restored")
			default:
				fmt.Fprintf(w, "nothing was written: run again with --yes --plan %s to restore exactly this\n", p.Fingerprint())
			}
		}}
		if refused {
			r.code = 1
		}
		return r, nil
	}
	ch, err := filehist.ApplyRestoreWith(e.writer(), o.home.Dir, o.home.FS, p, e.now())
	if err != nil {
		return filesReport{}, err
	}
	return filesReport{json: map[string]any{"plan": p, "fingerprint": p.Fingerprint(), "applied": true, "change": ch}, text: func(w io.Writer) {
		fmt.Fprintf(w, "%s\n", ch.Summary)
		for _, c := range ch.Files {
			fmt.Fprintf(w, "  %-8s %s\n", c.Action, c.Path)
		}
		if ch.ID != "" {
			fmt.Fprintf(w, "journaled as %s: memscope files %s --undo puts the files back\n", ch.ID, p.SessionID)
		}
	}}, nil
}

func filesUndo(e *env, o *opened, s *filehist.SessionFileHistory) (filesReport, error) {
	ch, err := filehist.UndoRestoreWith(e.writer(), o.home.Dir, s.SessionID)
	if err != nil {
		return filesReport{}, err
	}
	return filesReport{json: ch, text: func(w io.Writer) {
		fmt.Fprintf(w, "undid %s: %s\n", ch.ID, ch.Summary)
		for _, c := range ch.Files {
			fmt.Fprintf(w, "  %-8s %s\n", c.Action, c.Path)
		}
		io.WriteString(w, ch.Diff)
	}}, nil
}

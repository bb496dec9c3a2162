package filehist

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/memscope/memscope/engine/journal"
	"github.com/memscope/memscope/engine/store"
	"github.com/memscope/memscope/model"
)

// The file-history operations in a restore journal.
const (
	// OpFileRestore puts back one version of one file.
	OpFileRestore journal.OpKind = "file-restore"
	// OpFileRewind puts back every tracked file as it was before a turn,
	// as /rewind "Restore code" does.
	OpFileRewind journal.OpKind = "file-rewind"
)

// RestoreStep is one file of a restore: what will be done, the file
// as it is now and as it will be, and the diff between them.
type RestoreStep struct {
	model.RestoreStep
	// Current is the file on disk when the plan was made; applying is
	// refused when it no longer matches (size and SHA-256).
	Current store.FileStamp `json:"current"`
	// After is what the step leaves: the backup's bytes, or absent.
	After store.FileStamp `json:"after"`
	// Diff turns the file on disk into what the step leaves.
	Diff string `json:"diff,omitempty"`
	// Unchanged is true when the file already is as the step would
	// leave it: nothing is written.
	Unchanged bool `json:"unchanged,omitempty"`
	// Refused says why the file cannot be restored (a symlink, a folder,
	// a missing backup, a backup of another path); one refused step
	// stops the whole plan.
	Refused string `json:"refused,omitempty"`
}

// RestorePlan is a restore of one session's files: of one version of
// one file, or of a whole turn (Turn set) as /rewind does.
type RestorePlan struct {
	SessionID model.SessionID `json:"sessionId"`
	// Turn is the prompt's uuid of a whole-turn restore.
	Turn string `json:"turn,omitempty"`
	// TrackingPath and Version name a one-file restore.
	TrackingPath string        `json:"trackingPath,omitempty"`
	Version      int           `json:"version,omitempty"`
	Steps        []RestoreStep `json:"steps"`
}

// PlanTurnRestore plans what /rewind "Restore code" does for the turn
// (a prompt uuid or a unique prefix): every tracked file back to its
// entry in the turn's snapshot, else its version 1; null deletes.
func PlanTurnRestore(fsys fs.FS, s *SessionFileHistory, turn string) (*RestorePlan, error) {
	t, ok := s.Turn(turn)
	if !ok {
		return nil, fmt.Errorf("session %s has no turn %q with a file-history snapshot", s.SessionID, turn)
	}
	steps, err := s.History.RestorePlan(s.SessionID, t.MessageID, s.CWD)
	if err != nil {
		return nil, err
	}
	p := &RestorePlan{SessionID: s.SessionID, Turn: t.MessageID}
	for _, st := range steps {
		f, _ := s.File(st.TrackingPath)
		p.Steps = append(p.Steps, planStep(fsys, s.CWD, f, st))
	}
	return p, nil
}

// PlanVersionRestore plans putting back version n of one tracked file
// (named by tracking path or absolute path); a null version deletes it.
func PlanVersionRestore(fsys fs.FS, s *SessionFileHistory, file string, n int) (*RestorePlan, error) {
	f, ok := s.File(file)
	if !ok {
		return nil, fmt.Errorf("session %s tracks no file %q", s.SessionID, file)
	}
	v, ok := f.Version(n)
	if !ok {
		return nil, fmt.Errorf("%s has no version %d in session %s", f.TrackingPath, n, s.SessionID)
	}
	st := model.RestoreStep{TrackingPath: f.TrackingPath, Action: model.RestoreDelete, Target: f.Target,
		Backup: model.FileBackup{BackupFileName: v.BackupFileName, FileAbsent: v.Absent, Version: v.Version, BackupTime: v.BackupTime}}
	if !v.Absent {
		st.Action, st.BackupPath = model.RestoreCopy, v.BackupPath
	}
	return &RestorePlan{SessionID: s.SessionID, TrackingPath: f.TrackingPath, Version: n, Steps: []RestoreStep{planStep(fsys, s.CWD, f, st)}}, nil
}

// planStep reads the target and the backup and checks that the step may
// be done.
func planStep(fsys fs.FS, cwd string, f *TrackedFile, st model.RestoreStep) RestoreStep {
	step := RestoreStep{RestoreStep: st}
	cur, data, refusal := readTarget(st.Target)
	step.Current = cur
	if refusal != "" {
		step.Refused = refusal
		return step
	}
	switch st.Action {
	case model.RestoreLeave:
		step.After = cur
		step.Unchanged = true
		return step
	case model.RestoreDelete:
		step.After = store.FileStamp{}
		step.Diff = contentDiff(st.TrackingPath+"@disk", st.TrackingPath, data, cur.Exists, nil, false)
	case model.RestoreCopy:
		if r := backupRefusal(f, st, cwd); r != "" {
			step.Refused = r
			return step
		}
		if f != nil {
			for _, v := range f.Versions {
				if v.BackupFileName == st.Backup.BackupFileName && v.Mode.Type() != 0 {
					step.Refused = fmt.Sprintf("backup %s %s", st.BackupPath, model.NotRegularReason(v.Mode))
					return step
				}
			}
		}
		b, err := model.ReadFileBounded(fsys, st.BackupPath, model.MaxBackupBytes)
		if err != nil {
			step.Refused = fmt.Sprintf("backup %s cannot be read: %v", st.BackupPath, err)
			return step
		}
		step.After = store.StampOf(b, true, nil)
		step.Diff = contentDiff(st.TrackingPath+"@disk", st.TrackingPath+"@v"+fmt.Sprint(st.Backup.Version), data, cur.Exists, b, true)
	}
	step.Unchanged = cur.SameContent(step.After)
	return step
}

// backupRefusal checks that the backup is a backup of the target: its
// name's path hash must be the target's (or the tracking path's against
// cwd), so a record cannot make memscope copy one file over another.
func backupRefusal(f *TrackedFile, st model.RestoreStep, cwd string) string {
	h, _, ok := model.ParseBackupFileName(st.Backup.BackupFileName)
	if !ok {
		return fmt.Sprintf("%q is not a backup name", st.Backup.BackupFileName)
	}
	tf := f
	if tf == nil {
		tf = &TrackedFile{TrackingPath: st.TrackingPath, Target: st.Target}
	}
	if !tf.hashMatches(h, cwd) || tf.Target != st.Target {
		return fmt.Sprintf("backup %s is not a backup of %s", st.Backup.BackupFileName, st.Target)
	}
	return ""
}

// readTarget reads the file a restore would write, or says why memscope
// will not write it: it must be an absolute, clean path to a regular file
// (or to nothing) whose folder is not reached through a symlink, so a
// write can land nowhere but on the tracked path.
func readTarget(target string) (store.FileStamp, []byte, string) {
	if !filepath.IsAbs(target) || filepath.Clean(target) != target {
		return store.FileStamp{}, nil, "not an absolute, clean path"
	}
	if r := folderRefusal(filepath.Dir(target)); r != "" {
		return store.FileStamp{}, nil, r
	}
	st, err := os.Lstat(target)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return store.FileStamp{}, nil, ""
	case err != nil:
		return store.FileStamp{}, nil, err.Error()
	case st.Mode()&fs.ModeSymlink != 0:
		return store.FileStamp{}, nil, "is a symlink: memscope does not write through links"
	case st.IsDir():
		return store.FileStamp{}, nil, "is a folder"
	case !st.Mode().IsRegular():
		return store.FileStamp{}, nil, model.NotRegularReason(st.Mode())
	}
	data, err := model.ReadRegularFile(target, model.MaxBackupBytes)
	if err != nil {
		return store.FileStamp{}, nil, err.Error()
	}
	return store.StampOf(data, true, nil), data, ""
}

// folderRefusal checks the nearest existing folder above a target: a
// symlink on the way would send the write elsewhere.
func folderRefusal(dir string) string {
	for d := dir; ; d = filepath.Dir(d) {
		st, err := os.Lstat(d)
		if errors.Is(err, fs.ErrNotExist) {
			if filepath.Dir(d) == d {
				return ""
			}
			continue
		}
		if err != nil {
			return err.Error()
		}
		if !st.IsDir() && st.Mode()&fs.ModeSymlink == 0 {
			return d + " is not a folder"
		}
		real, err := filepath.EvalSymlinks(d)
		if err != nil {
			return err.Error()
		}
		if real != d {
			return fmt.Sprintf("its folder is reached through a symlink (%s is %s)", d, real)
		}
		return ""
	}
}

// journalPath turns an absolute target into a journal path (journal paths
// are slash-separated and relative: relative to the filesystem root here).
func journalPath(target string) string {
	return strings.TrimPrefix(filepath.ToSlash(target), "/")
}

func targetOf(journalPath string) string {
	return filepath.FromSlash("/" + journalPath)
}

// Describe says in a few words what the step does: "restore v2",
// "delete", "leave (…)", "… (already so: nothing to write)", "REFUSED
// (why)", and notes a version-1 fallback.
func (s RestoreStep) Describe() string {
	what := string(s.Action)
	switch {
	case s.Refused != "":
		what = "REFUSED (" + s.Refused + ")"
	case s.Action == model.RestoreLeave:
		what = "leave (no entry says what it was)"
	case s.Unchanged:
		what += " (already so: nothing to write)"
	case s.Action == model.RestoreCopy:
		what += fmt.Sprintf(" v%d", s.Backup.Version)
	}
	if s.FromFirstVersion {
		what += " [version 1: the turn's snapshot does not list it]"
	}
	return what
}

// writes reports whether applying the step writes or deletes anything.
func (s RestoreStep) writes() bool {
	return s.Action != model.RestoreLeave && !s.Unchanged
}

// Fingerprint names the plan and the state it was made in: every step's
// target, action and the SHA-256 of the file now and after. A plan made
// again gives the same fingerprint only when no file (nor backup) has
// changed, so a plan shown once can be applied later only as it was
// shown (memscope files --plan).
func (p *RestorePlan) Fingerprint() string {
	h := sha256.New()
	for _, s := range p.Steps {
		fmt.Fprintf(h, "%s\x00%s\x00%v\x00%s\x00%v\x00%s\x00%s\n", s.Target, s.Action, s.Current.Exists, s.Current.SHA256, s.After.Exists, s.After.SHA256, s.Refused)
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// Refusals lists why the plan cannot be applied; empty when it can.
func (p *RestorePlan) Refusals() []string {
	var out []string
	for _, s := range p.Steps {
		if s.Refused != "" {
			out = append(out, s.Target+": "+s.Refused)
		}
	}
	return out
}

// Writes counts the files applying would write or delete.
func (p *RestorePlan) Writes() int {
	n := 0
	for _, s := range p.Steps {
		if s.writes() {
			n++
		}
	}
	return n
}

func (p *RestorePlan) op() journal.OpKind {
	if p.Turn != "" {
		return OpFileRewind
	}
	return OpFileRestore
}

func (p *RestorePlan) summary() string {
	if p.Turn != "" {
		return fmt.Sprintf("rewind the files of session %s to before turn %s", p.SessionID, p.Turn)
	}
	return fmt.Sprintf("restore %s to v%d (session %s)", p.TrackingPath, p.Version, p.SessionID)
}

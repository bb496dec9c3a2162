package vault

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/memscope/memscope/engine/journal"
	"github.com/memscope/memscope/internal/format"
	"github.com/memscope/memscope/model"
)

// Restore statuses of one file.
const (
	// RestoreWritten: the file was absent and is written back.
	RestoreWritten = "written"
	// RestoreIdentical: the home already holds the same bytes.
	RestoreIdentical = "identical"
	// RestoreConflict: the home holds other bytes at the path; nothing
	// of the session is written.
	RestoreConflict = "conflict"
)

// RestoreOptions say which session to put back, and where.
type RestoreOptions struct {
	// Home is where the files go (the home they came from, or another
	// with --to).
	Home    *model.Home
	Session model.SessionID
	// Touch gives the written files the time of the restore instead of
	// their own, so the next sweep does not delete them again.
	Touch bool
	// SweepDays is the client's cleanupPeriodDays (0: unknown): a file
	// put back older than that is said to go again at the next sweep.
	SweepDays int
	DryRun    bool
	Now       time.Time
	// Journal, when set, is called once before the first file is written
	// with the files the restore creates (paths relative to the home, the
	// SHA-256 each will hold): the home's undo journal keeps them, so
	// `memscope undo` and the app's undo take the restore back
	// (store.Store.JournalCreated). An error stops the restore before
	// anything is written.
	Journal func(summary string, files []journal.File) error
}

// OpRestore is a restore from the vault in the home's undo journal.
const OpRestore journal.OpKind = "vault-restore"

// RestoredFile is one file of a restore.
type RestoredFile struct {
	Path    string    `json:"path"`
	Size    int64     `json:"size"`
	SHA256  string    `json:"sha256"`
	ModTime time.Time `json:"modTime"`
	Status  string    `json:"status"`
}

// RestoreReport is what a restore did.
type RestoreReport struct {
	Session   string         `json:"session"`
	To        string         `json:"to"`
	ID        string         `json:"id,omitempty"`
	DryRun    bool           `json:"dryRun,omitempty"`
	Files     []RestoredFile `json:"files"`
	Written   int            `json:"written"`
	Identical int            `json:"identical"`
	Bytes     int64          `json:"bytes"`
	Warnings  []string       `json:"warnings"`
}

// ConflictError is a restore refused because the home holds other
// bytes at some of the session's paths.
type ConflictError struct {
	Paths []string
}

func (e *ConflictError) Error() string {
	return fmt.Sprintf("the home holds other bytes at %d of the session's paths (%s); nothing was written", len(e.Paths), strings.Join(e.Paths, ", "))
}

// ErrUnknownSession is a session the vault holds nothing of.
var ErrUnknownSession = errors.New("the vault holds no file of that session")

// restoreLog is what a restore wrote, kept for its undo.
type restoreLog struct {
	ID      string         `json:"id"`
	Session string         `json:"session"`
	Home    string         `json:"home"`
	Time    time.Time      `json:"time"`
	Files   []RestoredFile `json:"files"`
}

// sessionRecords are the records a restore of session writes: the
// session's transcript, its folder and file history, and the pastes its
// prompts refer to, as the vault's copy of history.jsonl names them
// (the source home's) and as home's does (a restore into another home
// finds none there).
func sessionRecords(st *state, rd *chunkReader, home fs.FS, session model.SessionID) []*Record {
	pastes := map[string]bool{}
	for _, p := range append(vaultPastes(st, rd, session), sessionPastes(home, session)...) {
		pastes[path.Join(model.PasteCacheDir, p)] = true
	}
	var out []*Record
	for _, p := range st.paths() {
		h := st.entries[p].head
		if !(h.Session == session && h.Kind != KindMemory && h.Kind != KindHistory || h.Kind == KindPaste && pastes[p]) {
			continue
		}
		if r := st.get(p); r != nil && r.Latest() != nil {
			out = append(out, r)
		}
	}
	return out
}

// vaultPastes is sessionPastes read from the vault's copy of
// history.jsonl (none when it holds none, or cannot rebuild it).
func vaultPastes(st *state, rd *chunkReader, session model.SessionID) []string {
	r := st.get(model.HistoryPath)
	if r == nil || r.Kind != KindHistory || r.Latest() == nil {
		return nil
	}
	pr, pw := io.Pipe()
	done := make(chan struct{})
	go func() {
		defer close(done)
		pw.CloseWithError(writeVersion(pw, rd, r.Latest()))
	}()
	out := pastesIn(pr, session)
	pr.Close()
	<-done // rd is the caller's again
	return out
}

// Restore writes the session's files back into o.Home byte for byte, at
// the paths the client reads them from. A file the home already holds
// with the same bytes is left; one with other bytes refuses the whole
// restore before anything is written. Every file is created (never
// replacing one), read back and checked.
func (v *Vault) Restore(o RestoreOptions) (RestoreReport, error) {
	rep := RestoreReport{Session: string(o.Session), To: o.Home.Dir, DryRun: o.DryRun, Files: []RestoredFile{}, Warnings: []string{}}
	unlock := v.lock()
	defer unlock()
	st, ix, err := v.read(true)
	if err != nil {
		return rep, err
	}
	rd := newChunkReader(v, ix)
	defer rd.close()
	recs := sessionRecords(st, rd, o.Home.FS, o.Session)
	if len(recs) == 0 {
		return rep, fmt.Errorf("%s: %w", o.Session, ErrUnknownSession)
	}
	var conflicts []string
	for _, r := range recs {
		ver := r.Latest()
		f := RestoredFile{Path: r.Path, Size: ver.Size, SHA256: ver.SHA256, ModTime: ver.ModTime, Status: RestoreWritten}
		if o.Touch {
			f.ModTime = o.Now
		}
		sum, exists, err := fileSum(o.Home.FS, r.Path)
		if err == nil && exists && f.SHA256 == "" {
			f.SHA256, err = versionSHA256(rd, ver)
		}
		switch {
		case err != nil:
			return rep, fmt.Errorf("restore %s: %w", filepath.Join(o.Home.Dir, r.Path), err)
		case exists && sum == f.SHA256:
			f.Status = RestoreIdentical
			rep.Identical++
		case exists:
			f.Status = RestoreConflict
			conflicts = append(conflicts, r.Path)
		}
		rep.Files = append(rep.Files, f)
	}
	if len(conflicts) > 0 {
		return rep, &ConflictError{Paths: conflicts}
	}
	if missing := missingChunks(recs, ix); len(missing) > 0 {
		return rep, fmt.Errorf("vault %s: %d chunks of the session are in no pack (run memscope vault verify): %s", v.Dir, len(missing), missing[0])
	}
	for i, r := range recs {
		if f := &rep.Files[i]; f.SHA256 == "" {
			var err error
			if f.SHA256, err = versionSHA256(rd, r.Latest()); err != nil {
				return rep, fmt.Errorf("restore %s: %w", filepath.Join(o.Home.Dir, r.Path), err)
			}
		}
	}
	if o.SweepDays > 0 && !o.Touch {
		cut := o.Now.AddDate(0, 0, -o.SweepDays)
		for _, f := range rep.Files {
			if f.Status == RestoreWritten && f.ModTime.Before(cut) {
				rep.Warnings = append(rep.Warnings, fmt.Sprintf("the files keep their own times, older than cleanupPeriodDays (%d): the client's next sweep deletes them again; --touch gives them today's time", o.SweepDays))
				break
			}
		}
	}
	if o.DryRun {
		for _, f := range rep.Files {
			if f.Status == RestoreWritten {
				rep.Written++
				rep.Bytes += f.Size
			}
		}
		return rep, nil
	}
	if o.Journal != nil {
		var files []journal.File
		for i, r := range recs {
			if f := rep.Files[i]; f.Status == RestoreWritten {
				files = append(files, journal.File{Path: r.Path, Mode: r.Latest().Mode.Perm(), After: f.SHA256})
			}
		}
		if len(files) > 0 {
			if err := o.Journal(restoreSummary(o.Session, len(files)), files); err != nil {
				return rep, fmt.Errorf("restore %s: nothing was written: %w", o.Session, err)
			}
		}
	}
	log := restoreLog{ID: newID(o.Now), Session: string(o.Session), Home: o.Home.Dir, Time: o.Now}
	rep.ID = log.ID
	var werr error
	for i, r := range recs {
		f := &rep.Files[i]
		if f.Status != RestoreWritten {
			continue
		}
		ver := r.Latest()
		dst := filepath.Join(o.Home.Dir, filepath.FromSlash(r.Path))
		perm := ver.Mode.Perm()
		if perm == 0 {
			perm = 0o600
		}
		err := model.CreateFileAtomicWith(v.w, dst, perm, f.ModTime, func(w io.Writer) error {
			return writeVersion(w, rd, ver)
		})
		if err == nil {
			sum, ok, rerr := fileSum(o.Home.FS, r.Path)
			if rerr != nil || !ok || sum != f.SHA256 {
				// The file is written but wrong: it goes now, as no
				// undo would take it (it holds other bytes than logged).
				err = errors.New("read back, the file does not hash to the vault's copy; removed")
				if ok {
					if rmErr := v.w.Remove(dst); rmErr != nil && !errors.Is(rmErr, fs.ErrNotExist) {
						err = fmt.Errorf("read back, the file does not hash to the vault's copy, and it could not be removed: %w", rmErr)
					}
				}
			}
		}
		if err != nil {
			werr = fmt.Errorf("restore %s: %w", dst, err)
			break
		}
		rep.Written++
		rep.Bytes += f.Size
		log.Files = append(log.Files, *f)
	}
	if len(log.Files) > 0 {
		if err := v.writeJSON(path.Join(restoreDir, log.ID+".json"), log); err != nil && werr == nil {
			werr = err
		}
	}
	return rep, werr
}

// restoreSummary is how the undo journal names a restore of n files.
func restoreSummary(session model.SessionID, n int) string {
	return fmt.Sprintf("put back session %s from the vault (%s)", session, format.Count(n, "file", ""))
}

// writeVersion writes ver's bytes to w.
func writeVersion(w io.Writer, rd *chunkReader, ver *Version) error {
	var n normalizer
	for _, c := range ver.Chunks {
		out, err := decodeChunk(rd, &n, c)
		if err != nil {
			return err
		}
		if _, err := w.Write(out); err != nil {
			return err
		}
	}
	return nil
}

// versionSHA256 is the SHA-256 of ver's bytes (hex): the one format 1
// recorded, else the hash of the bytes rebuilt from its chunks, once
// its chunk list is checked against its Sum (a restore logs the file's
// hash, compares it with a file already there and with the file it
// wrote, read back).
func versionSHA256(rd *chunkReader, ver *Version) (string, error) {
	if ver.SHA256 != "" {
		return ver.SHA256, nil
	}
	if got := chunksSum(ver.Chunks); got != ver.Sum {
		return "", fmt.Errorf("its chunk list in the vault hashes to %s, the version says %s (run memscope vault verify)", got, ver.Sum)
	}
	h := sha256.New()
	if err := writeVersion(h, rd, ver); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// decodeChunk is chunk c's bytes as the file had them, read from the
// packs; they stay valid until rd or n is used again.
func decodeChunk(rd *chunkReader, n *normalizer, c Chunk) ([]byte, error) {
	k, ok := keyOf(c.H)
	if !ok {
		return nil, fmt.Errorf("chunk %q is not a SHA-256", c.H)
	}
	data, err := rd.read(k)
	if err != nil {
		return nil, err
	}
	out, err := n.back(data, c.Raw, c.IDs)
	if err != nil {
		return nil, fmt.Errorf("chunk %s: %w", c.H, err)
	}
	if int64(len(out)) != c.N {
		return nil, fmt.Errorf("chunk %s: %d bytes where the file had %d", c.H, len(out), c.N)
	}
	return out, nil
}

// missingChunks lists the chunks recs name that no pack holds.
func missingChunks(recs []*Record, ix *index) []string {
	var out []string
	for _, r := range recs {
		for _, c := range r.Latest().Chunks {
			k, ok := keyOf(c.H)
			if _, there := ix.m[k]; !ok || !there {
				out = append(out, r.Path+": "+c.H)
			}
		}
	}
	return out
}

// fileSum is the SHA-256 of the home's file rel, and whether it exists.
func fileSum(fsys fs.FS, rel string) (string, bool, error) {
	sum, _, err := model.HashFile(fsys, rel)
	if errors.Is(err, fs.ErrNotExist) {
		return "", false, nil
	}
	return sum, true, err
}

// UndoRestore removes the files the restore id wrote, each only while it
// still holds the bytes the restore wrote; a file changed since is kept
// and named. The files are removed from the home the restore wrote them
// into (its log names it), never another: want, when not empty, is the
// home the caller names, and one other than the log's refuses the undo.
func (v *Vault) UndoRestore(id, want string) (removed []string, kept []string, err error) {
	unlock := v.lock()
	defer unlock()
	var log restoreLog
	if err := v.readJSON(path.Join(restoreDir, id+".json"), &log); err != nil {
		return nil, nil, err
	}
	if log.Home == "" {
		return nil, nil, fmt.Errorf("undo restore %s: its log names no home", id)
	}
	if want != "" && filepath.Clean(want) != filepath.Clean(log.Home) {
		return nil, nil, fmt.Errorf("undo restore %s: it wrote into %s, not %s (give --to %s, or neither --to nor --home)", id, log.Home, want, log.Home)
	}
	home, err := model.OpenHome(log.Home, model.HomeFromFlag)
	if err != nil {
		return nil, nil, fmt.Errorf("undo restore %s: %w", id, err)
	}
	for _, f := range log.Files {
		sum, ok, err := fileSum(home.FS, f.Path)
		if err != nil {
			return removed, kept, err
		}
		if !ok {
			continue
		}
		if sum != f.SHA256 {
			kept = append(kept, f.Path)
			continue
		}
		if err := v.w.Remove(filepath.Join(home.Dir, filepath.FromSlash(f.Path))); err != nil {
			return removed, kept, fmt.Errorf("undo restore %s: %w", id, err)
		}
		removed = append(removed, f.Path)
	}
	if len(kept) == 0 {
		if err := v.w.Remove(filepath.Join(v.Dir, restoreDir, id+".json")); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return removed, kept, err
		}
	}
	sort.Strings(removed)
	return removed, kept, nil
}

// newID is a restore's or a prune's id: its time and a random suffix.
func newID(now time.Time) string {
	var b [3]byte
	_, _ = rand.Read(b[:])
	return now.UTC().Format("20060102T150405") + "-" + hex.EncodeToString(b[:])
}

// writeJSON writes x as the vault file rel.
func (v *Vault) writeJSON(rel string, x any) error {
	data, err := json.MarshalIndent(x, "", "  ")
	if err != nil {
		return err
	}
	return model.WriteFileAtomicWith(v.w, filepath.Join(v.Dir, filepath.FromSlash(rel)), append(data, '\n'), 0o600)
}

// readJSON reads the vault file rel into x.
func (v *Vault) readJSON(rel string, x any) error {
	data, err := model.ReadFileBounded(v.root, v.name(rel), 256<<20)
	if err != nil {
		return fmt.Errorf("vault %s: %w", v.Dir, err)
	}
	if err := json.Unmarshal(data, x); err != nil {
		return fmt.Errorf("vault %s: %w", filepath.Join(v.Dir, rel), err)
	}
	return nil
}

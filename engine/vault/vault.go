package vault

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/memscope/memscope/engine/journal"
	"github.com/memscope/memscope/model"
)

// formatLine is the content of the VAULT file. Format 2 names a new
// version by its chunks (Version.Sum: a sync hashes a file's bytes once,
// for its chunks' names); format 1's versions carry the SHA-256 of the
// file's bytes (Version.SHA256), which a sync computed in a second pass.
// A format 1 vault is read as it is and becomes format 2 at its next
// sync (its old versions keep their SHA-256 and are checked by it); a
// memscope that knows format 1 only refuses a format 2 vault instead of
// failing to check its new versions. Format 3 writes packs of frames
// (several chunks compressed together, s2; pack.go), which a memscope of
// format 2 cannot read: a vault of format 1 or 2 is read as it is and
// becomes format 3 at its next sync, before it writes a pack.
// Format 4 names chunks by their BLAKE3 instead of their SHA-256
// (chunkHash: about twice as fast, a fifth of a first sync's CPU was
// SHA-256; docs/VAULT.md, "i31h"). Only a new vault is format 4: a vault
// of format 1-3 keeps naming its chunks by SHA-256 (it becomes format 3
// as before), so its chunks still deduplicate against the ones it holds
// and nothing is renamed; a memscope of format 3 refuses a format 4
// vault by name instead of failing every chunk's check.
// Format 5 writes packs of MinLZ frames (pack.go), which a memscope of
// format 4 cannot read: a vault of format 4 is read as it is and becomes
// format 5 at its next sync or prune, before it writes a pack; only a
// vault of BLAKE3 names does (formats 1-3 keep writing s2 frames, which
// a memscope of format 3 reads).
const (
	formatLine  = "memscope vault 5\n"
	formatLine4 = "memscope vault 4\n"
	formatLine3 = "memscope vault 3\n"
	formatLine2 = "memscope vault 2\n"
	formatLine1 = "memscope vault 1\n"
)

// The vault's files and folders, relative to its folder.
const (
	formatFile = "VAULT"
	packsDir   = "packs"
	stateDir   = "state"
	restoreDir = "restores"
	trashDir   = "trash"
	// lockName is the journal-style name whose ".lock" sibling
	// serializes syncs, restores and prunes between processes.
	lockName = "state.jsonl"
)

// maxStateFiles is how many state files a vault keeps before a sync
// merges them into one.
const maxStateFiles = 32

// maxStateLine bounds one record line when the state is read back.
const maxStateLine = 256 << 20

// maxStateFile bounds one state file when it is read back (the first
// sync of a 1 GB home writes about 20 MB).
const maxStateFile = 2 << 30

// Kind is what a vaulted file is.
type Kind string

// The kinds of file a vault keeps.
const (
	KindTranscript  Kind = "transcript"
	KindSessionFile Kind = "session-file"
	KindFileHistory Kind = "file-history"
	KindPaste       Kind = "paste"
	KindMemory      Kind = "memory"
	KindHistory     Kind = "history"
)

// Kinds lists the kinds in report order.
func Kinds() []Kind { k := kindList; return k[:] }

var kindList = [...]Kind{KindTranscript, KindSessionFile, KindFileHistory, KindPaste, KindMemory, KindHistory}

// Chunk is one piece of a file's content.
type Chunk struct {
	// H is the SHA-256 (hex) of the chunk as stored: a transcript's
	// chunk with its session id replaced by the marker.
	H string `json:"h"`
	// N is the chunk's length in the file (before normalization).
	N int64 `json:"n"`
	// Raw is set when the chunk was stored as it is in the file (it held
	// a NUL byte, so the marker could not be told from its content).
	Raw bool `json:"raw,omitempty"`
	// IDs are the session ids factored out of a JSON Lines chunk, in
	// order (see normalizer).
	IDs []IDRun `json:"ids,omitempty"`
}

// Version is one state of a file.
type Version struct {
	Size    int64       `json:"size"`
	ModTime time.Time   `json:"modTime"`
	Mode    fs.FileMode `json:"mode"`
	// SHA256 is the hash of the file's bytes (hex): a version written by
	// format 1 has it, a newer one has Sum instead.
	SHA256 string `json:"sha256,omitempty"`
	// Sum names the file's bytes by its chunks (chunksSum): each chunk
	// is named by the SHA-256 of what is stored, and the bytes are those
	// chunks with their session ids put back, so the chunk list and its
	// ids decide the bytes as surely as a hash of the bytes would.
	Sum    string    `json:"sum,omitempty"`
	Chunks []Chunk   `json:"chunks"`
	Synced time.Time `json:"synced"`
}

// follow is what an incremental sync of a growing file starts from.
type follow struct {
	ID      model.FileID `json:"id"`
	Size    int64        `json:"size"`
	ModTime int64        `json:"modTime"`
	// Closed is the offset where the latest version's last chunk
	// starts; ClosedChunks chunks end there. A sync of the file grown
	// with the same identity re-reads from Closed only.
	Closed       int64 `json:"closed"`
	ClosedChunks int   `json:"closedChunks"`
	// HashState is the SHA-256 state of the file's bytes up to Closed,
	// which format 1 resumed its whole-file hash from; format 2 hashes
	// no whole file and writes none (one in an old record is ignored).
	HashState []byte `json:"hashState,omitempty"`
}

// Record is everything the vault keeps of one path of the home.
type Record struct {
	// Path is slash-separated, relative to the home.
	Path    string          `json:"path"`
	Kind    Kind            `json:"kind"`
	Session model.SessionID `json:"session,omitempty"`
	// Project is the project folder (slug) of a session's files.
	Project string `json:"project,omitempty"`
	// Versions are oldest first; a version the next one only extends
	// (an appended transcript) is replaced, not kept.
	Versions []Version `json:"versions"`
	// Gone is when a sync first found the path absent from the home;
	// zero while it is there.
	Gone   time.Time `json:"gone,omitzero"`
	Follow *follow   `json:"follow,omitempty"`
}

// Latest is the newest version.
func (r *Record) Latest() *Version {
	if len(r.Versions) == 0 {
		return nil
	}
	return &r.Versions[len(r.Versions)-1]
}

// Vault is one vault folder, opened.
type Vault struct {
	// Dir is the folder on disk.
	Dir string
	// root reads the machine from "/" (names as model.RootName gives
	// them); w is what every write goes through.
	root fs.FS
	w    model.WriteFS
	// formatOK: the VAULT file was read and is a format this memscope
	// reads; older: it is format 1 or 2 (a sync makes it format 3).
	formatOK, older bool
	// minlz: the vault is format 5 (its new packs are MinLZ frames);
	// format4: it is format 4 (a sync makes it format 5).
	minlz, format4 bool
	// hash names the vault's chunks: SHA-256 (formats 1-3; the zero
	// value) until the VAULT file says format 4 or a sync makes a new
	// vault.
	hash chunkHash
}

// ErrInsideHome is Dir's error for a vault folder inside the Claude
// home: the sweep must not be able to reach the vault.
var ErrInsideHome = errors.New("the vault folder is inside the Claude home")

// Dir is the vault folder: flagDir, else $MEMSCOPE_VAULT, else
// $XDG_DATA_HOME/memscope/vault (when absolute, the XDG rule), else
// ~/.local/share/memscope/vault. A folder inside homeDir is refused.
func Dir(flagDir string, getenv func(string) string, userHome func() (string, error), homeDir string) (string, error) {
	dir := flagDir
	if dir == "" {
		dir = getenv("MEMSCOPE_VAULT")
	}
	if dir != "" {
		dir = model.ExpandTilde(dir, userHome)
		if !filepath.IsAbs(dir) {
			return "", fmt.Errorf("vault folder %q: give an absolute path", dir)
		}
	} else {
		base, err := model.XDGData.Memscope(getenv, userHome)
		if err != nil {
			return "", fmt.Errorf("vault folder: %w", err)
		}
		dir = filepath.Join(base, "vault")
	}
	dir = filepath.Clean(dir)
	if homeDir != "" {
		if rel, err := filepath.Rel(filepath.Clean(homeDir), dir); err == nil && (rel == "." || filepath.IsLocal(rel)) {
			return "", fmt.Errorf("%s: %w %s; choose a folder outside it", dir, ErrInsideHome, homeDir)
		}
	}
	return dir, nil
}

// Open returns the vault in the folder dir, read through root (the
// machine from "/") and written through w (nil: the real OS). The folder
// need not exist: the first sync makes it.
func Open(dir string, root fs.FS, w model.WriteFS) *Vault {
	if w == nil {
		w = model.OSWriteFS{}
	}
	return &Vault{Dir: dir, root: root, w: w}
}

// name is p (relative to the vault) as root names it.
func (v *Vault) name(p string) string {
	return model.RootName(filepath.Join(v.Dir, filepath.FromSlash(p)))
}

// lock takes the vault's lock and returns its release.
func (v *Vault) lock() func() {
	return journal.LockFile(filepath.Join(v.Dir, lockName))
}

// exists reports whether the vault has been written to.
func (v *Vault) exists() bool {
	ok, _ := v.checkFormat()
	return ok
}

// checkFormat reports whether the folder holds a vault, and refuses one
// of another format. The VAULT file is read once per Vault (a Vault is
// opened for a command; a vault's format never changes under it).
func (v *Vault) checkFormat() (bool, error) {
	if v.formatOK {
		return true, nil
	}
	data, err := model.ReadFileBounded(v.root, v.name(formatFile), 1<<10)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("vault %s: %w", v.Dir, err)
	}
	hash := hashSHA256
	switch string(data) {
	case formatLine, formatLine4:
		hash = hashBLAKE3
	case formatLine3, formatLine2, formatLine1:
	default:
		return false, fmt.Errorf("vault %s: %s says %q, not %q: not a vault this memscope can read", v.Dir, formatFile, strings.TrimSpace(string(data)), strings.TrimSpace(formatLine))
	}
	v.formatOK, v.hash = true, hash
	v.older = string(data) == formatLine2 || string(data) == formatLine1
	v.minlz, v.format4 = string(data) == formatLine, string(data) == formatLine4
	return true, nil
}

// ensure writes the VAULT file of a new vault (format 5: its chunks are
// named by BLAKE3, its packs MinLZ frames), makes a vault of format 4
// format 5 before a sync writes a pack of MinLZ frames into it, and
// makes a vault of format 1 or 2 format 3 before a sync writes a version
// of format 2 or a pack of format 3 into it (a kill between the two
// leaves a vault of the new format with older versions and packs, which
// this format reads); a vault of format 1-3 keeps its chunks' SHA-256
// names.
func (v *Vault) ensure() error {
	ok, err := v.checkFormat()
	if err != nil || ok && !v.older && !v.format4 {
		return err
	}
	line, hash := formatLine, newVaultHash
	switch {
	case ok && v.format4:
		hash = v.hash
	case ok || hash == hashSHA256:
		line, hash = formatLine3, hashSHA256
	}
	write := func(w io.Writer) error {
		_, err := io.WriteString(w, line)
		return err
	}
	name := filepath.Join(v.Dir, formatFile)
	if ok {
		if err := model.WriteFileAtomicFrom(v.w, name, 0o600, write); err != nil {
			return fmt.Errorf("vault %s: %w", v.Dir, err)
		}
		v.older, v.format4, v.minlz = false, false, line == formatLine
		return nil
	}
	err = model.CreateFileAtomicWith(v.w, name, 0o600, time.Time{}, write)
	if err == nil {
		v.formatOK, v.hash, v.minlz = true, hash, line == formatLine
	}
	if errors.Is(err, fs.ErrExist) {
		v.formatOK = false
		_, err = v.checkFormat()
		if err == nil && (v.older || v.format4) {
			return v.ensure()
		}
	}
	return err
}

// recordHead is the part of a record a sync reads of every file: it
// leads each state line (before a tab), so a sync that finds a file
// unchanged decodes only this, not the file's chunk list.
type recordHead struct {
	Path    string          `json:"path"`
	Kind    Kind            `json:"kind"`
	Session model.SessionID `json:"session,omitempty"`
	Gone    time.Time       `json:"gone,omitzero"`
	Follow  *follow         `json:"follow,omitempty"`
}

// stateEntry is one path's record: its head, and the whole record,
// decoded from raw when first asked for.
type stateEntry struct {
	head recordHead
	raw  []byte
	rec  *Record
	// where is the state file and line raw came from.
	file string
	line int
	// written: the record's line is in the state file the sync that
	// holds this entry writes (stateStream); only its head is held.
	written bool
}

// state is the vault's records by path, and the state files they came
// from.
type state struct {
	entries map[string]*stateEntry
	files   []string
	// problems are state lines that could not be read.
	problems []model.Problem
}

func newState() *state { return &state{entries: map[string]*stateEntry{}} }

// get is the record of path, nil when the vault has none (or its line
// cannot be decoded: a problem, and the file is read again).
func (s *state) get(p string) *Record {
	e := s.entries[p]
	if e == nil {
		return nil
	}
	if e.rec == nil {
		var r Record
		if err := json.Unmarshal(e.raw, &r); err != nil || r.Path != p {
			reason := "record does not decode to its path"
			if err != nil {
				reason = err.Error()
			}
			s.problems = append(s.problems, model.Problem{File: e.file, Line: e.line, Kind: model.ProblemMalformed, Reason: reason})
			delete(s.entries, p)
			return nil
		}
		e.rec, e.raw = &r, nil
	}
	return e.rec
}

// put sets the record of r.Path.
func (s *state) put(r *Record) {
	s.entries[r.Path] = &stateEntry{head: headOf(r), rec: r}
}

// remove drops the record of p.
func (s *state) remove(p string) { delete(s.entries, p) }

// headOf is r's head.
func headOf(r *Record) recordHead {
	return recordHead{Path: r.Path, Kind: r.Kind, Session: r.Session, Gone: r.Gone, Follow: r.Follow}
}

// paths lists the paths the vault holds, sorted.
func (s *state) paths() []string {
	out := make([]string, 0, len(s.entries))
	for p := range s.entries {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// sorted returns every record, decoded, by path.
func (s *state) sorted() []*Record {
	out := make([]*Record, 0, len(s.entries))
	for _, p := range s.paths() {
		if r := s.get(p); r != nil {
			out = append(out, r)
		}
	}
	return out
}

// stateFiles lists the state files, oldest first.
func (v *Vault) stateFiles() ([]string, error) {
	ents, err := fs.ReadDir(v.root, v.name(stateDir))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("vault %s: %w", v.Dir, err)
	}
	var out []string
	for _, e := range ents {
		if e.Type().IsRegular() && strings.HasSuffix(e.Name(), ".jsonl") && !strings.HasPrefix(e.Name(), ".") {
			out = append(out, e.Name())
		}
	}
	sort.Strings(out)
	return out, nil
}

// read checks the vault's format and reads its records and, when
// withIndex, its pack index (nil otherwise).
func (v *Vault) read(withIndex bool) (*state, *index, error) {
	if _, err := v.checkFormat(); err != nil {
		return nil, nil, err
	}
	st, err := v.loadState()
	if err != nil || !withIndex {
		return st, nil, err
	}
	ix, err := v.loadIndex()
	return st, ix, err
}

// loadState reads every state file, later records over earlier ones.
func (v *Vault) loadState() (*state, error) {
	st := newState()
	names, err := v.stateFiles()
	if err != nil {
		return nil, err
	}
	st.files = names
	for _, n := range names {
		if err := v.readStateFile(path.Join(stateDir, n), st); err != nil {
			return nil, err
		}
	}
	return st, nil
}

// readStateFile reads one state file into st. The file is read whole
// and each record keeps its bytes where they are in it (no copy per
// line); only the heads are decoded now, on every CPU for a large file
// (a part of its lines each), their entries and follows taken from a few
// blocks.
func (v *Vault) readStateFile(rel string, st *state) error {
	data, err := model.ReadFileBounded(v.root, v.name(rel), maxStateFile)
	if err != nil {
		return fmt.Errorf("vault %s: %w", filepath.Join(v.Dir, rel), err)
	}
	file := filepath.Join(v.Dir, rel)
	parts := splitLines(data, stateParts(len(data)))
	out := make([]statePart, len(parts))
	var wg sync.WaitGroup
	for i, p := range parts {
		wg.Go(func() { out[i] = readStatePart(p, file) })
	}
	wg.Wait()
	total, line := 0, 0
	for i := range out {
		if out[i].err != nil {
			return fmt.Errorf("vault %s line %d: %w", file, line+out[i].errLine, out[i].err)
		}
		total += len(out[i].entries)
		line += out[i].lines
	}
	if len(st.entries) == 0 {
		st.entries = make(map[string]*stateEntry, total)
	}
	line = 0
	for i := range out {
		for j := range out[i].entries {
			e := &out[i].entries[j]
			e.line += line
			st.entries[e.head.Path] = e
		}
		for _, pr := range out[i].problems {
			pr.Line += line
			st.problems = append(st.problems, pr)
		}
		line += out[i].lines
	}
	return nil
}

// stateParts is how many parts a state file of n bytes is read in.
func stateParts(n int) int {
	if n < 1<<20 {
		return 1
	}
	return max(runtime.GOMAXPROCS(0), 1)
}

// splitLines cuts data into n parts of about equal size, at line ends.
func splitLines(data []byte, n int) [][]byte {
	var out [][]byte
	for n > 1 && len(data) > 0 {
		at := len(data) / n
		i := bytes.IndexByte(data[at:], '\n')
		if i < 0 {
			break
		}
		out = append(out, data[:at+i+1])
		data = data[at+i+1:]
		n--
	}
	return append(out, data)
}

// statePart is a part of a state file, read: its entries (lines
// counted from the part's first), the lines it holds, the problems of
// its lines, and the error that stops the whole file (at errLine).
type statePart struct {
	entries  []stateEntry
	lines    int
	problems []model.Problem
	err      error
	errLine  int
}

// readStatePart decodes the heads of the lines of data (a part of file).
func readStatePart(data []byte, file string) statePart {
	p := statePart{entries: make([]stateEntry, 0, bytes.Count(data, []byte{'\n'})+1)}
	var arena headArena
	for len(data) > 0 {
		p.lines++
		b, rest, _ := bytes.Cut(data, []byte{'\n'})
		data = rest
		if len(b) > maxStateLine {
			p.err, p.errLine = fmt.Errorf("a record longer than %d bytes", maxStateLine), p.lines
			return p
		}
		if len(bytes.TrimSpace(b)) == 0 {
			continue
		}
		head, full, ok := bytes.Cut(b, []byte{'\t'})
		p.entries = append(p.entries, stateEntry{raw: full, file: file, line: p.lines})
		e := &p.entries[len(p.entries)-1]
		err := decodeHeadIn(head, &e.head, &arena)
		if err == nil && (!ok || e.head.Path == "") {
			err = errors.New("want a record's head, a tab, then the record")
		}
		if err != nil {
			p.entries = p.entries[:len(p.entries)-1]
			p.problems = append(p.problems, model.Problem{File: file, Line: p.lines, Kind: model.ProblemMalformed, Reason: err.Error()})
		}
	}
	return p
}

// writeState writes recs as the next state file, and merges the state
// files into one when there are too many. The records written are the
// whole of each changed path's record.
func (v *Vault) writeState(st *state, recs []*Record, now time.Time) error {
	if len(recs) == 0 {
		return nil
	}
	data, err := encodeRecords(recs)
	if err != nil {
		return err
	}
	return v.writeStateData(st, data, now)
}

// writeStateData is writeState of records already encoded (data, not
// empty: encodeRecords's), written as a sync streams its state file
// (stateStream: the same file name, fsync and merge), in one piece.
func (v *Vault) writeStateData(st *state, data []byte, now time.Time) error {
	ss := v.newStateStream(st, now)
	ss.write(data)
	return ss.finish(nil, nil)
}

// stateWriteBuf is the buffer a state file written from many lines is
// written through (stateStream).
const stateWriteBuf = 256 << 10

// syncThenWait syncs w, the temporary file of an atomic write, and then
// waits for ready (nil: returns at once, the writer syncs w as always):
// a file that must appear only after others is written and synced beside
// them, and only its rename waits. The writer's own sync of it, with
// nothing written since, is skipped when the write goes through
// syncOnce(w) (that second fsync still flushed the disk's cache).
func syncThenWait(w io.Writer, ready func() error) error {
	if ready == nil {
		return nil
	}
	if f, ok := w.(interface{ Sync() error }); ok {
		if err := f.Sync(); err != nil {
			return err
		}
	}
	return ready()
}

// nextStateName is a state file name sorting after every existing one.
func (v *Vault) nextStateName(st *state, now time.Time) (string, error) {
	seq := 1
	if n := len(st.files); n > 0 {
		last := st.files[n-1]
		i := strings.IndexByte(last, '-')
		if i < 0 {
			return "", fmt.Errorf("vault %s: state file %s has no sequence number", v.Dir, last)
		}
		p, err := strconv.Atoi(last[:i])
		if err != nil {
			return "", fmt.Errorf("vault %s: state file %s: %w", v.Dir, last, err)
		}
		seq = p + 1
	}
	return fmt.Sprintf("%010d-%d.jsonl", seq, now.UnixMilli()), nil
}

// writeRecords writes recs, one JSON line each, as the vault file rel.
func (v *Vault) writeRecords(rel string, recs []*Record) error {
	return model.WriteFileAtomicFrom(v.w, filepath.Join(v.Dir, filepath.FromSlash(rel)), 0o600, func(w io.Writer) error {
		bw := bufio.NewWriterSize(w, 256<<10)
		var b []byte
		var e recordEncoder
		for _, r := range recs {
			var err error
			if b, err = e.appendRecord(b[:0], r); err != nil {
				return err
			}
			if _, err := bw.Write(b); err != nil {
				return err
			}
		}
		return bw.Flush()
	})
}

// recordEncoder encodes records' state lines into one buffer, kept from
// record to record: json.Marshal made a buffer for each record's head
// and each record, copied out of its own, and appendRecord copied them
// again (a first sync encodes a line for every file of the home: tens of
// MB allocated, their pages faulted in, docs/VAULT.md, "i31v7"). The
// zero value is ready.
type recordEncoder struct {
	buf bytes.Buffer
	enc *json.Encoder
}

// appendRecord appends r's line in a state file: its head, a tab, the
// record, a newline (json.Marshal's bytes, written by hand: recjson.go;
// a record it cannot write, with a time json.Marshal refuses, goes
// through a json.Encoder, which escapes HTML as Marshal does).
func (e *recordEncoder) appendRecord(b []byte, r *Record) ([]byte, error) {
	if recordEncodedHook != nil {
		defer recordEncodedHook(r.Path)
	}
	// Room for the line is made once (lineHint): a sync's workers
	// append each line to nil, which would grow it from a few bytes up,
	// and a line written elsewhere first would be copied (docs/VAULT.md,
	// "i31h2").
	n := len(b)
	b = slices.Grow(b, lineHint(r))
	b, ok := appendHeadJSON(b, r)
	if ok {
		b = append(b, '\t')
		b, ok = appendRecordJSON(b, r)
	}
	if ok {
		return append(b, '\n'), nil
	}
	b = b[:n]
	if e.enc == nil {
		e.enc = json.NewEncoder(&e.buf)
	}
	e.buf.Reset()
	if err := e.enc.Encode(headOf(r)); err != nil {
		return b, err
	}
	e.buf.Truncate(e.buf.Len() - 1) // Encode's newline
	e.buf.WriteByte('\t')
	if err := e.enc.Encode(r); err != nil {
		return b, err
	}
	return append(b, e.buf.Bytes()...), nil
}

// recordEncodedHook, when set, is called with a record's path once its
// state line is encoded: a test's seam.
var recordEncodedHook func(path string)

// encodeRecords is recs as writeRecords writes them, encoded on every
// CPU (a first sync's state is a record for every file of the home).
func encodeRecords(recs []*Record) ([]byte, error) {
	n := min(max(runtime.GOMAXPROCS(0), 1), (len(recs)+255)/256)
	parts, errs := make([][]byte, max(n, 1)), make([]error, max(n, 1))
	var wg sync.WaitGroup
	for i := range parts {
		lo, hi := len(recs)*i/len(parts), len(recs)*(i+1)/len(parts)
		wg.Go(func() {
			var e recordEncoder
			for _, r := range recs[lo:hi] {
				if parts[i], errs[i] = e.appendRecord(parts[i], r); errs[i] != nil {
					return
				}
			}
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return bytes.Join(parts, nil), nil
}

// mergeState writes every record as one new state file, then removes
// the older ones. A kill between the two leaves both; reading them in
// order gives the same records.
func (v *Vault) mergeState(st *state, now time.Time) error {
	old := slices.Clone(st.files)
	name, err := v.nextStateName(st, now)
	if err != nil {
		return err
	}
	if err := v.writeRecords(path.Join(stateDir, name), st.sorted()); err != nil {
		return err
	}
	for _, n := range old {
		if err := v.w.Remove(filepath.Join(v.Dir, stateDir, n)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("vault %s: remove merged state file: %w", v.Dir, err)
		}
	}
	st.files = []string{name}
	return nil
}

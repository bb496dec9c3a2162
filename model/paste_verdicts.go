package model

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"sort"
	"sync"
)

// PasteVerdicts remembers what checking each paste file found, by the
// file's path, size, modification time and inode. Pastes are
// content-addressed and written once, so a file whose name, size and
// mtime are those of a file already hashed holds the same content: its
// verdict is reused and the file is not read again. Files that are read
// share one buffer and one hash. Verdicts of files not looked at in the
// last two rounds (NextRound) are dropped, so verdicts that follow a home
// stay the size of its paste folders. Safe for concurrent use.
type PasteVerdicts struct {
	mu sync.Mutex
	// m holds the verdicts of this round and the one before, each with
	// the round it was last used in (one map, not a map a round: a warm
	// start's NextRound, after thousands restored, made a second one).
	m      map[pasteKey]pasteVerdict
	round  uint32
	buf    []byte
	sum    hash.Hash
	hashed int
}

// pasteKey identifies one version of one paste file: its path and its
// stamp without a head hash (size, mtime, change time, inode), kept as
// those fields alone (a FileStamp's head would be 40 zero bytes in each
// of thousands of keys).
type pasteKey struct {
	path              string
	size, mod, change int64
	id                FileID
}

// keyOf is the key of the version s of the file path (s's head ignored).
func keyOf(path string, s FileStamp) pasteKey {
	return pasteKey{path: path, size: s.Size, mod: s.ModTime, change: s.ChangeTime, id: s.ID}
}

// stamp is k's stamp, without a head hash.
func (k pasteKey) stamp() FileStamp {
	return FileStamp{Size: k.size, ModTime: k.mod, ChangeTime: k.change, ID: k.id}
}

// pasteVerdict is the part of a PasteResolution that checking a file's
// content decides.
type pasteVerdict struct {
	status   PasteStatus
	verified bool
	actual   PasteHash
	reason   string
	// round is the round the verdict was last used in.
	round uint32
}

// pasteReadBuf is the size of the one read buffer.
const pasteReadBuf = 64 << 10

// NewPasteVerdicts returns empty verdicts.
func NewPasteVerdicts() *PasteVerdicts {
	return &PasteVerdicts{m: map[pasteKey]pasteVerdict{}}
}

// NewPasteCacheWith returns a PasteCache whose Check answers from v for
// files already checked (Resolve always reads: it returns the text).
func NewPasteCacheWith(fsys fs.FS, v *PasteVerdicts) *PasteCache {
	return &PasteCache{fsys: fsys, verdicts: v}
}

// NextRound starts a round of checks: verdicts not used in this round or
// the one before are dropped at the start of the next.
func (v *PasteVerdicts) NextRound() {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.round++
	for k, vd := range v.m {
		if vd.round+1 < v.round {
			delete(v.m, k)
		}
	}
}

// Hashed is how many files were read and hashed so far.
func (v *PasteVerdicts) Hashed() int {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.hashed
}

// check fills res (whose Path f is) from the remembered verdict of this
// version of the file, or from reading and hashing it.
func (v *PasteVerdicts) check(f fs.File, res *PasteResolution) {
	info, err := OpenedInfo(f)
	if err != nil {
		res.Status, res.Reason = PasteUnreadable, fmt.Sprintf("stat %s: %v", res.Path, err)
		return
	}
	v.checkRead(info, f, res)
}

// checkRead is check for the file r reads, of which info is the fstat
// of its open.
func (v *PasteVerdicts) checkRead(info fs.FileInfo, r io.Reader, res *PasteResolution) {
	key := keyOf(res.Path, StampOf(info))
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.lookup(key, res) {
		return
	}
	if v.buf == nil {
		v.buf, v.sum = make([]byte, pasteReadBuf), sha256.New()
	}
	v.sum.Reset()
	v.hashed++
	n, err := copyBuffer(v.sum, r, v.buf)
	res.Size = n
	if err != nil {
		res.Status, res.Reason = PasteUnreadable, fmt.Sprintf("read %s: %v", res.Path, err)
		return
	}
	setPasteVerdict(res, v.sum)
	if n == key.size {
		// A file that changed while it was read is not remembered.
		v.m[key] = pasteVerdict{status: res.Status, verified: res.Verified, actual: res.Actual, reason: res.Reason, round: v.round}
	}
}

// lookup fills res from the verdict remembered for key, if any. The
// caller holds v.mu.
func (v *PasteVerdicts) lookup(key pasteKey, res *PasteResolution) bool {
	vd, ok := v.m[key]
	if !ok {
		return false
	}
	if vd.round != v.round {
		vd.round = v.round
		v.m[key] = vd
	}
	res.Size = key.size
	res.Status, res.Verified, res.Actual, res.Reason = vd.status, vd.verified, vd.actual, vd.reason
	return true
}

// listed answers Check for hash h from the file f that List found
// (paste-cache/<h>.txt), without opening it, when its verdict is
// remembered.
func (v *PasteVerdicts) listed(h PasteHash, f PasteFile) (PasteResolution, bool) {
	res := PasteResolution{Hash: h, Source: f.Source, Path: f.Path}
	v.mu.Lock()
	defer v.mu.Unlock()
	ok := v.lookup(keyOf(f.Path, f.stamp), &res)
	return res, ok
}

// PasteVerdict is one remembered verdict as plain data, to keep across
// runs (memscope's cache): the version of the file it is for, and what
// checking its content found.
type PasteVerdict struct {
	Path     string      `json:"path"`
	Stamp    FileStamp   `json:"stamp"`
	Status   PasteStatus `json:"status"`
	Verified bool        `json:"verified"`
	Actual   PasteHash   `json:"actual"`
	Reason   string      `json:"reason"`
}

// Saved returns the verdicts used or found in the last round (see
// NextRound), the ones worth keeping, sorted by path. Verdicts whose
// stamp has no change time are left out: without it a file rewritten to
// the same size within the mtime's resolution would look the same to a
// later run (within one run, the round structure keeps them fresh).
func (v *PasteVerdicts) Saved() []PasteVerdict {
	v.mu.Lock()
	defer v.mu.Unlock()
	out := make([]PasteVerdict, 0, len(v.m))
	for k, vd := range v.m {
		if vd.round != v.round || !k.stamp().Known() {
			continue
		}
		out = append(out, PasteVerdict{Path: k.path, Stamp: k.stamp(), Status: vd.status, Verified: vd.verified, Actual: vd.actual, Reason: vd.reason})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// Restore remembers verdicts saved by an earlier run, as if checked in
// the current round. Each is used only for the version of the file its
// stamp names, and only when the stamp has a change time.
func (v *PasteVerdicts) Restore(saved []PasteVerdict) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if len(v.m) == 0 && len(saved) > 0 {
		// Sized once (a warm start restores thousands).
		v.m = make(map[pasteKey]pasteVerdict, len(saved))
	}
	for _, s := range saved {
		if !s.Stamp.Known() {
			continue
		}
		v.m[keyOf(s.Path, s.Stamp)] = pasteVerdict{status: s.Status, verified: s.Verified, actual: s.Actual, reason: s.Reason, round: v.round}
	}
}

// copyBuffer copies r to w through buf. (io.CopyBuffer would let an
// *os.File's WriteTo pick its own buffer.)
func copyBuffer(w io.Writer, r io.Reader, buf []byte) (int64, error) {
	var n int64
	for {
		k, err := r.Read(buf)
		if k > 0 {
			w.Write(buf[:k])
			n += int64(k)
		}
		if errors.Is(err, io.EOF) {
			return n, nil
		}
		if err != nil {
			return n, err
		}
	}
}

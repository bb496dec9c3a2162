package secrets

import (
	"crypto/sha256"
	"hash"
	"io"
	"io/fs"

	"github.com/memscope/memscope/model"
)

// teeRead is the scan's read of one file that also takes, from the
// bytes the scan reads anyway, what others want of them: the head hash
// of the file's stamp (a cache's, diskcache.Stamping: model.StampOpened
// would read the head again, most of a paste or a backup) and, for a
// paste, the sha256 of the whole file the paste inventory's check
// compares with its name (Options.PasteSums). One read feeds all.
type teeRead struct {
	r  io.Reader
	st model.FileStamp
	n  int64
	// head hashes the first headN bytes (nil: no stamp wanted, or
	// statOnly).
	head  hash.Hash
	headN int64
	// statOnly says the stamp is handed out without a head hash
	// (settledStamp).
	statOnly bool
	// sum hashes every byte (nil: not a paste, or no verdict wanted).
	sum hash.Hash
	// eof says a read met the end of the file.
	eof bool
	// headSum holds the head's hash (no allocation a file).
	headSum [sha256.Size]byte
}

// tee is the reader of f (the unit u, opened, stamped st without a
// head hash) that takes the stamp's head (stamping) and the paste's sum
// (pasteSum) on the scan's read; nil when neither is wanted. It is the
// worker's own, its hashes reset (valid until the next file).
func (w *worker) tee(f fs.File, u unit, st model.FileStamp, stamping, pasteSum bool) *teeRead {
	if !stamping && !pasteSum {
		return nil
	}
	t := &w.tr
	*t = teeRead{r: f, st: st}
	switch {
	case stamping && !u.store.IsTranscript() && settledStamp(t.st):
		t.statOnly = true
	case stamping:
		t.head, t.headN = reset(&w.head), min(t.st.Size, model.TailHeadMax)
	}
	if pasteSum {
		t.sum = reset(&w.sum)
	}
	return t
}

// reset is *h reset, a new sha256 the first time.
func reset(h *hash.Hash) hash.Hash {
	if *h == nil {
		*h = sha256.New()
	} else {
		(*h).Reset()
	}
	return *h
}

func (t *teeRead) Read(b []byte) (int, error) {
	k, err := t.r.Read(b)
	t.took(b[:k], err == io.EOF)
	return k, err
}

// took takes b, the next bytes the scan read of the file (eof: the read
// met the end of the file).
func (t *teeRead) took(b []byte, eof bool) {
	k := len(b)
	if t.head != nil && t.n < t.headN {
		t.head.Write(b[:min(int64(k), t.headN-t.n)])
	}
	if t.sum != nil {
		t.sum.Write(b)
	}
	t.n += int64(k)
	t.eof = t.eof || eof
}

// done hands out the file's stamp (to stamp, with j), head hash
// included, when the scan read its head (a scan cut short before gives
// none: the file is not kept in cache; a statOnly stamp, which has no
// head hash, is handed out), and the paste's verdict (on name) when the
// scan read the file whole as it was stamped (a file that grew or
// shrank meanwhile gives none: the inventory reads it itself).
func (t *teeRead) done(name string, stamp func(int, model.FileStamp), j int, sums func(model.PasteVerdict)) {
	if t.statOnly {
		stamp(j, t.st)
	} else if t.head != nil && t.n >= t.headN {
		st := t.st
		if t.headN > 0 {
			st.HeadLen = int(t.headN)
			copy(st.Head[:], t.head.Sum(t.headSum[:0]))
		}
		stamp(j, st)
	}
	if t.sum == nil || t.n != t.st.Size {
		return
	}
	if !t.eof {
		// A byte past the stamp's size means the file grew. (A scan that
		// read to the end, as a whole read does, asks nothing more.)
		var one [1]byte
		if k, _ := t.r.Read(one[:]); k > 0 {
			return
		}
	}
	if v, ok := model.PasteVerdictOf(name, t.st, t.sum); ok {
		sums(v)
	}
}

// settledStamp says a file stamped st needs no head hash in its stamp:
// its change and modification times were model.WriteOnceSettle old when
// this process started (and the platform gives the change time and
// identity). Its counts entry is then settled for every reader of it
// (diskcache's perFile marks it Entry.Settled, its clock being later
// than the process's start, and compares it by one stat, statSame;
// settledHits by Same; a write-once folder's stamp by the folder), none
// of which looks at the head hash: a write after the stamp moves the
// change time. Transcripts are left out: the shared pass's Feed asks
// the same cache by the full stamp (Fill.Has, head hash included).
func settledStamp(st model.FileStamp) bool {
	return settled(st) && processStart.Load()-st.ModTime >= int64(model.WriteOnceSettle)
}

package vault

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"math/bits"
	"slices"
	"strconv"

	"github.com/zeebo/blake3"
)

// Chunking parameters (docs/VAULT.md has the figures behind them).
const (
	// chunkTarget: a line of n bytes ends a chunk with probability
	// n/chunkTarget, so chunks hold about this many bytes (it was 64
	// lines on average, which on transcripts' long records often reached
	// softMax, where the cut depends on where the chunk began: a fork's
	// chunks then stayed out of step with its parent's).
	chunkTarget = 128 << 10
	// chunkLines: a line ends a chunk with probability 1/chunkLines at
	// least, so a file of short lines still cuts every 64 lines or so
	// (a fork of a small session shares its parent's chunks).
	chunkLines = 64
	// softMax: past this a chunk ends at the next line end.
	softMax = 256 << 10
	// maxChunk: a chunk never holds more (a longer line is cut at it).
	maxChunk = 1 << 20
	// tailBytes is how much of a line's end decides a boundary: enough
	// to hold a record's uuid and timestamp, cheap on long lines.
	tailBytes = 64
	// tailWindow is the end of a line normTail looks at: the tail, and
	// room for a session id's key and value reaching into it.
	tailWindow = tailBytes + maxIDLen + len(sessionKey)
)

// sessionKey is the field a transcript repeats its session id in.
const sessionKey = `"sessionId":"`

// marker replaces a session id's value in a stored chunk: a NUL byte,
// which JSON text cannot hold raw, so it cannot be confused with content
// (a chunk that holds a NUL anyway is stored as it is).
const marker = '\x00'

// maxIDLen bounds a session id the normalizer factors out.
const maxIDLen = 64

// IDRun is N session ids in a row, equal, factored out of a chunk.
type IDRun struct {
	ID string `json:"i"`
	N  int    `json:"n"`
}

// normalizer factors the session ids out of JSON Lines chunks and puts
// them back: a fork (--fork-session writes the parent's records with
// its own id) and a resumed copy (the parent's records with the
// parent's id) then store the same chunks as their parent.
type normalizer struct {
	enabled bool
	out     []byte
	// last is the session id forward took out last (a file names its
	// own session's id on nearly every line): the next key that holds it
	// is matched by one comparison instead of idEnd's byte-by-byte check
	// (5 % of a first sync's instructions), and its runs share the string.
	last string
	// keys is forward's list of where the key is found (reused).
	keys []int32
}

// forward is what is stored of data and the ids taken out of it; data
// itself (raw) when it holds a NUL, or unchanged when normalization is
// off or it names no session.
func (n *normalizer) forward(data []byte) (stored []byte, raw bool, ids []IDRun) {
	if !n.enabled {
		return data, false, nil
	}
	if bytes.IndexByte(data, marker) >= 0 {
		return data, true, nil
	}
	n.keys = appendKeys(n.keys[:0], data)
	stored, ids = n.forwardKeys(data, n.keys, nil)
	return stored, false, ids
}

// appendKeys appends to keys every place in data where sessionKey
// starts, in order (overlapping ones too).
func appendKeys(keys []int32, data []byte) []int32 {
	for i := indexSessionKey(data); i >= 0; {
		keys = append(keys, int32(i))
		j := indexSessionKey(data[i+1:])
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return keys
}

// forwardKeys is forward of data, which holds no NUL, given keys: where
// sessionKey starts in data, every place, in order: data itself when
// there is none (forward's buffer otherwise, even when no key holds an
// id), and ids with the runs of ids taken out appended.
func (n *normalizer) forwardKeys(data []byte, keys []int32, ids []IDRun) ([]byte, []IDRun) {
	if len(keys) == 0 {
		return data, ids
	}
	out := n.out[:0]
	// data[:done] is in out; a key before cur is not one (forward's
	// search goes on after a key whose value is not an id, or after the
	// id).
	done, cur := 0, 0
	for _, k := range keys {
		p := int(k)
		if p < cur {
			continue
		}
		i := p + len(sessionKey)
		j := n.idEnd(data[i:])
		if j < 0 {
			cur = i
			continue
		}
		id := data[i : i+j]
		if string(id) != n.last {
			n.last = string(id)
		}
		if k := len(ids) - 1; k >= 0 && ids[k].ID == n.last {
			ids[k].N++
		} else {
			ids = append(ids, IDRun{ID: n.last, N: 1})
		}
		out = append(out, data[done:i]...)
		out = append(out, marker)
		done, cur = i+j, i+j
	}
	n.out = append(out, data[done:]...)
	return n.out, ids
}

// keyAnchor is the byte of sessionKey looked for first: its 'I' is far
// rarer in transcripts than its quotes, which bytes.Index starts from
// (W's transcripts: 0.04 % of the bytes against 1.6 %, and about half
// of the 'I's open a session id).
const keyAnchor = 8

// keySearchHook, when set, is called on each search for the session
// key: a test's seam.
var keySearchHook func()

// indexSessionKey is bytes.Index(data, sessionKey), found from the
// key's rarest byte.
func indexSessionKey(data []byte) int {
	if keySearchHook != nil {
		keySearchHook()
	}
	for off := keyAnchor; off < len(data); {
		i := bytes.IndexByte(data[off:], sessionKey[keyAnchor])
		if i < 0 {
			return -1
		}
		p := off + i - keyAnchor
		if p+len(sessionKey) <= len(data) && string(data[p:p+len(sessionKey)]) == sessionKey {
			return p
		}
		off += i + 1
	}
	return -1
}

// idEnd is idEnd(data), found at once when data starts with the last id
// (an id, all of it idEnd's bytes) and its closing quote.
func (n *normalizer) idEnd(data []byte) int {
	if l := len(n.last); l > 0 && len(data) > l && data[l] == '"' && string(data[:l]) == n.last {
		return l
	}
	return idEnd(data)
}

// idEnd is the length of the session id that starts data (up to the
// closing quote), or -1 when what follows the key is not one.
func idEnd(data []byte) int {
	for j, c := range data[:min(len(data), maxIDLen+1)] {
		if !idByte[c] {
			if c == '"' && j > 0 {
				return j
			}
			return -1
		}
	}
	return -1
}

// idByte says which bytes a session id is made of (a table: the byte
// classes' comparisons were 2.6 % of a first sync's instructions, on
// history.jsonl's ids, a new one on most lines).
var idByte = func() (t [256]bool) {
	for c := range 256 {
		t[c] = c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-' || c == '_'
	}
	return t
}()

// back is the file's bytes of a stored chunk.
func (n *normalizer) back(stored []byte, raw bool, ids []IDRun) ([]byte, error) {
	if raw || len(ids) == 0 {
		return stored, nil
	}
	out := n.out[:0]
	mark := []byte(sessionKey + string(marker))
	for _, r := range ids {
		for range r.N {
			i := bytes.Index(stored, mark)
			if i < 0 {
				return nil, errors.New("a chunk holds fewer session ids than its record says")
			}
			out = append(out, stored[:i+len(sessionKey)]...)
			out = append(out, r.ID...)
			stored = stored[i+len(mark):]
		}
	}
	n.out = append(out, stored...)
	return n.out, nil
}

// isBoundary reports whether the line (a whole line, with its newline)
// ends a chunk: a line of n bytes does with probability n/chunkTarget,
// decided by FNV-1a of its last tailBytes bytes and its length, so the
// same line decides the same way in every file and chunks hold about
// chunkTarget bytes whatever the lines' lengths. In a JSON Lines file
// the line is taken with its session ids factored out (as it is
// stored), so a fork's line, which differs from its parent's by the id
// alone, decides as the parent's does.
func (c *cutter) isBoundary(line []byte) bool {
	tail, n := c.boundaryTail(line, &c.tail)
	return endsChunk(fnvFrom(fnvOffset, tail), n)
}

// boundaries is isBoundary of two lines, a and b, their hashes computed
// side by side: FNV-1a is a chain of multiplies, a byte's waiting for
// the last one's, and a core runs two chains in the time of one (the
// chain was 2.5-3 % of a first sync's CPU).
func (c *cutter) boundaries(a, b []byte) (bool, bool) {
	ta, na := c.boundaryTail(a, &c.tail)
	tb, nb := c.boundaryTail(b, &c.tail2)
	return endsPair(ta, na, tb, nb)
}

// endsPair is endsChunk of two lines' tails (ta, tb) and lengths (na,
// nb), their hashes computed side by side.
func endsPair(ta []byte, na int, tb []byte, nb int) (bool, bool) {
	ha, hb := uint64(fnvOffset), uint64(fnvOffset)
	k := min(len(ta), len(tb))
	for i := range k {
		ha = (ha ^ uint64(ta[i])) * fnvPrime
		hb = (hb ^ uint64(tb[i])) * fnvPrime
	}
	return endsChunk(fnvFrom(ha, ta[k:]), na), endsChunk(fnvFrom(hb, tb[k:]), nb)
}

// FNV-1a's 64-bit offset and prime.
const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

// boundaryTail is the part of line that decides whether it ends a
// chunk (its last tailBytes bytes, session ids out in a JSON Lines file,
// normTail's in buf) and its length as stored.
func (c *cutter) boundaryTail(line []byte, buf *[]byte) ([]byte, int) {
	tail, n := line, len(line)
	if c.norm.enabled {
		tail, n = c.normTail(line, buf)
	}
	if len(tail) > tailBytes {
		tail = tail[len(tail)-tailBytes:]
	}
	return tail, n
}

// fnvFrom is FNV-1a of data from h.
func fnvFrom(h uint64, data []byte) uint64 {
	for _, b := range data {
		h ^= uint64(b)
		h *= fnvPrime
	}
	return h
}

// endsChunk is the decision for a line of n bytes (as stored) whose
// tail hashes to h: true with probability max(n, chunkTarget /
// chunkLines) / chunkTarget.
func endsChunk(h uint64, n int) bool {
	h ^= uint64(n)
	h *= fnvPrime
	return uint64(uint32(h>>32))*chunkTarget < max(uint64(n), chunkTarget/chunkLines)<<32
}

// normTail is the end of line (at least its last tailBytes bytes) as
// the normalizer stores it (session ids out), and the line's length so
// shortened. Only the line's last tailWindow bytes are looked at: an id
// whose value reaches into the last tailBytes starts its key within
// them. normTail searches them; a cut takes their keys from its marks
// (boundaryTailAt), unless it lost them.
func (c *cutter) normTail(line []byte, buf *[]byte) ([]byte, int) {
	w := line[max(0, len(line)-tailWindow):]
	c.keys = appendKeys(c.keys[:0], w)
	return c.normTailKeys(line, c.keys, bytes.IndexByte(w, marker) >= 0, buf)
}

// normTailKeys is normTail given where sessionKey starts in the line's
// last tailWindow bytes (every place, in order, from the window's
// start) and whether they hold a NUL.
func (c *cutter) normTailKeys(line []byte, keys []int32, nul bool, buf *[]byte) ([]byte, int) {
	if len(keys) == 0 {
		return line, len(line)
	}
	w := line[max(0, len(line)-tailWindow):]
	if nul {
		return w, len(line)
	}
	if len(keys) == 1 {
		// One key, as in nearly every line of a transcript: its id (if
		// it is one) is taken out of the tail where it lies, no copy of
		// the window made.
		i := int(keys[0]) + len(sessionKey)
		if j := c.norm.idEnd(w[i:]); j > 0 {
			if id := w[i : i+j]; string(id) != c.norm.last {
				c.norm.last = string(id)
			}
			after, n := w[i+j:], len(line)-j+1
			if len(after) >= tailBytes {
				return after, n
			}
			t := append((*buf)[:0], w[max(0, i-(tailBytes-1-len(after))):i]...)
			t = append(t, marker)
			t = append(t, after...)
			*buf = t
			return t, n
		}
	}
	nz := normalizer{enabled: true, out: (*buf)[:0], last: c.norm.last}
	t, ids := nz.forwardKeys(w, keys, c.tailIDs[:0])
	// The id found last is the one the next lines name (matched at
	// once: normalizer.idEnd), and the runs' room is kept.
	*buf, c.norm.last, c.tailIDs = nz.out, nz.last, ids
	return t, len(line) - len(w) + len(t)
}

// cutResult is what cutting a file (or its tail) gave.
type cutResult struct {
	chunks []Chunk
	// size is the bytes consumed (a trailing line without its newline is
	// left when complete lines only are wanted).
	size int64
	// lastStart is the offset (in the whole file) where the last chunk
	// starts.
	lastStart int64
	// prefix is the file's first prefixAt bytes as chunks, when the cut
	// passed that offset: the chunks cut before it (prefixChunks of
	// chunks) and, when prefixAt falls inside a chunk, that chunk's part
	// before it (prefixPart, N 0 when none), named as a chunk of those
	// bytes would be.
	prefixChunks int
	prefixPart   Chunk
	prefixSeen   bool
	// newBytes counts the raw bytes of chunks stored for the first time.
	newBytes int64
}

// cutter cuts a file into chunks and stores the new ones. A file's bytes
// are hashed once, as its chunks (the SHA-256 of each chunk as stored
// names it, and the chunk list names the file: chunksSum); format 1 also
// hashed every byte of the file in a second pass.
type cutter struct {
	norm normalizer
	// hash names the chunks (the vault's).
	hash  chunkHash
	store func(k key, data []byte) (fresh bool, err error)
	// into, when set, is the room a chunk of n bytes has its stored
	// bytes written into (empty, n bytes at least; nil: none): the
	// frame the chunk is stored in, if new (store keeps it there,
	// packWriter.addFilled).
	into func(n int) []byte
	// buf holds what was read of the file and not yet stored: the chunk
	// being built is buf[cs:ls], the bytes read after it buf[ls:end].
	// Lines and chunks are slices of it (a chunk is not copied out of
	// the read buffer to be hashed and stored: a first sync read every
	// byte into a bufio.Reader and copied it again into the chunk).
	buf         []byte
	cs, ls, end int
	// tail and tail2 are normTail's buffers (two lines' at once:
	// boundaries), tails the lines' decided together (decideLines).
	tail, tail2 []byte
	tails       [aheadLines][]byte
	// ahead[aheadI:aheadN] are the lengths of the lines found after the
	// one added last, decided with it (aheadEnds: their isBoundary):
	// they are not searched for again.
	ahead          [aheadLines - 1]int
	aheadEnds      [aheadLines - 1]bool
	aheadI, aheadN int
	// scanned: buf[ls:scanned] has been looked at for newlines, session
	// keys and NULs (scanLine), once: keyAt holds where sessionKey may
	// start in buf[cs:scanned] (every place it does, in order, and a few
	// where it turns out not to: checked where used), nulAt where a NUL
	// is. A chunk's ids are then taken out and a line's tail normalized
	// without searching their bytes again. marksLost: more marks than
	// maxMarks (a file of NULs), and the rest of the cut searches as
	// before.
	scanned      int
	keyAt, nulAt []int32
	marksLost    bool
	// keys is a chunk's or a line tail's keys, tailIDs a line tail's
	// ids (reused).
	keys    []int32
	tailIDs []IDRun
	res     cutResult
	offset  int64
	chStart int64
	// prefixAt is the offset whose prefix is wanted as chunks (-1 none).
	prefixAt int64
}

// chunksSum names a file's bytes by its chunks (Version.Sum): the
// SHA-256 of a line per chunk (its name, its length in the file, whether
// it is stored raw, its session ids). Two versions with the same chunk
// list hold the same bytes, and a version whose chunks all check against
// their names and whose list checks against Sum is the file as it was
// synced.
func chunksSum(chunks []Chunk) string {
	h := sha256.New()
	var b []byte
	for _, c := range chunks {
		b = append(b[:0], c.H...)
		b = append(b, ' ')
		b = strconv.AppendInt(b, c.N, 10)
		if c.Raw {
			b = append(b, " raw"...)
		}
		for _, r := range c.IDs {
			b = append(b, ' ')
			b = append(b, r.ID...)
			b = append(b, '*')
			b = strconv.AppendInt(b, int64(r.N), 10)
		}
		b = append(b, '\n')
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// sameChunks reports whether a and b are the same chunk list (the same
// bytes).
func sameChunks(a, b []Chunk) bool {
	return slices.EqualFunc(a, b, func(x, y Chunk) bool {
		return x.H == y.H && x.N == y.N && x.Raw == y.Raw && slices.Equal(x.IDs, y.IDs)
	})
}

// cutBuf is the size of a cutter's read buffer: room for a chunk being
// built (under maxChunk), a line piece (maxChunk) and a read of at least
// maxChunk after them.
const cutBuf = 3 * maxChunk

// cutBufHook, when set, is called when a cutter makes its read buffer:
// a test's seam.
var cutBufHook func()

// cut reads r (starting at offset start of the file, at most limit
// bytes) and cuts it into chunks. completeLines leaves a trailing line
// without its newline unread. Lines are cut as a bufio.Reader of
// maxChunk bytes gives them (ReadSlice('\n')): a line with no newline in
// its first maxChunk bytes comes in pieces of maxChunk bytes.
func (c *cutter) cut(r io.Reader, start, limit int64, completeLines bool) (cutResult, error) {
	c.res = cutResult{lastStart: start}
	c.offset, c.chStart = start, start
	if c.buf == nil {
		if cutBufHook != nil {
			cutBufHook()
		}
		c.buf = make([]byte, cutBuf)
	}
	c.cs, c.ls, c.end, c.aheadI, c.aheadN = 0, 0, 0, 0, 0
	c.scanned, c.keyAt, c.nulAt, c.marksLost = 0, c.keyAt[:0], c.nulAt[:0], false
	lr := io.LimitedReader{R: r, N: limit}
	var rerr error
	for {
		// lim: a line is found in maxChunk bytes, or is cut there.
		lim := min(c.end, c.ls+maxChunk)
		if c.aheadI < c.aheadN {
			// A line found beside an earlier one, decided with it.
			n, ends := c.ahead[c.aheadI], c.aheadEnds[c.aheadI]
			c.aheadI++
			if err := c.addLine(n, true, ends); err != nil {
				return c.res, err
			}
			continue
		}
		if e := c.scanLine(lim); e >= 0 {
			// The next lines, those in the buffer, are found now and
			// their boundaries decided at once.
			at := [aheadLines + 1]int{c.ls, e + 1}
			k := 1
			for k < aheadLines {
				f := c.scanLine(min(c.end, at[k]+maxChunk))
				if f < 0 {
					break
				}
				k++
				at[k] = f + 1
			}
			ends := c.decideLines(at[:k+1])
			for i := 1; i < k; i++ {
				c.ahead[i-1] = at[i+1] - at[i]
			}
			c.aheadI, c.aheadN = 0, k-1
			if err := c.addLine(e+1-c.ls, true, ends); err != nil {
				return c.res, err
			}
			continue
		}
		if lim-c.ls == maxChunk {
			// No newline in maxChunk bytes: a piece of a longer line.
			if err := c.addLine(maxChunk, false, false); err != nil {
				return c.res, err
			}
			continue
		}
		if rerr != nil {
			if lim > c.ls && !(rerr == io.EOF && completeLines) {
				if err := c.addLine(lim-c.ls, false, false); err != nil {
					return c.res, err
				}
			}
			if rerr != io.EOF {
				return c.res, rerr
			}
			break
		}
		rerr = c.fill(&lr)
	}
	if c.prefixAt == c.offset {
		c.notePrefix(c.ls - c.cs)
	}
	if err := c.emit(); err != nil {
		return c.res, err
	}
	c.res.size = c.offset - start
	return c.res, nil
}

// maxMarks bounds keyAt and nulAt (a chunk of transcript lines has a
// key or two a line).
const maxMarks = 1 << 16

// scanLine looks at buf[scanned:lim] up to the first newline, noting
// the session keys and NULs it passes (keyAt, nulAt), and returns the
// newline's place in buf (-1: none before lim).
func (c *cutter) scanLine(lim int) int {
	if !c.norm.enabled || c.marksLost {
		// No marks wanted: a file not JSON Lines (which may be binary,
		// NULs and 'I's all through), or one with more than maxMarks.
		return c.scanNewline(lim)
	}
	if scanBlocks == nil {
		return c.scanLineBytes(lim)
	}
	// One pass for the three bytes, 32 at a time (three passes of
	// bytes.IndexByte before, two of them over each chunk again when it
	// was stored: indexbytebody was 3.9 % of a first sync's CPU).
	b := c.buf
	i := c.scanned
	for lim-i >= 32 {
		n := (lim - i) / 32
		k, m := scanBlocks(&b[i], n)
		i += 32 * k
		if k == n {
			break
		}
		for ; m != 0; m &= m - 1 {
			j := i + bits.TrailingZeros64(m)
			switch b[j] {
			case '\n':
				c.scanned = j + 1
				return j
			case marker:
				c.noteNUL(j)
			default:
				c.noteKey(j)
			}
		}
		i += 32
	}
	for ; i < lim; i++ {
		switch b[i] {
		case '\n':
			c.scanned = i + 1
			return i
		case marker:
			c.noteNUL(i)
		case sessionKey[keyAnchor]:
			c.noteKey(i)
		}
	}
	c.scanned = lim
	return -1
}

// scanNewline is scanLine without the marks: the newline alone.
func (c *cutter) scanNewline(lim int) int {
	from := c.scanned
	if from >= lim {
		return -1
	}
	if e := bytes.IndexByte(c.buf[from:lim], '\n'); e >= 0 {
		c.scanned = from + e + 1
		return from + e
	}
	c.scanned = lim
	return -1
}

// scanLineBytes is scanLine with bytes.IndexByte: the newline, then the
// line's 'I's and NULs.
func (c *cutter) scanLineBytes(lim int) int {
	from := c.scanned
	if from >= lim {
		return -1
	}
	b := c.buf[from:lim]
	e := bytes.IndexByte(b, '\n')
	if e >= 0 {
		b = b[:e]
		c.scanned = from + e + 1
	} else {
		c.scanned = lim
	}
	for i := 0; ; {
		k := bytes.IndexByte(b[i:], sessionKey[keyAnchor])
		if k < 0 {
			break
		}
		c.noteKey(from + i + k)
		i += k + 1
	}
	if bytes.IndexByte(b, marker) >= 0 {
		for i := range b {
			if b[i] == marker {
				c.noteNUL(from + i)
			}
		}
	}
	if e >= 0 {
		return from + e
	}
	return -1
}

// noteKey notes the key whose anchor byte is buf[j], when its bytes
// read so far are the key's.
func (c *cutter) noteKey(j int) {
	p := j - keyAnchor
	if p < c.cs {
		return
	}
	if p+len(sessionKey) <= c.end && string(c.buf[p:p+len(sessionKey)]) != sessionKey {
		return
	}
	if len(c.keyAt) >= maxMarks {
		c.marksLost = true
		return
	}
	c.keyAt = append(c.keyAt, int32(p))
}

// noteNUL notes a NUL at buf[j].
func (c *cutter) noteNUL(j int) {
	if len(c.nulAt) >= maxMarks {
		c.marksLost = true
		return
	}
	c.nulAt = append(c.nulAt, int32(j))
}

// keysIn is where sessionKey starts in buf[from:to], relative to from,
// in c.keys; false when the marks are lost.
func (c *cutter) keysIn(from, to int) ([]int32, bool) {
	if c.marksLost {
		return nil, false
	}
	keys := c.keys[:0]
	// The marks from from on: a line's tail is near the last ones.
	i := len(c.keyAt)
	for i > 0 && int(c.keyAt[i-1]) >= from {
		i--
	}
	for _, p := range c.keyAt[i:] {
		q := int(p)
		if q+len(sessionKey) > to {
			break
		}
		if string(c.buf[q:q+len(sessionKey)]) == sessionKey {
			keys = append(keys, int32(q-from))
		}
	}
	c.keys = keys
	return keys, true
}

// nulIn reports whether buf[from:to] holds a NUL (nulAt).
func (c *cutter) nulIn(from, to int) bool {
	i, _ := slices.BinarySearch(c.nulAt, int32(from))
	return i < len(c.nulAt) && int(c.nulAt[i]) < to
}

// boundaryTailAt is boundaryTail of the line buf[from:to], its session
// keys and NULs taken from the marks.
func (c *cutter) boundaryTailAt(from, to int, buf *[]byte) ([]byte, int) {
	line := c.buf[from:to]
	if !c.norm.enabled {
		return c.boundaryTail(line, buf)
	}
	ws := max(from, to-tailWindow)
	keys, ok := c.keysIn(ws, to)
	if !ok {
		return c.boundaryTail(line, buf)
	}
	tail, n := c.normTailKeys(line, keys, len(keys) > 0 && c.nulIn(ws, to), buf)
	if len(tail) > tailBytes {
		tail = tail[len(tail)-tailBytes:]
	}
	return tail, n
}

// aheadLines is how many lines are found and decided at once: four
// FNV-1a chains side by side keep a core's multiplier busy (two left it
// idle half the time: a multiply waits 3 cycles for the one before).
const aheadLines = 4

// decideLines decides whether each of the lines buf[at[i]:at[i+1]] ends
// a chunk (isBoundary), the first's answer returned, the others' in
// aheadEnds.
func (c *cutter) decideLines(at []int) bool {
	var t [aheadLines][]byte
	var n [aheadLines]int
	k := len(at) - 1
	for i := range k {
		t[i], n[i] = c.boundaryTailAt(at[i], at[i+1], &c.tails[i])
	}
	var e [aheadLines]bool
	switch k {
	case 4:
		e = endsQuad(&t, &n)
	case 3:
		e[0], e[1] = endsPair(t[0], n[0], t[1], n[1])
		e[2] = endsChunk(fnvFrom(fnvOffset, t[2]), n[2])
	case 2:
		e[0], e[1] = endsPair(t[0], n[0], t[1], n[1])
	default:
		e[0] = endsChunk(fnvFrom(fnvOffset, t[0]), n[0])
	}
	copy(c.aheadEnds[:], e[1:])
	return e[0]
}

// endsQuad is endsChunk of four lines' tails and lengths, their hashes
// computed side by side.
func endsQuad(t *[aheadLines][]byte, n *[aheadLines]int) (e [aheadLines]bool) {
	h0, h1, h2, h3 := uint64(fnvOffset), uint64(fnvOffset), uint64(fnvOffset), uint64(fnvOffset)
	k := min(len(t[0]), len(t[1]), len(t[2]), len(t[3]))
	a, b, c, d := t[0][:k], t[1][:k], t[2][:k], t[3][:k]
	for i := range a {
		h0 = (h0 ^ uint64(a[i])) * fnvPrime
		h1 = (h1 ^ uint64(b[i])) * fnvPrime
		h2 = (h2 ^ uint64(c[i])) * fnvPrime
		h3 = (h3 ^ uint64(d[i])) * fnvPrime
	}
	for i, h := range [aheadLines]uint64{h0, h1, h2, h3} {
		e[i] = endsChunk(fnvFrom(h, t[i][k:]), n[i])
	}
	return e
}

// fill reads more of r into buf, first moving the chunk being built and
// the bytes after it to buf's start when less than maxChunk is free
// after them. Its error is r's (io.EOF at the end), once buf holds what
// was read before it.
func (c *cutter) fill(r io.Reader) error {
	if len(c.buf)-c.end < maxChunk {
		n := copy(c.buf, c.buf[c.cs:c.end])
		c.ls -= c.cs
		c.scanned -= c.cs
		for i := range c.keyAt {
			c.keyAt[i] -= int32(c.cs)
		}
		for i := range c.nulAt {
			c.nulAt[i] -= int32(c.cs)
		}
		c.cs, c.end = 0, n
	}
	for range 100 {
		n, err := r.Read(c.buf[c.end:])
		c.end += n
		if err != nil || n > 0 {
			return err
		}
	}
	return io.ErrNoProgress
}

// notePrefix records the file's first prefixAt bytes as chunks: those
// cut so far and the first n bytes of the chunk being built (the first
// time only).
func (c *cutter) notePrefix(n int) {
	if c.res.prefixSeen {
		return
	}
	c.res.prefixSeen = true
	c.res.prefixChunks = len(c.res.chunks)
	if n > 0 {
		data, raw, ids := c.norm.forward(c.buf[c.cs : c.cs+n])
		c.res.prefixPart = Chunk{H: c.hash.sum(data).String(), N: int64(n), Raw: raw, IDs: ids}
	}
}

// addLine adds the next n bytes read, a line (whole: with its newline)
// or a piece of a longer one, to the chunk being built, ending the chunk
// where the rules say (ends: a whole line's isBoundary).
func (c *cutter) addLine(n int, whole, ends bool) error {
	if c.ls > c.cs && c.ls-c.cs+n > maxChunk {
		if err := c.emit(); err != nil {
			return err
		}
	}
	if c.ls == c.cs {
		c.chStart = c.offset
		c.res.lastStart = c.offset
	}
	c.ls += n
	size := c.ls - c.cs
	if c.prefixAt >= c.offset && c.prefixAt < c.offset+int64(n) {
		c.notePrefix(size - n + int(c.prefixAt-c.offset))
	}
	c.offset += int64(n)
	if whole && (ends || size >= softMax) || size >= maxChunk {
		return c.emit()
	}
	return nil
}

// emit stores the chunk being built.
func (c *cutter) emit() error {
	if c.ls == c.cs {
		return nil
	}
	orig := c.buf[c.cs:c.ls]
	own, into := c.norm.out, false
	if c.into != nil {
		if t := c.into(len(orig)); t != nil {
			c.norm.out, into = t, true
		}
	}
	data, raw, ids := c.forwardChunk()
	if into {
		// The normalizer's own buffer is back before anything else
		// uses it: into's room is the frame's, which store may send
		// away. (Otherwise forward's buffer, grown, is the one kept.)
		c.norm.out = own
	}
	k := c.hash.sum(data)
	fresh, err := c.store(k, data)
	if err != nil {
		return err
	}
	if fresh {
		c.res.newBytes += int64(len(data))
	}
	c.res.chunks = append(c.res.chunks, Chunk{H: k.String(), N: int64(len(orig)), Raw: raw, IDs: ids})
	c.cs = c.ls
	c.keyAt = dropBefore(c.keyAt, c.cs)
	c.nulAt = dropBefore(c.nulAt, c.cs)
	return nil
}

// dropBefore is marks without those before at.
func dropBefore(marks []int32, at int) []int32 {
	i := 0
	for i < len(marks) && int(marks[i]) < at {
		i++
	}
	if i == 0 {
		return marks
	}
	return append(marks[:0], marks[i:]...)
}

// forwardChunk is c.norm.forward of the chunk being built, its keys and
// NULs taken from the marks.
func (c *cutter) forwardChunk() ([]byte, bool, []IDRun) {
	data := c.buf[c.cs:c.ls]
	if !c.norm.enabled {
		return data, false, nil
	}
	keys, ok := c.keysIn(c.cs, c.ls)
	if !ok {
		return c.norm.forward(data)
	}
	if c.nulIn(c.cs, c.ls) {
		return data, true, nil
	}
	stored, ids := c.norm.forwardKeys(data, keys, nil)
	return stored, false, ids
}

// chunkHash is the hash that names a vault's chunks (its key): SHA-256
// in vaults of format 1-3 (the zero value), BLAKE3-256 in format 4.
// Both are 32 bytes, so index lines, state lines and keys keep their
// shape; what a name means is the vault's format (Vault.hash). BLAKE3
// (github.com/zeebo/blake3, AVX2) hashes a chunk about twice as fast as
// SHA-256 with the SHA-NI instructions on the bench machine, and SHA-256
// was a fifth of a first sync's CPU (docs/VAULT.md, "i31h").
type chunkHash uint8

const (
	hashSHA256 chunkHash = iota
	hashBLAKE3
)

// newVaultHash names the chunks of a vault a sync creates: BLAKE3
// (format 4); a test sets hashSHA256 to write a vault as format 3 did.
var newVaultHash = hashBLAKE3

// sum is data's name under h.
func (h chunkHash) sum(data []byte) key {
	if h == hashBLAKE3 {
		return blake3.Sum256(data)
	}
	return sha256.Sum256(data)
}

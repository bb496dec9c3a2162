package inventory

import (
	"time"

	"github.com/memscope/memscope/engine/diskcache"
	"github.com/memscope/memscope/model"
)

// stat's cache holds a verdict for each of a home's paste files and
// paste-cache's listing (8 631 of each on W). encoding/gob wrote each
// of those structs field by field through reflection, a string and a
// stamp's byte string apiece: a cold start spent some 4 ms encoding
// them and a warm start as much decoding them, with three allocations a
// paste. keptVerdicts and keptFolder write them packed instead (one
// byte string each, varints; their strings read back as slices of one
// string), with the same values back (TestKeptPackRoundTrip).

// keptVerdicts are the paste verdicts stat keeps (statCache.Pastes).
type keptVerdicts []model.PasteVerdict

// keptFolder is paste-cache as stat keeps it (statCache.PasteFolder).
type keptFolder model.PasteFolder

// packVersion starts the packed form: another version does not decode
// (the cache is then computed again).
const packVersion = 1

// The whole of stat's cache is packed (diskcache.Packed: the file's
// payload is the form itself, read with one Unpacker). Until stat.5 its
// parts were packed each inside encoding/gob's message: a warm start
// still set up a gob decoder for the cache's types, copied the message
// and each part's form (some 6 MB allocated on W) and decoded the
// history's counts and the memory folders through reflection.

// Pack packs the cache (diskcache.Packed). A time that does not marshal
// (a zone offset of seconds) packs nothing: the cache is not written.
func (c statCache) Pack() []byte {
	p := diskcache.Packer{B: make([]byte, 0, 1+len(c.Transcripts)*256+len(c.Pastes)*96+len(c.Memory)*64)}
	p.B = append(p.B, packVersion)
	if c.Transcripts.pack(&p) != nil || packHistory(&p, c.History) != nil {
		return nil
	}
	c.Pastes.pack(&p)
	p.Bool(c.PasteFolder != nil)
	if c.PasteFolder != nil && c.PasteFolder.pack(&p) != nil {
		return nil
	}
	packMapLen(&p, c.Memory == nil, len(c.Memory))
	for dir, m := range c.Memory {
		p.Str(dir)
		p.Bytes(m.Print[:])
		p.Bool(m.Exists)
		for _, n := range [...]int{m.Files, m.Invalid, m.Team, m.IndexFiles, m.IndexLines, m.IndexEntries} {
			p.Int(int64(n))
		}
		p.Problems(m.Problems)
	}
	return p.B
}

// Unpack reads what Pack packed; damage is refused, never a wrong
// value. b is Load's payload, read for it alone: the cache's strings are
// slices of it (diskcache.Unpacker.StartOwned), and it is not changed
// after.
func (c *statCache) Unpack(b []byte) error {
	var u diskcache.Unpacker
	u.StartOwned(b, packVersion)
	var out statCache
	out.Transcripts = unpackTranscripts(&u)
	out.History = unpackHistory(&u)
	out.Pastes = unpackVerdicts(&u)
	if u.Bool() {
		out.PasteFolder = unpackFolder(&u)
	}
	// A folder takes 42 bytes at least (its name's length, the print's
	// 33, a bool, six counts and the problems' count).
	if n, isNil := unpackMapLen(&u, 42); !isNil {
		out.Memory = make(map[string]cachedMemory, n)
		for range n {
			dir := u.Str()
			var m cachedMemory
			unpackFixed(&u, m.Print[:])
			m.Exists = u.Bool()
			for _, x := range [...]*int{&m.Files, &m.Invalid, &m.Team, &m.IndexFiles, &m.IndexLines, &m.IndexEntries} {
				*x = int(u.Int())
			}
			m.Problems = u.Problems()
			if !u.OK() {
				break
			}
			out.Memory[dir] = m
		}
	}
	if err := u.Done(); err != nil {
		return err
	}
	*c = out
	return nil
}

// packMapLen packs a map's length as gob keeps it: nil apart from empty
// (a bool, then the length).
func packMapLen(p *diskcache.Packer, isNil bool, n int) {
	p.Bool(!isNil)
	if !isNil {
		p.Uint(uint64(n))
	}
}

// unpackMapLen reads what packMapLen packed, of a map whose entries take
// min bytes each at least.
func unpackMapLen(u *diskcache.Unpacker, min int) (n int, isNil bool) {
	if !u.Bool() {
		return 0, true
	}
	return u.Count(min), !u.OK()
}

// unpackFixed reads into dst what Packer.Bytes packed of an array of
// its length.
func unpackFixed(u *diskcache.Unpacker, dst []byte) {
	b := u.Bytes()
	if u.OK() && len(b) != len(dst) {
		u.Fail()
	}
	copy(dst, b)
}

// packHistory packs the history's counts: a bool for none, then every
// field.
func packHistory(p *diskcache.Packer, h *cachedHistory) error {
	p.Bool(h != nil)
	if h == nil {
		return nil
	}
	p.Stamp(h.Stamp)
	t := &h.Tail
	p.Int(t.Offset)
	p.Int(int64(t.Lines))
	p.Int(t.Size)
	if err := packTime(p, t.ModTime); err != nil {
		return err
	}
	p.Uint(t.ID.Dev)
	p.Uint(t.ID.Ino)
	p.Bool(t.ID.Known)
	p.Bytes(t.Head[:])
	p.Int(int64(t.HeadLen))
	p.Int(t.Skip)
	p.Int(int64(h.Entries))
	p.Problems(h.Problems)
	packMapLen(p, h.Refs == nil, len(h.Refs))
	for k, n := range h.Refs {
		p.Str(string(k))
		p.Int(int64(n))
	}
	p.Int(int64(h.Inline))
	return nil
}

func unpackHistory(u *diskcache.Unpacker) *cachedHistory {
	if !u.Bool() {
		return nil
	}
	h := &cachedHistory{Stamp: u.Stamp()}
	t := &h.Tail
	t.Offset, t.Lines, t.Size = u.Int(), int(u.Int()), u.Int()
	t.ModTime = unpackTime(u)
	t.ID.Dev, t.ID.Ino, t.ID.Known = u.Uint(), u.Uint(), u.Bool()
	unpackFixed(u, t.Head[:])
	t.HeadLen, t.Skip = int(u.Int()), u.Int()
	h.Entries = int(u.Int())
	h.Problems = u.Problems()
	// A count takes 2 bytes at least.
	if n, isNil := unpackMapLen(u, 2); !isNil {
		h.Refs = make(map[model.PasteHash]int, n)
		for range n {
			k := model.PasteHash(u.Str())
			h.Refs[k] = int(u.Int())
		}
	}
	h.Inline = int(u.Int())
	return h
}

// pack packs the verdicts.
func (k keptVerdicts) pack(p *diskcache.Packer) {
	p.Uint(uint64(len(k)))
	for i := range k {
		v := &k[i]
		p.Str(v.Path)
		p.Stamp(v.Stamp)
		p.Str(string(v.Status))
		p.Bool(v.Verified)
		p.Str(string(v.Actual))
		p.Str(v.Reason)
	}
}

// unpack reads what pack packed (nil for none, as gob read an empty
// list).
func unpackVerdicts(u *diskcache.Unpacker) keptVerdicts {
	// A verdict takes 13 bytes at least (four strings' lengths, the
	// stamp's 8 and a bool).
	out := make(keptVerdicts, u.Count(13))
	for i := range out {
		v := &out[i]
		v.Path = u.Str()
		v.Stamp = u.Stamp()
		v.Status = model.PasteStatus(u.Str())
		v.Verified = u.Bool()
		v.Actual = model.PasteHash(u.Str())
		v.Reason = u.Str()
	}
	if len(out) == 0 || !u.OK() {
		return nil
	}
	return out
}

// pack packs the folder.
func (f *keptFolder) pack(p *diskcache.Packer) error {
	full, err := f.Full.MarshalBinary()
	if err != nil {
		return err
	}
	p.Uint(f.ID.Dev)
	p.Uint(f.ID.Ino)
	p.Bool(f.ID.Known)
	p.Int(f.ModTime)
	p.Str(string(full))
	p.Uint(uint64(len(f.Files)))
	for i := range f.Files {
		x := &f.Files[i]
		p.Str(x.Name)
		p.Int(x.Size)
		p.Int(x.ModTime)
		p.Int(x.ChangeTime)
		p.Uint(x.Dev)
		p.Uint(x.Ino)
	}
	return nil
}

// unpackFolder reads what keptFolder.pack packed.
func unpackFolder(u *diskcache.Unpacker) *keptFolder {
	var out keptFolder
	out.ID.Dev, out.ID.Ino, out.ID.Known = u.Uint(), u.Uint(), u.Bool()
	out.ModTime = u.Int()
	full := u.Str()
	if u.OK() {
		if err := out.Full.UnmarshalBinary([]byte(full)); err != nil {
			u.Fail()
		}
	}
	// A file takes 6 bytes at least.
	if n := u.Count(6); n > 0 {
		out.Files = make([]model.PasteFolderFile, n)
	}
	for i := range out.Files {
		x := &out.Files[i]
		x.Name = u.Str()
		x.Size, x.ModTime, x.ChangeTime = u.Int(), u.Int(), u.Int()
		x.Dev, x.Ino = u.Uint(), u.Uint()
	}
	return &out
}

// folder is the kept folder as the paste inventory takes it.
func (f *keptFolder) folder() *model.PasteFolder { return (*model.PasteFolder)(f) }

// keep is the folder the paste inventory returned, to keep.
func keep(f *model.PasteFolder) *keptFolder { return (*keptFolder)(f) }

// keptTranscripts are the transcripts' summaries stat keeps
// (statCache.Transcripts), packed: a cold start wrote them twice (the
// shared pass's feed, then stat) and read them once, a warm start read
// them once, each entry's summary through gob's reflection (its two maps,
// its times and problems) with a string apiece. Every field of
// model.TranscriptSummary, model.Problem and diskcache.Entry is written:
// TestKeptPackFields fails when one is added, until it is packed too.
type keptTranscripts map[string]cachedTranscript

// packCounts packs a map as gob keeps it: nil apart from empty.
func packCounts(p *diskcache.Packer, m map[string]int) {
	packMapLen(p, m == nil, len(m))
	for k, v := range m {
		p.Str(k)
		p.Int(int64(v))
	}
}

func packTime(p *diskcache.Packer, t time.Time) error {
	b, err := t.MarshalBinary()
	if err != nil {
		return err
	}
	p.Bytes(b)
	return nil
}

func unpackCounts(u *diskcache.Unpacker) map[string]int {
	// A count takes 2 bytes at least.
	n, isNil := unpackMapLen(u, 2)
	if isNil {
		return nil
	}
	m := make(map[string]int, n)
	for range n {
		k := u.Str()
		m[k] = int(u.Int())
	}
	return m
}

func unpackTime(u *diskcache.Unpacker) time.Time {
	b := u.Bytes()
	if !u.OK() {
		return time.Time{}
	}
	var t time.Time
	if err := t.UnmarshalBinary(b); err != nil {
		u.Fail()
	}
	return t
}

// pack packs the summaries.
func (k keptTranscripts) pack(p *diskcache.Packer) error {
	packMapLen(p, k == nil, len(k))
	for name, e := range k {
		p.Str(name)
		p.Stamp(e.Stamp)
		p.Bool(e.Settled)
		s := &e.Value
		p.Str(s.Path)
		p.Str(s.SessionID)
		p.Str(s.CWD)
		p.Int(s.Bytes)
		p.Int(int64(s.Lines))
		p.Int(int64(s.BlankLines))
		p.Int(int64(s.Records))
		packCounts(p, s.Types)
		packCounts(p, s.Subtypes)
		p.Int(int64(s.CompactBoundaries))
		p.Int(int64(s.MicrocompactBoundaries))
		p.Int(s.Usage.InputTokens)
		p.Int(s.Usage.OutputTokens)
		p.Int(s.Usage.CacheCreationInputTokens)
		p.Int(s.Usage.CacheReadInputTokens)
		p.Int(int64(s.Responses))
		if err := packTime(p, s.First); err != nil {
			return err
		}
		if err := packTime(p, s.Last); err != nil {
			return err
		}
		p.Problems(s.Problems)
	}
	return nil
}

// unpackTranscripts reads what keptTranscripts.pack packed.
func unpackTranscripts(u *diskcache.Unpacker) keptTranscripts {
	// An entry takes 40 bytes at least.
	n, isNil := unpackMapLen(u, 40)
	if isNil {
		return nil
	}
	out := make(keptTranscripts, n)
	for range n {
		name := u.Str()
		var e cachedTranscript
		e.Stamp = u.Stamp()
		e.Settled = u.Bool()
		s := &e.Value
		s.Path, s.SessionID, s.CWD = u.Str(), u.Str(), u.Str()
		s.Bytes = u.Int()
		s.Lines, s.BlankLines, s.Records = int(u.Int()), int(u.Int()), int(u.Int())
		s.Types, s.Subtypes = unpackCounts(u), unpackCounts(u)
		s.CompactBoundaries, s.MicrocompactBoundaries = int(u.Int()), int(u.Int())
		s.Usage.InputTokens, s.Usage.OutputTokens = u.Int(), u.Int()
		s.Usage.CacheCreationInputTokens, s.Usage.CacheReadInputTokens = u.Int(), u.Int()
		s.Responses = int(u.Int())
		s.First, s.Last = unpackTime(u), unpackTime(u)
		s.Problems = u.Problems()
		if !u.OK() {
			return nil
		}
		out[name] = e
	}
	return out
}

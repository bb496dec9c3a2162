package inventory

import (
	"encoding/binary"
	"errors"
	"time"

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

// packVersion starts the packed forms: another version does not decode
// (the cache is then computed again).
const packVersion = 1

var errPacked = errors.New("inventory: a packed cache value is damaged")

// packer appends a packed form.
type packer struct{ b []byte }

func (p *packer) uint(v uint64) { p.b = binary.AppendUvarint(p.b, v) }
func (p *packer) int(v int64)   { p.b = binary.AppendVarint(p.b, v) }

func (p *packer) str(s string) {
	p.uint(uint64(len(s)))
	p.b = append(p.b, s...)
}

func (p *packer) bool(v bool) {
	if v {
		p.b = append(p.b, 1)
	} else {
		p.b = append(p.b, 0)
	}
}

// stamp packs what a FileStamp's GobEncode writes, inline.
func (p *packer) stamp(s model.FileStamp) {
	p.int(s.Size)
	p.int(s.ModTime)
	p.int(s.ChangeTime)
	p.uint(s.ID.Dev)
	p.uint(s.ID.Ino)
	p.bool(s.ID.Known)
	p.int(int64(s.HeadLen))
	hashed := s.HeadLen != 0 || s.Head != [len(s.Head)]byte{}
	p.bool(hashed)
	if hashed {
		p.b = append(p.b, s.Head[:]...)
	}
}

// unpacker reads a packed form; its strings are slices of all, the
// whole form as one string (one allocation for every string in it).
type unpacker struct {
	b   []byte
	all string
	at  int
	bad bool
}

func (u *unpacker) uint() uint64 {
	if u.bad {
		return 0
	}
	v, n := binary.Uvarint(u.b[u.at:])
	if n <= 0 {
		u.bad = true
		return 0
	}
	u.at += n
	return v
}

// int reads what binary.AppendVarint wrote (zig-zag).
func (u *unpacker) int() int64 {
	x := u.uint()
	return int64(x>>1) ^ -int64(x&1)
}

func (u *unpacker) str() string {
	n := u.uint()
	if u.bad || n > uint64(len(u.all)-u.at) {
		u.bad = true
		return ""
	}
	s := u.all[u.at : u.at+int(n)]
	u.at += int(n)
	return s
}

func (u *unpacker) bool() bool {
	if u.bad || u.at >= len(u.all) || u.all[u.at] > 1 {
		u.bad = true
		return false
	}
	u.at++
	return u.all[u.at-1] == 1
}

func (u *unpacker) stamp() model.FileStamp {
	var s model.FileStamp
	s.Size, s.ModTime, s.ChangeTime = u.int(), u.int(), u.int()
	s.ID.Dev, s.ID.Ino, s.ID.Known = u.uint(), u.uint(), u.bool()
	s.HeadLen = int(u.int())
	if u.bool() {
		if len(u.all)-u.at < len(s.Head) {
			u.bad = true
			return s
		}
		copy(s.Head[:], u.all[u.at:])
		u.at += len(s.Head)
	}
	return s
}

// count reads a count of items that take at least min bytes each: one
// the rest cannot hold is damage (and is not allocated for).
func (u *unpacker) count(min int) int {
	n := u.uint()
	if u.bad || n > uint64((len(u.all)-u.at)/min) {
		u.bad = true
		return 0
	}
	return int(n)
}

// start checks the version.
func (u *unpacker) start(b []byte) {
	u.b, u.all = b, string(b)
	if len(u.all) == 0 || u.all[0] != packVersion {
		u.bad = true
		return
	}
	u.at = 1
}

// done says the whole form was read without damage.
func (u *unpacker) done() error {
	if u.bad || u.at != len(u.all) {
		return errPacked
	}
	return nil
}

// GobEncode packs the verdicts.
func (k keptVerdicts) GobEncode() ([]byte, error) {
	p := packer{b: make([]byte, 0, 1+len(k)*64)}
	p.b = append(p.b, packVersion)
	p.uint(uint64(len(k)))
	for i := range k {
		v := &k[i]
		p.str(v.Path)
		p.stamp(v.Stamp)
		p.str(string(v.Status))
		p.bool(v.Verified)
		p.str(string(v.Actual))
		p.str(v.Reason)
	}
	return p.b, nil
}

// GobDecode unpacks what GobEncode packed.
func (k *keptVerdicts) GobDecode(b []byte) error {
	var u unpacker
	u.start(b)
	// A verdict takes 13 bytes at least (four strings' lengths, the
	// stamp's 8 and a bool).
	out := make(keptVerdicts, u.count(13))
	for i := range out {
		v := &out[i]
		v.Path = u.str()
		v.Stamp = u.stamp()
		v.Status = model.PasteStatus(u.str())
		v.Verified = u.bool()
		v.Actual = model.PasteHash(u.str())
		v.Reason = u.str()
	}
	if err := u.done(); err != nil {
		return err
	}
	if len(out) == 0 {
		out = nil
	}
	*k = out
	return nil
}

// GobEncode packs the folder.
func (f *keptFolder) GobEncode() ([]byte, error) {
	full, err := f.Full.MarshalBinary()
	if err != nil {
		return nil, err
	}
	p := packer{b: make([]byte, 0, 64+len(f.Files)*48)}
	p.b = append(p.b, packVersion)
	p.uint(f.ID.Dev)
	p.uint(f.ID.Ino)
	p.bool(f.ID.Known)
	p.int(f.ModTime)
	p.str(string(full))
	p.uint(uint64(len(f.Files)))
	for i := range f.Files {
		x := &f.Files[i]
		p.str(x.Name)
		p.int(x.Size)
		p.int(x.ModTime)
		p.int(x.ChangeTime)
		p.uint(x.Dev)
		p.uint(x.Ino)
	}
	return p.b, nil
}

// GobDecode unpacks what GobEncode packed.
func (f *keptFolder) GobDecode(b []byte) error {
	var u unpacker
	u.start(b)
	var out keptFolder
	out.ID.Dev, out.ID.Ino, out.ID.Known = u.uint(), u.uint(), u.bool()
	out.ModTime = u.int()
	full := u.str()
	if !u.bad {
		if err := out.Full.UnmarshalBinary([]byte(full)); err != nil {
			return errPacked
		}
	}
	// A file takes 6 bytes at least.
	if n := u.count(6); n > 0 {
		out.Files = make([]model.PasteFolderFile, n)
	}
	for i := range out.Files {
		x := &out.Files[i]
		x.Name = u.str()
		x.Size, x.ModTime, x.ChangeTime = u.int(), u.int(), u.int()
		x.Dev, x.Ino = u.uint(), u.uint()
	}
	if err := u.done(); err != nil {
		return err
	}
	*f = out
	return nil
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

// counts packs a map as gob keeps it: nil apart from empty (0 is nil,
// else the length plus one).
func (p *packer) counts(m map[string]int) {
	if m == nil {
		p.uint(0)
		return
	}
	p.uint(uint64(len(m)) + 1)
	for k, v := range m {
		p.str(k)
		p.int(int64(v))
	}
}

func (p *packer) time(t time.Time) error {
	b, err := t.MarshalBinary()
	if err != nil {
		return err
	}
	p.uint(uint64(len(b)))
	p.b = append(p.b, b...)
	return nil
}

func (u *unpacker) counts() map[string]int {
	// A count takes 2 bytes at least.
	n := u.count(2)
	if n == 0 {
		return nil
	}
	n--
	m := make(map[string]int, n)
	for range n {
		k := u.str()
		m[k] = int(u.int())
	}
	return m
}

func (u *unpacker) time() time.Time {
	n := u.uint()
	if u.bad || n > uint64(len(u.b)-u.at) {
		u.bad = true
		return time.Time{}
	}
	var t time.Time
	if err := t.UnmarshalBinary(u.b[u.at : u.at+int(n)]); err != nil {
		u.bad = true
	}
	u.at += int(n)
	return t
}

// GobEncode packs the summaries.
func (k keptTranscripts) GobEncode() ([]byte, error) {
	p := packer{b: make([]byte, 0, 1+len(k)*256)}
	p.b = append(p.b, packVersion)
	p.uint(uint64(len(k)))
	for name, e := range k {
		p.str(name)
		p.stamp(e.Stamp)
		p.bool(e.Settled)
		s := &e.Value
		p.str(s.Path)
		p.str(s.SessionID)
		p.str(s.CWD)
		p.int(s.Bytes)
		p.int(int64(s.Lines))
		p.int(int64(s.BlankLines))
		p.int(int64(s.Records))
		p.counts(s.Types)
		p.counts(s.Subtypes)
		p.int(int64(s.CompactBoundaries))
		p.int(int64(s.MicrocompactBoundaries))
		p.int(s.Usage.InputTokens)
		p.int(s.Usage.OutputTokens)
		p.int(s.Usage.CacheCreationInputTokens)
		p.int(s.Usage.CacheReadInputTokens)
		p.int(int64(s.Responses))
		if err := p.time(s.First); err != nil {
			return nil, err
		}
		if err := p.time(s.Last); err != nil {
			return nil, err
		}
		p.uint(uint64(len(s.Problems)))
		for _, pr := range s.Problems {
			p.str(pr.File)
			p.int(int64(pr.Line))
			p.str(string(pr.Kind))
			p.str(pr.Reason)
		}
	}
	return p.b, nil
}

// GobDecode unpacks what GobEncode packed.
func (k *keptTranscripts) GobDecode(b []byte) error {
	var u unpacker
	u.start(b)
	// An entry takes 40 bytes at least.
	n := u.count(40)
	out := make(keptTranscripts, n)
	for range n {
		name := u.str()
		var e cachedTranscript
		e.Stamp = u.stamp()
		e.Settled = u.bool()
		s := &e.Value
		s.Path, s.SessionID, s.CWD = u.str(), u.str(), u.str()
		s.Bytes = u.int()
		s.Lines, s.BlankLines, s.Records = int(u.int()), int(u.int()), int(u.int())
		s.Types, s.Subtypes = u.counts(), u.counts()
		s.CompactBoundaries, s.MicrocompactBoundaries = int(u.int()), int(u.int())
		s.Usage.InputTokens, s.Usage.OutputTokens = u.int(), u.int()
		s.Usage.CacheCreationInputTokens, s.Usage.CacheReadInputTokens = u.int(), u.int()
		s.Responses = int(u.int())
		s.First, s.Last = u.time(), u.time()
		// A problem takes 4 bytes at least.
		if np := u.count(4); np > 0 {
			s.Problems = make([]model.Problem, np)
			for i := range s.Problems {
				pr := &s.Problems[i]
				pr.File = u.str()
				pr.Line = int(u.int())
				pr.Kind = model.ProblemKind(u.str())
				pr.Reason = u.str()
			}
		}
		if u.bad {
			break
		}
		out[name] = e
	}
	if err := u.done(); err != nil {
		return err
	}
	// An empty map decodes empty (gob sends a map that is not nil).
	*k = out
	return nil
}

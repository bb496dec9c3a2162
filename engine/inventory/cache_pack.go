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

// packVersion starts the packed forms: another version does not decode
// (the cache is then computed again).
const packVersion = 1

// GobEncode packs the verdicts.
func (k keptVerdicts) GobEncode() ([]byte, error) {
	p := diskcache.Packer{B: make([]byte, 0, 1+len(k)*64)}
	p.B = append(p.B, packVersion)
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
	return p.B, nil
}

// GobDecode unpacks what GobEncode packed.
func (k *keptVerdicts) GobDecode(b []byte) error {
	var u diskcache.Unpacker
	u.Start(b, packVersion)
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
	if err := u.Done(); err != nil {
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
	p := diskcache.Packer{B: make([]byte, 0, 64+len(f.Files)*48)}
	p.B = append(p.B, packVersion)
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
	return p.B, nil
}

// GobDecode unpacks what GobEncode packed.
func (f *keptFolder) GobDecode(b []byte) error {
	var u diskcache.Unpacker
	u.Start(b, packVersion)
	var out keptFolder
	out.ID.Dev, out.ID.Ino, out.ID.Known = u.Uint(), u.Uint(), u.Bool()
	out.ModTime = u.Int()
	full := u.Str()
	if u.OK() {
		if err := out.Full.UnmarshalBinary([]byte(full)); err != nil {
			return diskcache.ErrPacked
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
	if err := u.Done(); err != nil {
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
func packCounts(p *diskcache.Packer, m map[string]int) {
	if m == nil {
		p.Uint(0)
		return
	}
	p.Uint(uint64(len(m)) + 1)
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
	n := u.Count(2)
	if n == 0 {
		return nil
	}
	n--
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

// GobEncode packs the summaries.
func (k keptTranscripts) GobEncode() ([]byte, error) {
	p := diskcache.Packer{B: make([]byte, 0, 1+len(k)*256)}
	p.B = append(p.B, packVersion)
	p.Uint(uint64(len(k)))
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
		packCounts(&p, s.Types)
		packCounts(&p, s.Subtypes)
		p.Int(int64(s.CompactBoundaries))
		p.Int(int64(s.MicrocompactBoundaries))
		p.Int(s.Usage.InputTokens)
		p.Int(s.Usage.OutputTokens)
		p.Int(s.Usage.CacheCreationInputTokens)
		p.Int(s.Usage.CacheReadInputTokens)
		p.Int(int64(s.Responses))
		if err := packTime(&p, s.First); err != nil {
			return nil, err
		}
		if err := packTime(&p, s.Last); err != nil {
			return nil, err
		}
		p.Uint(uint64(len(s.Problems)))
		for _, pr := range s.Problems {
			p.Str(pr.File)
			p.Int(int64(pr.Line))
			p.Str(string(pr.Kind))
			p.Str(pr.Reason)
		}
	}
	return p.B, nil
}

// GobDecode unpacks what GobEncode packed.
func (k *keptTranscripts) GobDecode(b []byte) error {
	var u diskcache.Unpacker
	u.Start(b, packVersion)
	// An entry takes 40 bytes at least.
	n := u.Count(40)
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
		s.Types, s.Subtypes = unpackCounts(&u), unpackCounts(&u)
		s.CompactBoundaries, s.MicrocompactBoundaries = int(u.Int()), int(u.Int())
		s.Usage.InputTokens, s.Usage.OutputTokens = u.Int(), u.Int()
		s.Usage.CacheCreationInputTokens, s.Usage.CacheReadInputTokens = u.Int(), u.Int()
		s.Responses = int(u.Int())
		s.First, s.Last = unpackTime(&u), unpackTime(&u)
		// A problem takes 4 bytes at least.
		if np := u.Count(4); np > 0 {
			s.Problems = make([]model.Problem, np)
			for i := range s.Problems {
				pr := &s.Problems[i]
				pr.File = u.Str()
				pr.Line = int(u.Int())
				pr.Kind = model.ProblemKind(u.Str())
				pr.Reason = u.Str()
			}
		}
		if !u.OK() {
			break
		}
		out[name] = e
	}
	if err := u.Done(); err != nil {
		return err
	}
	// An empty map decodes empty (gob sends a map that is not nil).
	*k = out
	return nil
}

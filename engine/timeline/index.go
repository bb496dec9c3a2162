package timeline

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"io/fs"
	"slices"

	"github.com/memscope/memscope/engine/window"
	"github.com/memscope/memscope/model"
)

// Index is a transcript's kept records (model.Kept) in compact form: per
// record its uuid (16 bytes when it is a canonical lowercase uuid), its
// parent as a record number, its line, offset and size, its type and a
// few flags, and what it adds to the context. The few records replay
// reads whole (compaction boundaries and compact summaries) are kept
// whole; of a last-prompt or legacy summary, the leaf uuid. It holds
// about 90 bytes a record
// where a model.Transcript holds about 1 KB, so a replay's memory does
// not grow with the transcript's content; what is written out per turn
// (its message id, timestamp and usage) is read again by offset
// (Reread).
type Index struct {
	Path    string
	Summary model.TranscriptSummary
	// Size is the transcript's size when it was indexed.
	Size int64

	ents chunked[entry]
	// odd are the uuids that are not canonical, by number; oddAt finds the
	// first record with each.
	odd   []string
	oddAt map[string]int32
	// order lists the records with a canonical uuid, by uuid then record
	// number (the first of duplicates first).
	order []int32
	// pending holds each record's canonical parent uuid, pendingOdd the
	// others, until Finish resolves them.
	pending    chunked[[16]byte]
	pendingOdd map[int32]string
	full       map[int32]*model.Record
	// rare are the records kept whole (full) and the last-prompts and
	// legacy summaries, whose leaf uuid leafOf keeps, in file order.
	rare   []int32
	leafOf map[int32]string
	// ctx is each record's own context (RecordContext) until contextOf
	// replaces it with the context at the record (done marks those).
	ctx  packedContexts
	done []uint64
	// cands are the records that may end a turn (assistant with usage),
	// in file order.
	cands  chunked[turnCand]
	sys    systemIndex
	agent  agentScan
	limits limitsScan
}

// entry is one kept record.
type entry struct {
	id     [16]byte
	parent int32
	line   int32
	offset int64
	size   int32
	kind   uint8
	flags  uint8
}

// uidRef is a parent uuid as read: canonical bytes, or odd text.
type uidRef struct {
	id  [16]byte
	odd string
	set bool
}

// turnCand is an assistant record with usage: the record and the hash of
// its TurnKey.
type turnCand struct {
	rec   int32
	keyed bool
	key   [16]byte
}

// Parent links that name no record.
const (
	noParent      = -1 // parentUuid is null or absent
	missingParent = -2 // parentUuid names a record not in the file
)

// Entry flags.
const (
	fSidechain = 1 << iota
	fDup       // a later record with a uuid already seen: not indexed
	fOdd       // the uuid is not canonical: id[0:4] numbers it in odd
	fNoUUID
	fUsage // an assistant record whose message has usage
	fCompact
	fMicro
	fSummary // IsCompactSummary
)

// Record kinds (model.RecordType, the ones replay tells apart).
const (
	kOther uint8 = iota
	kUser
	kAssistant
	kSystem
	kAttachment
	kLastPrompt
	kSummary
)

func kindOf(t model.RecordType) uint8 {
	switch t {
	case model.RecordUser:
		return kUser
	case model.RecordAssistant:
		return kAssistant
	case model.RecordSystem:
		return kSystem
	case model.RecordAttachment:
		return kAttachment
	case model.RecordLastPrompt:
		return kLastPrompt
	case model.RecordSummary:
		return kSummary
	}
	return kOther
}

// NewIndex returns an empty index to fill with Add and close with Finish.
func NewIndex(path string) *Index {
	return &Index{Path: path, oddAt: map[string]int32{}, pendingOdd: map[int32]string{}, full: map[int32]*model.Record{}, leafOf: map[int32]string{},
		ctx: packedContexts{big: map[int32]Context{}}}
}

// IndexTranscript indexes the records of a transcript already read.
func IndexTranscript(t *model.Transcript) *Index {
	ix := NewIndex(t.Path)
	ix.Summary = t.Summary
	for _, r := range t.Records {
		ix.Add(r)
	}
	ix.Finish()
	return ix
}

// ReadIndex indexes the transcript at path in fsys in one pass, holding
// one record at a time.
func ReadIndex(fsys fs.FS, path string) (*Index, error) { return ReadIndexWith(fsys, path, nil) }

// ReadIndexWith is ReadIndex that also hands each kept record to each
// (when not nil) with its number in the index, as it is read.
func ReadIndexWith(fsys fs.FS, path string, each func(i int32, r *model.Record)) (*Index, error) {
	f, err := model.OpenRegular(fsys, path)
	if err != nil {
		return nil, fmt.Errorf("open transcript %s: %w", path, err)
	}
	defer f.Close()
	ix := NewIndex(path)
	ix.Summary, err = model.ScanTranscript(f, path, model.ScanOptions{Content: true}, func(r *model.Record) error {
		if model.Kept(r) {
			if each != nil {
				each(int32(ix.Len()), r)
			}
			ix.Add(r)
		}
		return nil
	})
	ix.Size = ix.Summary.Bytes
	ix.Finish()
	return ix, err
}

// canonical packs a lowercase 8-4-4-4-12 hex uuid into 16 bytes.
func canonical(s string) ([16]byte, bool) {
	var id [16]byte
	if len(s) != 36 || s[8] != '-' || s[13] != '-' || s[18] != '-' || s[23] != '-' {
		return id, false
	}
	j := 0
	for i := 0; i < 36; i += 2 {
		if s[i] == '-' {
			i--
			continue
		}
		hi, ok1 := nibble(s[i])
		lo, ok2 := nibble(s[i+1])
		if !ok1 || !ok2 {
			return id, false
		}
		id[j] = hi<<4 | lo
		j++
	}
	return id, j == 16
}

func nibble(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	}
	return 0, false
}

func refOf(s string) uidRef {
	if s == "" {
		return uidRef{}
	}
	if id, ok := canonical(s); ok {
		return uidRef{id: id, set: true}
	}
	return uidRef{odd: s, set: true}
}

// Add appends a kept record (model.Kept) in file order.
func (ix *Index) Add(r *model.Record) {
	i := int32(ix.ents.n)
	e := entry{parent: noParent, line: int32(r.Line), offset: r.Offset, size: int32(r.Size), kind: kindOf(r.Type)}
	if r.IsSidechain {
		e.flags |= fSidechain
	}
	if r.IsCompactSummary {
		e.flags |= fSummary
	}
	if r.IsCompactBoundary() {
		e.flags |= fCompact
	}
	if r.IsMicrocompactBoundary() {
		e.flags |= fMicro
	}
	if r.Type == model.RecordAssistant && r.Message != nil && r.Message.Usage != nil {
		e.flags |= fUsage
		c := turnCand{rec: i}
		if key, ok := TurnKey(r); ok {
			c.keyed, c.key = true, turnKeyHash(key)
		}
		*ix.cands.add() = c
	}
	switch {
	case r.UUID == "":
		e.flags |= fNoUUID
	default:
		if id, ok := canonical(r.UUID); ok {
			e.id = id
		} else {
			e.flags |= fOdd
			n := uint32(len(ix.odd))
			ix.odd = append(ix.odd, r.UUID)
			e.id[0], e.id[1], e.id[2], e.id[3] = byte(n), byte(n>>8), byte(n>>16), byte(n>>24)
			if _, dup := ix.oddAt[r.UUID]; dup {
				e.flags |= fDup
			} else {
				ix.oddAt[r.UUID] = i
			}
		}
	}
	switch {
	case e.flags&(fCompact|fMicro|fSummary) != 0:
		ix.full[i] = r
		ix.rare = append(ix.rare, i)
	case e.kind == kLastPrompt || e.kind == kSummary:
		// One in a few dozen lines, with the prompt's text: only the
		// leaf is kept.
		ix.leafOf[i] = r.LeafUUID
		ix.rare = append(ix.rare, i)
	}
	*ix.ents.add() = e
	p := refOf(r.ParentUUID)
	*ix.pending.add() = p.id
	switch {
	case p.odd != "":
		ix.pendingOdd[i] = p.odd
	case p.set:
		ix.ent(i).parent = missingParent // resolved by Finish
	}
	ix.ctx.add(RecordContext(r))
	ix.sys.add(r)
	ix.agent.add(r)
	ix.limits.add(r)
}

// Finish sorts the uuids and resolves the parent links; call it once,
// after the last Add.
func (ix *Index) Finish() {
	n := 0
	for i := range int32(ix.Len()) {
		if ix.ent(i).flags&(fOdd|fNoUUID) == 0 {
			n++
		}
	}
	ix.order = make([]int32, 0, n)
	for i := range int32(ix.Len()) {
		if ix.ent(i).flags&(fOdd|fNoUUID) == 0 {
			ix.order = append(ix.order, i)
		}
	}
	slices.SortFunc(ix.order, func(a, b int32) int {
		if c := bytes.Compare(ix.ent(a).id[:], ix.ent(b).id[:]); c != 0 {
			return c
		}
		return int(a - b)
	})
	for k := 1; k < len(ix.order); k++ {
		if ix.ent(ix.order[k]).id == ix.ent(ix.order[k-1]).id {
			ix.ent(ix.order[k]).flags |= fDup
		}
	}
	for i := range int32(ix.Len()) {
		if e := ix.ent(i); e.parent == missingParent {
			e.parent = ix.find(uidRef{id: *ix.pending.at(i), set: true})
		}
	}
	for i, odd := range ix.pendingOdd {
		ix.ent(i).parent = ix.find(uidRef{odd: odd, set: true})
	}
	ix.pending, ix.pendingOdd = chunked[[16]byte]{}, nil
	ix.done = make([]uint64, (ix.Len()+63)/64)
}

// find is the first record with uuid p, or missingParent.
func (ix *Index) find(p uidRef) int32 {
	if !p.set {
		return missingParent
	}
	if p.odd != "" {
		if i, ok := ix.oddAt[p.odd]; ok {
			return i
		}
		return missingParent
	}
	k, ok := slices.BinarySearchFunc(ix.order, p.id, func(i int32, id [16]byte) int {
		return bytes.Compare(ix.ent(i).id[:], id[:])
	})
	if !ok {
		return missingParent
	}
	return ix.order[k]
}

// Lookup is the record with the given uuid (the first, when several
// lines have it), or -1.
func (ix *Index) Lookup(uuid string) int32 {
	if uuid == "" {
		return -1
	}
	if i := ix.find(refOf(uuid)); i >= 0 {
		return i
	}
	return -1
}

// Len is the number of kept records.
func (ix *Index) Len() int { return ix.ents.n }

func (ix *Index) ent(i int32) *entry { return ix.ents.at(i) }

// chunked is a growing array in chunks of chunkLen: unlike a slice it
// never copies what it holds nor keeps spare room beyond one chunk, so an
// index of a million records takes what its records take.
type chunked[T any] struct {
	c [][]T
	n int
}

const chunkLen = 1 << 14

// add appends a zero element and returns it.
func (c *chunked[T]) add() *T {
	if c.n%chunkLen == 0 {
		c.c = append(c.c, make([]T, chunkLen))
	}
	c.n++
	return &c.c[(c.n-1)/chunkLen][(c.n-1)%chunkLen]
}

func (c *chunked[T]) at(i int32) *T { return &c.c[i/chunkLen][i%chunkLen] }

// UUID is record i's uuid ("" when it has none).
func (ix *Index) UUID(i int32) string {
	e := ix.ent(i)
	switch {
	case e.flags&fNoUUID != 0:
		return ""
	case e.flags&fOdd != 0:
		return ix.odd[uint32(e.id[0])|uint32(e.id[1])<<8|uint32(e.id[2])<<16|uint32(e.id[3])<<24]
	}
	var b [36]byte
	hex.Encode(b[0:8], e.id[0:4])
	b[8] = '-'
	hex.Encode(b[9:13], e.id[4:6])
	b[13] = '-'
	hex.Encode(b[14:18], e.id[6:8])
	b[18] = '-'
	hex.Encode(b[19:23], e.id[8:10])
	b[23] = '-'
	hex.Encode(b[24:36], e.id[10:16])
	return string(b[:])
}

// Line is record i's line number.
func (ix *Index) Line(i int32) int { return int(ix.ent(i).line) }

// Full is record i as read, for the records kept whole (boundaries and
// compact summaries); nil for others.
func (ix *Index) Full(i int32) *model.Record { return ix.full[i] }

func (ix *Index) has(i int32, f uint8) bool { return ix.ent(i).flags&f != 0 }

// indexed reports whether record i is the one its uuid finds (it has a
// uuid and is not a later duplicate).
func (ix *Index) indexed(i int32) bool { return ix.ent(i).flags&(fNoUUID|fDup) == 0 }

// Reread is record i read again through rr (the records kept whole
// without reading).
func (ix *Index) Reread(rr *model.Rereader, i int32) (*model.Record, error) {
	if r := ix.full[i]; r != nil {
		return r, nil
	}
	e := ix.ent(i)
	return rr.Read(int(e.line), e.offset, int(e.size), ix.UUID(i))
}

// packedContexts are a Context per record in 20 bytes: five uint32, or
// for the rare record whose figures do not fit, a mark and the Context
// in big.
type packedContexts struct {
	v   chunked[[5]uint32]
	big map[int32]Context
}

// spilled marks a record whose Context is in big.
const spilled = 1<<32 - 1

func (p *packedContexts) add(c Context) {
	p.v.add()
	p.set(int32(p.v.n-1), c)
}

func (p *packedContexts) set(i int32, c Context) {
	f := [5]window.Tokens{c.System, c.Instructions, c.Memory, c.Conversation, c.ToolResults}
	for _, x := range f {
		if x < 0 || int64(x) >= spilled {
			*p.v.at(i) = [5]uint32{spilled}
			p.big[i] = c
			return
		}
	}
	delete(p.big, i)
	*p.v.at(i) = [5]uint32{uint32(f[0]), uint32(f[1]), uint32(f[2]), uint32(f[3]), uint32(f[4])}
}

func (p *packedContexts) get(i int32) Context {
	v := *p.v.at(i)
	if v[0] == spilled {
		return p.big[i]
	}
	return Context{System: window.Tokens(v[0]), Instructions: window.Tokens(v[1]), Memory: window.Tokens(v[2]),
		Conversation: window.Tokens(v[3]), ToolResults: window.Tokens(v[4])}
}

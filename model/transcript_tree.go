package model

import (
	"fmt"
	"io"
	"io/fs"
)

// Transcript is a transcript read into memory as a message tree: every
// record that has a uuid (the chain) or names a leaf (last-prompt, legacy
// summary), in file order, indexed by uuid and parent. Other records
// (api-request-blob, cost-state, …) are only counted in Summary, which
// keeps memory proportional to the number of messages, not to the bytes.
type Transcript struct {
	Path    string
	Summary TranscriptSummary
	// Records are the kept records in file order.
	Records []*Record
	// DuplicateUUIDs lists uuids that appeared on more than one line; the
	// first occurrence is the one indexed.
	DuplicateUUIDs []string

	byUUID   map[string]*Record
	children map[string][]*Record
}

// ReadTranscript reads the transcript at path in fsys with message content
// decoded into blocks (sizes and tool ids, no text).
func ReadTranscript(fsys fs.FS, path string) (*Transcript, error) {
	return ReadTranscriptWith(fsys, path, ScanOptions{Content: true})
}

// ReadTranscriptWith is ReadTranscript with explicit scan options, e.g.
// KeepText for a summarizer or KeepRaw for rewriting.
func ReadTranscriptWith(fsys fs.FS, path string, opts ScanOptions) (*Transcript, error) {
	f, err := OpenRegular(fsys, path)
	if err != nil {
		return nil, fmt.Errorf("open transcript %s: %w", path, err)
	}
	defer f.Close()
	return ReadTranscriptFrom(f, path, opts)
}

// ReadTranscriptFrom is ReadTranscriptWith for a transcript the caller
// opened (and may have begun reading: r gives its bytes from the start).
func ReadTranscriptFrom(r io.Reader, path string, opts ScanOptions) (*Transcript, error) {
	t := NewTranscript(path)
	if n := opts.SizeHint / bytesPerKept; n > 0 {
		n = min(n, maxSizedRecords)
		t.byUUID, t.children = make(map[string]*Record, n), make(map[string][]*Record, n)
	}
	var err error
	t.Summary, err = scanTranscript(r, path, opts, func(r *Record) (bool, error) {
		return t.Add(r), nil
	})
	return t, err
}

// bytesPerKept is about how many bytes of a transcript hold one record
// of its tree (a generated 1 GB home: 7 KB; a real session's lines are
// shorter), for ScanOptions.SizeHint; maxSizedRecords bounds the index
// made ahead.
const (
	bytesPerKept    = 4 << 10
	maxSizedRecords = 1 << 16
)

// NewTranscript returns an empty transcript to fill with Add, for callers
// that build one from records (tests, the compaction pipeline's output).
func NewTranscript(path string) *Transcript {
	return &Transcript{Path: path, byUUID: map[string]*Record{}, children: map[string][]*Record{}}
}

// Add appends r if it belongs in the tree (it has a uuid or a leafUuid, or
// is a compaction boundary, listed even without a uuid) and indexes it. It
// reports whether r was kept.
func (t *Transcript) Add(r *Record) bool {
	if !Kept(r) {
		return false
	}
	t.Records = append(t.Records, r)
	if r.UUID == "" {
		return true
	}
	if _, dup := t.byUUID[r.UUID]; dup {
		t.DuplicateUUIDs = append(t.DuplicateUUIDs, r.UUID)
		return true
	}
	t.byUUID[r.UUID] = r
	if r.ParentUUID != "" {
		t.children[r.ParentUUID] = append(t.children[r.ParentUUID], r)
	}
	return true
}

// Kept reports whether r belongs in the message tree: it has a uuid or
// a leafUuid, or is a compaction boundary (listed even without a uuid).
func Kept(r *Record) bool {
	return r.UUID != "" || r.LeafUUID != "" || r.IsCompactBoundary() || r.IsMicrocompactBoundary()
}

// Get returns the record with the given uuid, or nil.
func (t *Transcript) Get(uuid string) *Record { return t.byUUID[uuid] }

// Children returns the records whose parentUuid is uuid, in file order.
func (t *Transcript) Children(uuid string) []*Record { return t.children[uuid] }

// Boundaries returns the compact and microcompact boundary records in file
// order.
func (t *Transcript) Boundaries() []*Record {
	var out []*Record
	for _, r := range t.Records {
		if r.IsCompactBoundary() || r.IsMicrocompactBoundary() {
			out = append(out, r)
		}
	}
	return out
}

// LastPrompt returns the newest last-prompt record, or nil.
func (t *Transcript) LastPrompt() *Record {
	for i := len(t.Records) - 1; i >= 0; i-- {
		if t.Records[i].Type == RecordLastPrompt {
			return t.Records[i]
		}
	}
	return nil
}

// LegacySummaries returns the legacy summary records ({summary, leafUuid})
// older clients wrote.
func (t *Transcript) LegacySummaries() []*Record {
	var out []*Record
	for _, r := range t.Records {
		if r.Type == RecordSummary {
			out = append(out, r)
		}
	}
	return out
}

// NewestChainRecord returns the last non-sidechain record with a uuid, or nil.
func (t *Transcript) NewestChainRecord() *Record {
	for i := len(t.Records) - 1; i >= 0; i-- {
		if r := t.Records[i]; r.UUID != "" && !r.IsSidechain {
			return r
		}
	}
	return nil
}

// Branch is a rewind point: a message with more than one non-sidechain
// child. Children are in file order; the last one is the branch the
// session went on with.
type Branch struct {
	Parent   *Record
	Children []*Record
}

// Branches lists the rewind points in file order.
func (t *Transcript) Branches() []Branch {
	var out []Branch
	for _, r := range t.Records {
		if r.UUID == "" || t.byUUID[r.UUID] != r {
			continue
		}
		var main []*Record
		for _, c := range t.children[r.UUID] {
			if !c.IsSidechain {
				main = append(main, c)
			}
		}
		if len(main) > 1 {
			out = append(out, Branch{Parent: r, Children: main})
		}
	}
	return out
}

// Sidechain is one subagent conversation inside a transcript: a sidechain
// record whose parent is not itself a sidechain record, and everything
// under it.
type Sidechain struct {
	Root    *Record
	AgentID string
	// Records counts the records of the sidechain, the root included.
	Records int
}

// Sidechains lists the sidechains in file order of their roots.
func (t *Transcript) Sidechains() []Sidechain {
	var out []Sidechain
	for _, r := range t.Records {
		if !r.IsSidechain || r.UUID == "" || t.byUUID[r.UUID] != r {
			continue
		}
		if p := t.byUUID[r.ParentUUID]; p != nil && p.IsSidechain {
			continue
		}
		out = append(out, Sidechain{Root: r, AgentID: r.AgentID, Records: t.countSubtree(r)})
	}
	return out
}

// countSubtree counts r and its sidechain descendants; the visited set
// stops cycles written by a broken or hostile file.
func (t *Transcript) countSubtree(root *Record) int {
	seen := map[*Record]bool{root: true}
	stack := []*Record{root}
	n := 0
	for len(stack) > 0 {
		r := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		n++
		for _, c := range t.children[r.UUID] {
			if c.IsSidechain && !seen[c] {
				seen[c] = true
				stack = append(stack, c)
			}
		}
	}
	return n
}

// ChainEnd says why a walk up the parentUuid links stopped.
type ChainEnd string

// The ways a chain walk ends.
const (
	// ChainRoot: a record with no parent (the first message or a compact
	// boundary).
	ChainRoot ChainEnd = "root"
	// ChainMissingParent: the parentUuid names a record not in the file.
	ChainMissingParent ChainEnd = "missing-parent"
	// ChainCycle: the links loop back on themselves.
	ChainCycle ChainEnd = "cycle"
	// ChainNoLeaf: the leaf uuid itself is not in the file.
	ChainNoLeaf ChainEnd = "no-leaf"
)

// Chain walks parentUuid links from leaf up to a record without a parent
// and returns the records oldest first, with why the walk stopped. A
// missing parent or a cycle ends the walk with what was found so far.
func (t *Transcript) Chain(leaf string) ([]*Record, ChainEnd) {
	r := t.byUUID[leaf]
	if r == nil {
		return nil, ChainNoLeaf
	}
	return WalkUp(r, func(r *Record) (*Record, bool) {
		return t.byUUID[r.ParentUUID], r.ParentUUID != ""
	})
}

// WalkUp follows links from start and returns the records met, oldest
// first. parent gives the record r links to and whether r links anywhere:
// (nil, false) ends the walk at a root, (nil, true) at a missing record.
// A link back to a record already met ends it as a cycle.
func WalkUp(start *Record, parent func(r *Record) (*Record, bool)) ([]*Record, ChainEnd) {
	seen := map[*Record]bool{}
	var rev []*Record
	end := ChainRoot
	for r := start; r != nil; {
		if seen[r] {
			end = ChainCycle
			break
		}
		seen[r] = true
		rev = append(rev, r)
		p, linked := parent(r)
		if !linked {
			break
		}
		if p == nil {
			end = ChainMissingParent
		}
		r = p
	}
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	return rev, end
}

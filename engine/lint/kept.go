package lint

import (
	"crypto/sha256"
	"encoding/binary"
	"math"
	"slices"

	"github.com/memscope/memscope/engine/diskcache"
	secscan "github.com/memscope/memscope/engine/scan"
)

// keptKind is the cache file of what Memos computed, one per home
// (bump its version when keptFolder changes).
const keptKind = "lint.1"

// keptFolder is what a Memo keeps across runs of one memory folder: the
// near-duplicate pairs of the documents whose digest is Sum, and each
// file's security scan by the digest of its content. lint's inputs are
// the texts the store read, so they are the key (a digest of the bytes,
// not the files' stamps): an entry answers only for the same bytes.
type keptFolder struct {
	Threshold float64
	Sum       [32]byte
	// Pairs are the answer for Sum (nil: none found).
	Pairs []DuplicatePair
	// HasPairs says Sum and Pairs were computed.
	HasPairs bool
	Scans    map[string]keptScan
}

// keptScan is the scan of one file's content whose digest is Sum.
type keptScan struct {
	Sum      [32]byte
	Findings []secscan.Finding
}

// NewMemoOn is NewMemo for the memory folder memDir of the home at
// homeDir, keeping its work across runs in the cache s (nil: none): a
// run whose documents are those the cache saw takes their
// near-duplicate pairs and scans from it, and a run that computed
// anything saves it (Memo.Run).
func NewMemoOn(s *diskcache.Store, homeDir, memDir string) *Memo {
	m := NewMemo()
	if s != nil {
		m.disk, m.diskName, m.folder = s, diskcache.Name(keptKind, homeDir), memDir
	}
	return m
}

// loadKept reads the folder's entry once (m.mu held).
func (m *Memo) loadKept() {
	if m.disk == nil || m.loaded {
		return
	}
	m.loaded = true
	all, _ := diskcache.Load[map[string]keptFolder](m.disk, keptKind, m.diskName)
	m.kept = all[m.folder]
	if m.kept.Scans == nil {
		m.kept.Scans = map[string]keptScan{}
	}
}

// findDupes is m.Dupes().Find(docs, threshold), answered from the cache
// when the documents are the ones the cache saw (the index, which
// compares what it is given with what it knows, is then left as it is:
// the prune plan's first search on it computes everything).
func (m *Memo) findDupes(docs []DupeDoc, threshold float64) []DuplicatePair {
	if m == nil || m.disk == nil {
		return m.Dupes().Find(docs, threshold)
	}
	if threshold <= 0 {
		threshold = DefaultDuplicateJaccard
	}
	sum := docsSum(docs, threshold)
	m.mu.Lock()
	m.loadKept()
	k := m.kept
	m.mu.Unlock()
	if k.HasPairs && k.Sum == sum && k.Threshold == threshold {
		return slices.Clone(k.Pairs)
	}
	pairs := m.dupes.Find(docs, threshold)
	m.mu.Lock()
	if !m.kept.HasPairs || m.kept.Sum != sum || m.kept.Threshold != threshold {
		m.kept.HasPairs, m.kept.Sum, m.kept.Threshold, m.kept.Pairs = true, sum, threshold, slices.Clone(pairs)
		m.dirty = true
	}
	m.mu.Unlock()
	return pairs
}

// docsSum is the digest of the threshold and each document's path and
// text, in order (lengths first: no two lists share one).
func docsSum(docs []DupeDoc, threshold float64) [32]byte {
	h := sha256.New()
	var n [8]byte
	binary.LittleEndian.PutUint64(n[:], math.Float64bits(threshold))
	h.Write(n[:])
	for _, d := range docs {
		for _, s := range [2]string{d.Path, d.Text} {
			binary.LittleEndian.PutUint64(n[:], uint64(len(s)))
			h.Write(n[:])
			h.Write([]byte(s))
		}
	}
	var out [32]byte
	h.Sum(out[:0])
	return out
}

// keepScans notes the scans of this run, files (their digests sums)
// and their findings (m.mu held): the cache's entries become these.
func (m *Memo) keepScans(files []scanFile, sums [][32]byte, found [][]secscan.Finding) {
	next := make(map[string]keptScan, len(files))
	for i, f := range files {
		k, ok := m.kept.Scans[f.path]
		if !ok || k.Sum != sums[i] {
			k = keptScan{Sum: sums[i], Findings: found[i]}
			m.dirty = true
		}
		next[f.path] = k
	}
	if len(next) != len(m.kept.Scans) {
		m.dirty = true
	}
	m.kept.Scans = next
}

// saveKept writes the folder's entry when this run computed anything
// the cache did not hold (through the cache's writer; the other
// folders' entries are kept as the file holds them now).
func (m *Memo) saveKept() {
	if m == nil || m.disk == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.dirty {
		return
	}
	m.dirty = false
	all, _ := diskcache.Load[map[string]keptFolder](m.disk, keptKind, m.diskName)
	if all == nil {
		all = map[string]keptFolder{}
	}
	all[m.folder] = m.kept
	_ = diskcache.Save(m.disk, keptKind, m.diskName, all)
}

package lint

import (
	"crypto/sha256"
	"slices"
	"sync"

	"github.com/memscope/memscope/engine/diskcache"
	secscan "github.com/memscope/memscope/engine/scan"
)

// Memo remembers per-file work of earlier runs on one memory folder, by
// each file's path and content, so a folder where one file changed costs
// that file: its near-duplicate shingles and pairs (Dupes) and its
// security scan. Answers are the same as without it. A Memo follows one
// folder (the TUI keeps one per open project); it is safe for concurrent
// use.
type Memo struct {
	mu    sync.Mutex
	scans map[string]scanMemo
	dupes DupeIndex
	// disk, when set, keeps the folder's work across runs under
	// diskName's entry folder (NewMemoOn); kept is that entry, loaded
	// once, and dirty says this process computed what it lacks.
	disk          *diskcache.Store
	diskName      string
	folder        string
	loaded, dirty bool
	kept          keptFolder
	// scanned counts the files scanned (for tests).
	scanned int
}

// scanMemo is the scan of one version of one file.
type scanMemo struct {
	text     string
	findings []secscan.Finding
}

// NewMemo returns an empty memo.
func NewMemo() *Memo { return &Memo{} }

// Dupes is the memo's near-duplicate index, for the prune plan's search
// (store.PruneOptions), which compares the same files lint does.
func (m *Memo) Dupes() *DupeIndex {
	if m == nil {
		return nil
	}
	return &m.dupes
}

// scanFiles scans each (path, content) with the security scan, reusing
// the findings for content scanned in the last run. Entries for files
// not given are dropped.
func (m *Memo) scanFiles(files []scanFile) [][]secscan.Finding {
	out := make([][]secscan.Finding, len(files))
	if m == nil {
		for i, f := range files {
			out[i] = secscan.Scan(f.path, string(f.raw))
		}
		return out
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	var sums [][32]byte // the contents' digests, with a cache on disk
	if m.loadKept(); m.disk != nil {
		sums = make([][32]byte, len(files))
		for i, f := range files {
			sums[i] = sha256.Sum256(f.raw)
		}
	}
	next := make(map[string]scanMemo, len(files))
	for i, f := range files {
		e, ok := m.scans[f.path]
		if !ok || e.text != string(f.raw) {
			if k, hit := m.kept.Scans[f.path]; hit && sums != nil && k.Sum == sums[i] {
				e = scanMemo{text: string(f.raw), findings: k.Findings}
			} else {
				e = scanMemo{text: string(f.raw), findings: secscan.Scan(f.path, string(f.raw))}
				m.scanned++
			}
		}
		out[i] = e.findings
		next[f.path] = e
	}
	m.scans = next
	if sums != nil {
		m.keepScans(files, sums, out)
	}
	return out
}

// scanFile is one file the security scan reads.
type scanFile struct {
	path string
	raw  []byte
}

// DupeIndex finds near-duplicates as FindDuplicates does and remembers
// what it computed: each document's words and shingles by path and text,
// where each shingle occurs, and the pairs found. The next Find costs
// what changed: the shingling of new or changed documents and their
// pairs; pairs of unchanged documents are kept. When a change moves a
// shingle across the limit of documents it may pair up (which decides
// pairs of unchanged documents too), or most documents changed, it
// computes everything again. The zero value is ready; safe for
// concurrent use.
type DupeIndex struct {
	mu        sync.Mutex
	threshold float64
	ok        bool
	docs      map[string]*dupeDoc
	// postings are the documents (ids) each shingle occurs in.
	postings map[string][]int32
	// pairs are the pairs found, by their ids (lower first), with their
	// similarity.
	pairs  map[[2]int32]float64
	nextID int32
	// updates and rebuilds count the two ways Find went, compared the
	// pairs whose shingle sets a rebuild compared (for tests).
	updates, rebuilds, compared int
}

// dupeDoc is one document's analysis.
type dupeDoc struct {
	id    int32
	text  string
	words []dupeWord
	list  []string
	set   map[string]bool
}

// Find is FindDuplicates(docs, threshold), from what the index knows.
// Documents are told apart by path; a docs list with a path twice is
// computed without the index.
func (x *DupeIndex) Find(docs []DupeDoc, threshold float64) []DuplicatePair {
	if threshold <= 0 {
		threshold = DefaultDuplicateJaccard
	}
	if x == nil {
		return FindDuplicates(docs, threshold)
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	seen := make(map[string]bool, len(docs))
	var changed []int // indexes into docs
	for i, d := range docs {
		if seen[d.Path] {
			x.ok = false
			return FindDuplicates(docs, threshold)
		}
		seen[d.Path] = true
		if e, ok := x.docs[d.Path]; !ok || e.text != d.Text {
			changed = append(changed, i)
		}
	}
	removed := 0
	for p := range x.docs {
		if !seen[p] {
			removed++
		}
	}
	if !x.ok || x.threshold != threshold || 2*(len(changed)+removed) > len(docs) || !x.update(docs, changed, seen) {
		x.rebuild(docs, threshold)
		x.rebuilds++
	} else {
		x.updates++
	}
	return x.answer(docs)
}

// update applies the changed and removed documents to the index; false
// when a shingle crossed the posting limit (the caller rebuilds).
func (x *DupeIndex) update(docs []DupeDoc, changed []int, keep map[string]bool) bool {
	before := map[string]int{} // posting sizes before, of the shingles touched
	drop := func(d *dupeDoc) {
		for sh := range d.set {
			list := x.postings[sh]
			if _, ok := before[sh]; !ok {
				before[sh] = len(list)
			}
			if i := slices.Index(list, d.id); i >= 0 {
				list = slices.Delete(list, i, i+1)
			}
			if len(list) == 0 {
				delete(x.postings, sh)
			} else {
				x.postings[sh] = list
			}
		}
		for p := range x.pairs {
			if p[0] == d.id || p[1] == d.id {
				delete(x.pairs, p)
			}
		}
	}
	for p, d := range x.docs {
		if !keep[p] {
			drop(d)
			delete(x.docs, p)
		}
	}
	fresh := make([]*dupeDoc, 0, len(changed))
	for _, i := range changed {
		if old := x.docs[docs[i].Path]; old != nil {
			drop(old)
		}
		d := x.analyse(docs[i].Text)
		x.docs[docs[i].Path] = d
		for sh := range d.set {
			if _, ok := before[sh]; !ok {
				before[sh] = len(x.postings[sh])
			}
			x.postings[sh] = append(x.postings[sh], d.id)
		}
		fresh = append(fresh, d)
	}
	for sh, n := range before {
		if (n > maxShinglePosting) != (len(x.postings[sh]) > maxShinglePosting) {
			return false
		}
	}
	byID := make(map[int32]*dupeDoc, len(x.docs))
	for _, d := range x.docs {
		byID[d.id] = d
	}
	for _, d := range fresh {
		cands := map[int32]bool{}
		for sh := range d.set {
			if list := x.postings[sh]; len(list) <= maxShinglePosting {
				for _, o := range list {
					if o != d.id {
						cands[o] = true
					}
				}
			}
		}
		for o := range cands {
			if sim := Jaccard(d.set, byID[o].set); sim >= x.threshold {
				x.pairs[pairKey(d.id, o)] = sim
			}
		}
	}
	return true
}

func pairKey(a, b int32) [2]int32 {
	if a > b {
		a, b = b, a
	}
	return [2]int32{a, b}
}

// analyse shingles one text.
func (x *DupeIndex) analyse(text string) *dupeDoc {
	words, base := dupeWordsIn(text)
	d := &dupeDoc{id: x.nextID, text: text, words: words}
	x.nextID++
	d.list, d.set = shinglesIn(words, base)
	return d
}

// postingChunk is how many shingles' lists rebuild starts in one array.
const postingChunk = 512

// rebuild computes the index from docs alone, keeping the analyses of
// documents whose text it knows.
func (x *DupeIndex) rebuild(docs []DupeDoc, threshold float64) {
	old := x.docs
	x.docs = make(map[string]*dupeDoc, len(docs))
	x.pairs = map[[2]int32]float64{}
	x.threshold, x.ok = threshold, true
	ds := make([]*dupeDoc, len(docs))
	shingles := 0
	for i, doc := range docs {
		d := old[doc.Path]
		if d == nil || d.text != doc.Text {
			d = x.analyse(doc.Text)
		}
		ds[i] = d
		x.docs[doc.Path] = d
		shingles += len(d.set)
	}
	// A shingle's list starts as a slice of a chunk of postings, room for
	// two and capped there (what append gave a list's first posting):
	// only a shingle found in a third document copies its list out.
	// Each shingle's list was an allocation of its own (some 30 000 a
	// warm start on W). The chunks are not sized for every shingle: most
	// of W's shingles occur in several memories of a folder (692 160
	// shingles, 225 106 distinct).
	x.postings = map[string][]int32{}
	var chunk []int32
	for _, d := range ds {
		for sh := range d.set {
			shingles-- // those left after this one
			if list, ok := x.postings[sh]; ok {
				x.postings[sh] = append(list, d.id)
				continue
			}
			if len(chunk) == 0 {
				chunk = make([]int32, 2*min(postingChunk, shingles+1))
			}
			chunk[0] = d.id
			x.postings[sh], chunk = chunk[:1:2], chunk[2:]
		}
	}
	byID := make(map[int32]*dupeDoc, len(ds))
	for _, d := range ds {
		byID[d.id] = d
	}
	// As FindDuplicates: the shingles a pair shares, and each document's
	// shingles left out (in more than maxShinglePosting documents), bound
	// its similarity, which rules most pairs out without comparing sets.
	common := map[[2]int32]int{}
	frequent := map[int32]int{}
	for _, list := range x.postings {
		if len(list) > maxShinglePosting {
			for _, id := range list {
				frequent[id]++
			}
			continue
		}
		for a := 0; a < len(list); a++ {
			for b := a + 1; b < len(list); b++ {
				common[pairKey(list[a], list[b])]++
			}
		}
	}
	for p, n := range common {
		a, b := byID[p[0]], byID[p[1]]
		if !mayReach(n+min(frequent[p[0]], frequent[p[1]]), len(a.set), len(b.set), threshold) {
			continue
		}
		x.compared++
		if sim := Jaccard(a.set, b.set); sim >= threshold {
			x.pairs[p] = sim
		}
	}
}

// answer is the pairs found, as FindDuplicates gives them for docs: A is
// the one that comes first in docs, Shared is read from A.
func (x *DupeIndex) answer(docs []DupeDoc) []DuplicatePair {
	if len(x.pairs) == 0 {
		return nil
	}
	at := make(map[int32]int, len(docs))
	byID := make(map[int32]*dupeDoc, len(docs))
	for i, doc := range docs {
		d := x.docs[doc.Path]
		at[d.id], byID[d.id] = i, d
	}
	out := make([]DuplicatePair, 0, len(x.pairs))
	for p, sim := range x.pairs {
		a, b := byID[p[0]], byID[p[1]]
		if at[p[0]] > at[p[1]] {
			a, b = b, a
		}
		out = append(out, DuplicatePair{A: docs[at[a.id]].Path, B: docs[at[b.id]].Path, Similarity: sim,
			Shared: sharedRun(a.text, a.words, a.list, b.set)})
	}
	sortDuplicatePairs(out)
	return out
}

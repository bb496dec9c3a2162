package lint

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/memscope/memscope/internal/testenv"
	"github.com/memscope/memscope/model"
)

// randomDoc writes a memory-like text from a small vocabulary, so that
// documents share word pairs: some pairs are near-duplicates, some word
// pairs occur in more documents than a shingle may pair up.
func randomDoc(r *rand.Rand) string {
	vocab := strings.Fields("the user prefers tabs over spaces run tests twice before merge deploy on friday never use the staging database keep commits small")
	n := 4 + r.IntN(20)
	var b strings.Builder
	if r.IntN(3) != 0 {
		// A phrase most documents carry: in about as many documents as a
		// shingle may pair up, so edits move it across that limit.
		b.WriteString("always ask first ")
	}
	for range n {
		b.WriteString(vocab[r.IntN(len(vocab))])
		b.WriteByte(' ')
	}
	return b.String()
}

// The index answers exactly what FindDuplicates answers, through any
// sequence of edits, additions, removals and reorderings, including
// changes that move a shingle across the posting limit.
func TestDupeIndexMatchesFindDuplicates(t *testing.T) {
	var updates, rebuilds int
	seeds := testenv.Size(t, 12, 5)
	defer func() {
		// Both ways must have been taken, or the test proves half of it:
		// each seed's first Find rebuilds; the others that do are edits
		// that moved a shingle across the posting limit.
		if updates < 100 || rebuilds-seeds < 5 {
			t.Errorf("%d incremental updates and %d rebuilds: the test no longer exercises both", updates, rebuilds)
		}
	}()
	for seed := range uint64(seeds) {
		r := rand.New(rand.NewPCG(seed, 99))
		var docs []DupeDoc
		for i := range 70 + r.IntN(40) {
			docs = append(docs, DupeDoc{Path: fmt.Sprintf("m%03d.md", i), Text: randomDoc(r)})
		}
		var x DupeIndex
		next := len(docs)
		for step := range 60 {
			switch op := r.IntN(10); {
			case op < 5:
				docs[r.IntN(len(docs))].Text = randomDoc(r)
			case op < 6 && len(docs) > 2:
				i := r.IntN(len(docs))
				docs = append(docs[:i], docs[i+1:]...)
			case op < 7:
				docs = append(docs, DupeDoc{Path: fmt.Sprintf("m%03d.md", next), Text: randomDoc(r)})
				next++
			case op < 8:
				r.Shuffle(len(docs), func(i, j int) { docs[i], docs[j] = docs[j], docs[i] })
			case op < 9:
				// A copy of another document: a sure pair.
				docs[r.IntN(len(docs))].Text = docs[r.IntN(len(docs))].Text + " ok"
			}
			want := FindDuplicates(docs, 0)
			got := x.Find(docs, 0)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("seed %d step %d: index gives %d pairs, FindDuplicates %d:\n%v\nwant\n%v", seed, step, len(got), len(want), got, want)
			}
		}
		updates += x.updates
		rebuilds += x.rebuilds
	}
}

// A threshold change, a repeated path and a nil index all answer as
// FindDuplicates does.
func TestDupeIndexEdges(t *testing.T) {
	docs := []DupeDoc{{"a.md", "run tests twice before merge"}, {"b.md", "always run tests twice before a merge"}, {"c.md", "deploy on friday"}}
	var x DupeIndex
	for _, th := range []float64{0, 0.5, 0.9, 0.25} {
		if got, want := x.Find(docs, th), FindDuplicates(docs, th); !reflect.DeepEqual(got, want) {
			t.Errorf("threshold %v: %v, want %v", th, got, want)
		}
	}
	twice := append(docs, DupeDoc{"a.md", "deploy on friday please"})
	if got, want := x.Find(twice, 0), FindDuplicates(twice, 0); !reflect.DeepEqual(got, want) {
		t.Errorf("a path twice: %v, want %v", got, want)
	}
	if got, want := x.Find(docs, 0), FindDuplicates(docs, 0); !reflect.DeepEqual(got, want) || len(got) != 1 {
		t.Errorf("after a path twice: %v, want %v (one pair)", got, want)
	}
	var nilIndex *DupeIndex
	if got, want := nilIndex.Find(docs, 0), FindDuplicates(docs, 0); !reflect.DeepEqual(got, want) {
		t.Errorf("nil index: %v, want %v", got, want)
	}
}

// Lint with a memo reports what it reports without one, run after run
// as files change; the memo's scan entries follow the folder.
func TestLintMemoSameReport(t *testing.T) {
	files := map[string]string{
		"feedback_tests.md": "---\nname: tests\ndescription: run the tests twice\ntype: feedback\n---\nRun the tests twice before a merge.\n",
		"feedback_merge.md": "---\nname: merge\ndescription: run the tests twice before merging\ntype: feedback\n---\nAlways run the tests twice before a merge.\n",
		"project_key.md":    "---\nname: key\ndescription: the deploy key\ntype: project\n---\naws key AKIAQZ4XB7WJ2RTLMN5K in the vault\n",
	}
	read := func() *model.MemoryDir {
		md := &model.MemoryDir{Dir: "/m", Exists: true}
		for _, name := range []string{"feedback_merge.md", "feedback_tests.md", "project_key.md", "reference_x.md"} {
			if text, ok := files[name]; ok {
				f, prob := model.ParseMemoryFile(name, []byte(text))
				if prob != nil {
					t.Fatal(prob)
				}
				md.Files = append(md.Files, f)
			}
		}
		return md
	}
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	memo := NewMemo()
	edits := []func(){
		func() {},
		func() {
			files["project_key.md"] = strings.Replace(files["project_key.md"], "AKIAQZ4XB7WJ2RTLMN5K", "(in the vault)", 1)
		},
		func() {
			files["reference_x.md"] = "---\nname: x\ndescription: run the tests twice\ntype: reference\n---\nRun the tests twice before a merge, really.\n"
		},
		func() { delete(files, "feedback_merge.md") },
		func() { files["project_key.md"] += "\naws key AKIAQZ4XB7WJ2RTLMN5K again\n" },
	}
	for i, edit := range edits {
		edit()
		md := read()
		want := Run(Input{Memory: md, Now: now})
		got := Run(Input{Memory: md, Now: now, Memo: memo})
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("edit %d: with a memo\n%+v\nwant\n%+v", i, got, want)
		}
		if len(memo.scans) != len(md.Files) {
			t.Errorf("edit %d: the memo keeps %d scans for %d files", i, len(memo.scans), len(md.Files))
		}
	}
}

// A rebuild rules pairs out by the shingles they share, as FindDuplicates
// does, before comparing their sets: of the pairs that share a shingle
// (most of a folder whose notes use the same words), it compares only
// those that could reach the threshold. The old rebuild compared every
// pair sharing a shingle.
func TestDupeIndexRebuildBoundsPairs(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 99))
	var docs []DupeDoc
	for i := range 100 {
		docs = append(docs, DupeDoc{Path: fmt.Sprintf("m%03d.md", i), Text: randomDoc(r)})
	}
	var x DupeIndex
	got := x.Find(docs, 0)
	if want := FindDuplicates(docs, 0); !reflect.DeepEqual(got, want) {
		t.Fatalf("index gives %v, FindDuplicates %v", got, want)
	}
	sharing := 0
	for a := range docs {
		for b := a + 1; b < len(docs); b++ {
			for sh := range x.docs[docs[a].Path].set {
				if x.docs[docs[b].Path].set[sh] && len(x.postings[sh]) <= maxShinglePosting {
					sharing++
					break
				}
			}
		}
	}
	if x.compared > sharing/2 || x.compared < len(got) {
		t.Errorf("the rebuild compared %d pairs of the %d sharing a shingle (%d similar)", x.compared, sharing, len(got))
	}
}

// TestDupeIndexRebuildAllocatesPerDocument: a rebuild's postings are
// one array and a map sized once, not a list allocated for each shingle
// (documents of distinct words: every shingle is in one document). Two
// rebuilds (the threshold changed) of 200 documents' kept analyses
// allocate a few times per document, far fewer than their shingles.
func TestDupeIndexRebuildAllocatesPerDocument(t *testing.T) {
	var docs []DupeDoc
	shingles := 0
	for i := range 200 {
		var b strings.Builder
		for w := range 30 {
			fmt.Fprintf(&b, "w%dx%d ", i, w)
		}
		docs = append(docs, DupeDoc{Path: fmt.Sprintf("m%03d.md", i), Text: b.String()})
	}
	var x DupeIndex
	x.Find(docs, 0.5)
	for _, d := range x.docs {
		shingles += len(d.set)
	}
	a := testing.AllocsPerRun(3, func() {
		x.Find(docs, 0.6)
		x.Find(docs, 0.5)
	})
	if x.rebuilds < 2 {
		t.Fatalf("%d rebuilds, want every Find to rebuild", x.rebuilds)
	}
	t.Logf("two rebuilds of %d documents (%d shingles): %.0f allocations", len(docs), shingles, a)
	if a > float64(shingles)/4 {
		t.Errorf("two rebuilds allocate %.0f times, for %d shingles of %d documents", a, shingles, len(docs))
	}
}

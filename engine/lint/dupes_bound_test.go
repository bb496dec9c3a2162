package lint

import (
	"fmt"
	"github.com/memscope/memscope/internal/testenv"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// bruteDuplicates is FindDuplicates by comparing every pair that shares
// a shingle found in at most maxShinglePosting docs (FindDuplicates'
// candidates): what the bound that skips pairs must not change.
func bruteDuplicates(docs []DupeDoc, threshold float64) []DuplicatePair {
	in := map[string]int{}
	// Each memory's words and shingles, worked out once (the pairs below
	// read them n times each).
	words := make([][]dupeWord, len(docs))
	lists := make([][]string, len(docs))
	sets := make([]map[string]bool, len(docs))
	for i, d := range docs {
		words[i] = dupeWords(d.Text)
		lists[i], sets[i] = shingles(words[i])
		for sh := range sets[i] {
			in[sh]++
		}
	}
	var out []DuplicatePair
	for a := range docs {
		wa, la, sa := words[a], lists[a], sets[a]
		for b := a + 1; b < len(docs); b++ {
			sb := sets[b]
			shared := false
			for sh := range sa {
				shared = shared || sb[sh] && in[sh] <= maxShinglePosting
			}
			if sim := Jaccard(sa, sb); shared && sim >= threshold {
				out = append(out, DuplicatePair{A: docs[a].Path, B: docs[b].Path, Similarity: sim, Shared: sharedRun(docs[a].Text, wa, la, sb)})
			}
		}
	}
	return out
}

// FindDuplicates, which skips the pairs whose shared shingles cannot
// reach the threshold, finds what comparing every pair finds (and
// findDuplicatesOf, for one file, that file's pairs of it), on sets of
// memories with common words (shingles in more than maxShinglePosting
// memories), reworded copies and pairs right at the threshold.
func TestFindDuplicatesEqualsEveryPair(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(11, 12))
	vocab := strings.Fields("the user wants tests to run fast keep memory short index files under the cap prefer go modules always check errors and log them")
	for round := range testenv.Size(t, 40, 15) {
		n := 2 + rng.IntN(110)
		docs := make([]DupeDoc, n)
		for i := range docs {
			var w []string
			if i > 0 && rng.IntN(4) == 0 {
				// A reworded copy of an earlier memory.
				w = strings.Fields(docs[rng.IntN(i)].Text)
				for k := range w {
					if rng.IntN(3) == 0 {
						w[k] = vocab[rng.IntN(len(vocab))]
					}
				}
			} else {
				for range 3 + rng.IntN(40) {
					w = append(w, vocab[rng.IntN(len(vocab))])
				}
			}
			if rng.IntN(10) != 0 {
				// A phrase most memories share: its shingles are in more
				// than maxShinglePosting memories when there are enough.
				w = append(strings.Fields("the user wants"), w...)
			}
			docs[i] = DupeDoc{Path: fmt.Sprintf("m%03d.md", i), Text: strings.Join(w, " ")}
		}
		for _, th := range []float64{DefaultDuplicateJaccard, 0.5, 1} {
			got := FindDuplicates(docs, th)
			want := bruteDuplicates(docs, th)
			sortDuplicatePairs(want)
			if len(got) == 0 && len(want) == 0 {
				continue
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("round %d threshold %v: %d pairs, every pair compared %d", round, th, len(got), len(want))
			}
			// The gate's one file: the pairs it is part of, no others.
			for i := range min(n, 12) {
				only := docs[rng.IntN(n)].Path
				if i == 0 && len(want) > 0 {
					only = want[0].B // one with a pair, every round that has one
				}
				var of []DuplicatePair
				for _, p := range want {
					if p.A == only || p.B == only {
						of = append(of, p)
					}
				}
				if got := findDuplicatesOf(docs, only, th); !reflect.DeepEqual(got, of) {
					t.Fatalf("round %d threshold %v, only %s: %d pairs, want %d", round, th, only, len(got), len(of))
				}
			}
		}
	}
}

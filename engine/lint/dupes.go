package lint

import (
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// DefaultDuplicateJaccard is the shingle Jaccard similarity from which two
// memories count as near-duplicates. Word pairs (2-shingles) separate
// reworded repeats from memories on the same topic well: on the demo the
// one real pair scores 0.32 and every other pair under 0.06.
const DefaultDuplicateJaccard = 0.25

// shingleSize is the number of words in a shingle.
const shingleSize = 2

// maxShinglePosting bounds how many documents one shingle may pair up:
// a word pair found in more memories than that ("how to", "the user")
// says nothing about duplication, and skipping it keeps the pairing
// linear in practice. Such a shingle still counts in the Jaccard.
const maxShinglePosting = 64

// maxSharedRunes bounds DuplicatePair.Shared.
const maxSharedRunes = 200

// DupeDoc is a text to compare: a memory's description and body.
type DupeDoc struct {
	Path string
	Text string
}

// DuplicatePair is two memories that say nearly the same thing.
type DuplicatePair struct {
	A string `json:"a"`
	B string `json:"b"`
	// Similarity is the Jaccard similarity of the two word-pair sets.
	Similarity float64 `json:"similarity"`
	// Shared is the longest run of words the two have in common, as it is
	// written in A.
	Shared string `json:"shared"`
}

// dupeWord is a word of a text: lower-cased, with its byte span.
type dupeWord struct {
	word       string
	start, end int
}

func dupeWords(text string) []dupeWord {
	words, _ := dupeWordsIn(text)
	return words
}

// dupeWordsIn is dupeWords, and the lower-cased text the words are
// slices of when they are ("" when not: a text that is not ASCII), for
// shinglesIn.
func dupeWordsIn(text string) ([]dupeWord, string) {
	if isASCII(text) {
		return dupeWordsASCII(text)
	}
	var out []dupeWord
	start := -1
	for i, r := range text {
		word := unicode.IsLetter(r) || unicode.IsDigit(r)
		switch {
		case word && start < 0:
			start = i
		case !word && start >= 0:
			out = append(out, dupeWord{strings.ToLower(text[start:i]), start, i})
			start = -1
		}
	}
	if start >= 0 {
		out = append(out, dupeWord{strings.ToLower(text[start:]), start, len(text)})
	}
	return out, ""
}

// dupeWordsASCII is dupeWords on ASCII text, where lower-casing keeps every
// byte in place: the text is lower-cased once (no copy when it has no
// capitals), the words are counted, and each word is a slice of it.
func dupeWordsASCII(text string) ([]dupeWord, string) {
	lower := strings.ToLower(text)
	n, in := 0, false
	for i := 0; i < len(lower); i++ {
		w := isASCIIWordByte(lower[i])
		if w && !in {
			n++
		}
		in = w
	}
	out := make([]dupeWord, 0, n)
	start := -1
	for i := 0; i < len(lower); i++ {
		word := isASCIIWordByte(lower[i])
		switch {
		case word && start < 0:
			start = i
		case !word && start >= 0:
			out = append(out, dupeWord{lower[start:i], start, i})
			start = -1
		}
	}
	if start >= 0 {
		out = append(out, dupeWord{lower[start:], start, len(lower)})
	}
	return out, lower
}

// isASCIIWordByte is unicode.IsLetter || unicode.IsDigit on an ASCII
// byte of lower-cased text.
func isASCIIWordByte(c byte) bool { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' }

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// shingles returns the word pairs of words in order (one shingle for a
// one-word text) and as a set.
func shingles(words []dupeWord) ([]string, map[string]bool) { return shinglesIn(words, "") }

// shinglesIn is shingles of words that are slices of base (dupeWordsIn;
// "" when they are not): a shingle written in base as it is joined (its
// words one space apart) is a slice of base, not a string of its own.
func shinglesIn(words []dupeWord, base string) ([]string, map[string]bool) {
	var list []string
	if len(words) > 0 && len(words) < shingleSize {
		list = []string{words[0].word}
	}
	if n := len(words) - shingleSize + 1; n > 0 {
		list = make([]string, 0, n)
	}
	for i := 0; i+shingleSize <= len(words); i++ {
		list = append(list, shingleIn(words, i, base))
	}
	set := make(map[string]bool, len(list))
	for _, sh := range list {
		set[sh] = true
	}
	return list, set
}

func shingleAt(words []dupeWord, i int) string { return shingleIn(words, i, "") }

// shingleIn is shingleAt of words that are slices of base, a slice of
// base when the shingle is written there as joined.
func shingleIn(words []dupeWord, i int, base string) string {
	n := shingleSize - 1
	for _, w := range words[i : i+shingleSize] {
		n += len(w.word)
	}
	if from, to := words[i].start, words[i+shingleSize-1].end; base != "" && to-from == n {
		joined := true
		for _, w := range words[i : i+shingleSize-1] {
			joined = joined && base[w.end] == ' '
		}
		if joined {
			return base[from:to]
		}
	}
	// One allocation: the joined words, built in place.
	var b strings.Builder
	b.Grow(n)
	for k, w := range words[i : i+shingleSize] {
		if k > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(w.word)
	}
	return b.String()
}

// FindDuplicates returns the pairs of docs whose shingle Jaccard
// similarity is at least threshold (DefaultDuplicateJaccard when 0), most
// similar first. In each pair A is the doc that comes first in docs.
func FindDuplicates(docs []DupeDoc, threshold float64) []DuplicatePair {
	if threshold <= 0 {
		threshold = DefaultDuplicateJaccard
	}
	words := make([][]dupeWord, len(docs))
	lists := make([][]string, len(docs))
	sets := make([]map[string]bool, len(docs))
	postings := map[string][]int{}
	for i, d := range docs {
		var base string
		words[i], base = dupeWordsIn(d.Text)
		lists[i], sets[i] = shinglesIn(words[i], base)
		for sh := range sets[i] {
			postings[sh] = append(postings[sh], i)
		}
	}
	type pair struct{ a, b int }
	common := map[pair]int{}
	for _, list := range postings {
		if len(list) > maxShinglePosting {
			continue
		}
		for x := 0; x < len(list); x++ {
			for y := x + 1; y < len(list); y++ {
				common[pair{list[x], list[y]}]++
			}
		}
	}
	// frequent[i] counts doc i's shingles left out of common (those in
	// more than maxShinglePosting docs): a pair shares at most
	// common + min(frequent) shingles, and the Jaccard that bound gives
	// rules most pairs out without comparing their sets.
	frequent := make([]int, len(docs))
	for _, list := range postings {
		if len(list) > maxShinglePosting {
			for _, i := range list {
				frequent[i]++
			}
		}
	}
	var out []DuplicatePair
	for p, n := range common {
		if !mayReach(n+min(frequent[p.a], frequent[p.b]), len(sets[p.a]), len(sets[p.b]), threshold) {
			continue
		}
		sim := Jaccard(sets[p.a], sets[p.b])
		if sim < threshold {
			continue
		}
		out = append(out, DuplicatePair{
			A: docs[p.a].Path, B: docs[p.b].Path, Similarity: sim,
			Shared: sharedRun(docs[p.a].Text, words[p.a], lists[p.a], sets[p.b]),
		})
	}
	sortDuplicatePairs(out)
	return out
}

// mayReach says two shingle sets of sizes na and nb that share at most
// most shingles can be threshold similar: i/(na+nb-i) grows with i; the
// margin keeps a pair whose bound is the threshold up to rounding.
func mayReach(most, na, nb int, threshold float64) bool {
	return float64(most) >= threshold*float64(na+nb-most)*(1-1e-9)
}

// findDuplicatesOf is FindDuplicates' answer cut to the pairs the doc
// at path only is part of (the gate's one file), without pairing every
// doc with every other: a doc is compared with only when they share a
// shingle no more than maxShinglePosting docs hold, as FindDuplicates
// pairs them (its bound only saves comparisons, it drops no pair).
func findDuplicatesOf(docs []DupeDoc, only string, threshold float64) []DuplicatePair {
	if threshold <= 0 {
		threshold = DefaultDuplicateJaccard
	}
	fi := slices.IndexFunc(docs, func(d DupeDoc) bool { return d.Path == only })
	if fi < 0 {
		return nil
	}
	words := make([][]dupeWord, len(docs))
	lists := make([][]string, len(docs))
	sets := make([]map[string]bool, len(docs))
	for i, d := range docs {
		var base string
		words[i], base = dupeWordsIn(d.Text)
		lists[i], sets[i] = shinglesIn(words[i], base)
	}
	// How many docs hold each of only's shingles.
	held := make(map[string]int, len(sets[fi]))
	for sh := range sets[fi] {
		held[sh] = 0
	}
	for i := range docs {
		for sh := range sets[i] {
			if n, ok := held[sh]; ok {
				held[sh] = n + 1
			}
		}
	}
	var out []DuplicatePair
	for j := range docs {
		if j == fi || !sharesRare(sets[j], held) {
			continue
		}
		a, b := min(fi, j), max(fi, j)
		sim := Jaccard(sets[a], sets[b])
		if sim < threshold {
			continue
		}
		out = append(out, DuplicatePair{
			A: docs[a].Path, B: docs[b].Path, Similarity: sim,
			Shared: sharedRun(docs[a].Text, words[a], lists[a], sets[b]),
		})
	}
	sortDuplicatePairs(out)
	return out
}

// sharesRare says set holds a shingle of held that at most
// maxShinglePosting docs hold.
func sharesRare(set map[string]bool, held map[string]int) bool {
	for sh, n := range held {
		if n <= maxShinglePosting && set[sh] {
			return true
		}
	}
	return false
}

// sortDuplicatePairs orders pairs most similar first, then by paths.
func sortDuplicatePairs(out []DuplicatePair) {
	sort.Slice(out, func(i, j int) bool {
		if out[i].Similarity != out[j].Similarity {
			return out[i].Similarity > out[j].Similarity
		}
		if out[i].A != out[j].A {
			return out[i].A < out[j].A
		}
		return out[i].B < out[j].B
	})
}

// sharedRun is the longest run of a's words whose shingles (aList, in
// order) all occur in b, as written in text (a's text), cut to
// maxSharedRunes.
func sharedRun(text string, a []dupeWord, aList []string, b map[string]bool) string {
	bestFrom, bestTo := -1, -1
	if len(a) < shingleSize {
		if len(a) == 1 && b[a[0].word] {
			bestFrom, bestTo = 0, 0
		}
	}
	for i := 0; i+shingleSize <= len(a); {
		if !b[aList[i]] {
			i++
			continue
		}
		j := i
		for j+1+shingleSize <= len(a) && b[aList[j+1]] {
			j++
		}
		if last := j + shingleSize - 1; bestFrom < 0 || last-i > bestTo-bestFrom {
			bestFrom, bestTo = i, last
		}
		i = j + 1
	}
	if bestFrom < 0 {
		return ""
	}
	s := text[a[bestFrom].start:a[bestTo].end]
	if utf8.RuneCountInString(s) > maxSharedRunes {
		// Cut by bytes at a character boundary, so invalid bytes stay as
		// written and the result is still a piece of the text.
		off := 0
		for n := 0; n < maxSharedRunes-1; n++ {
			_, size := utf8.DecodeRuneInString(s[off:])
			off += size
		}
		s = s[:off] + "…"
	}
	return s
}

// Jaccard is |a ∩ b| / |a ∪ b|, 0 for two empty sets.
func Jaccard(a, b map[string]bool) float64 {
	inter := 0
	for w := range a {
		if b[w] {
			inter++
		}
	}
	union := len(a) + len(b) - inter
	if union == 0 {
		return 0
	}
	return float64(inter) / float64(union)
}

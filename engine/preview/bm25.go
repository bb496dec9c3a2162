package preview

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// BM25 parameters (the usual defaults) and field weights: a word in a
// memory's name or description says more about it than one in its body.
const (
	bm25K1          = 1.2
	bm25B           = 0.75
	weightName      = 3
	weightDesc      = 2
	weightBody      = 1
	bm25ScoreDigits = 1000
)

// BM25Selector is memscope's deterministic stand-in for the client's model
// call: Okapi BM25 over each entry's name, description (weighted) and the
// body head, ties broken by recency then path. It explains each pick by
// the query words it matched and where.
type BM25Selector struct{}

// recallStopWords are left out of queries and documents: they match
// everything. recallStopMax is the longest, so longer words skip the map.
var (
	recallStopWords = map[string]bool{}
	recallStopMax   = 0
)

func init() {
	for _, w := range strings.Fields("a an and are as at be but by can do does for from has have how i if in into is it its me my of on or our please so that the their them then there these this to was we what when where which who why will with would you your") {
		recallStopWords[w] = true
		recallStopMax = max(recallStopMax, len(w))
	}
}

// eachRecallWord lowercases text and calls fn with each word of letters
// and digits; each Han, Hiragana, Katakana or Hangul character is a word
// of its own (those scripts do not separate words with spaces). Stop
// words and single ASCII characters are left out. The slice passed to fn
// is reused: copy it to keep it.
func eachRecallWord(text string, fn func(w []byte)) {
	var cur []byte
	var runes int
	flush := func() {
		if len(cur) > 0 && (runes > 1 || cur[0] >= utf8.RuneSelf) && !(len(cur) <= recallStopMax && recallStopWords[string(cur)]) {
			fn(cur)
		}
		cur, runes = cur[:0], 0
	}
	for _, r := range text {
		switch {
		case r < utf8.RuneSelf:
			switch {
			case 'A' <= r && r <= 'Z':
				cur, runes = append(cur, byte(r+'a'-'A')), runes+1
			case 'a' <= r && r <= 'z' || '0' <= r && r <= '9':
				cur, runes = append(cur, byte(r)), runes+1
			default:
				flush()
			}
		case unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul):
			flush()
			cur, runes = utf8.AppendRune(cur, r), 1
			flush()
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			cur, runes = utf8.AppendRune(cur, unicode.ToLower(r)), runes+1
		default:
			flush()
		}
	}
	flush()
}

// recallWords returns the words of text (see eachRecallWord).
func recallWords(text string) []string {
	var out []string
	eachRecallWord(text, func(w []byte) { out = append(out, string(w)) })
	return out
}

// bm25Fields name the parts of an entry a word was found in, as bits.
var bm25Fields = []string{"name", "description", "body"}

func uniqueRecallWords(ws []string) []string {
	var out []string
	for _, w := range ws {
		if !hasWord(out, w) {
			out = append(out, w)
		}
	}
	return out
}

func hasWord(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Name implements Selector.
func (BM25Selector) Name() string { return "bm25 (local stand-in)" }

// Select implements Selector. Only the query's words are counted per
// entry (with each entry's length): BM25 needs nothing else, and a map of
// every word of 200 entries cost more than the rest of the preview.
func (BM25Selector) Select(query string, entries []ManifestEntry, limit int) []Pick {
	terms := uniqueRecallWords(recallWords(query))
	if len(terms) == 0 || len(entries) == 0 || limit <= 0 {
		return nil
	}
	// first marks the first bytes of the terms: most words of an entry
	// are then passed over without hashing them.
	termIdx := make(map[string]int, len(terms))
	var first [256]bool
	for i, t := range terms {
		termIdx[t] = i
		first[t[0]] = true
	}
	nt := len(terms)
	tf := make([]float64, len(entries)*nt)
	fields := make([]uint8, len(entries)*nt)
	length := make([]float64, len(entries))
	df := make([]int, nt)
	total := 0.0
	for i, e := range entries {
		dtf, dfields := tf[i*nt:(i+1)*nt], fields[i*nt:(i+1)*nt]
		for fi, f := range [...]struct {
			text   string
			weight float64
		}{{e.Name + " " + strings.TrimSuffix(e.File, ".md"), weightName}, {e.Description, weightDesc}, {e.Head, weightBody}} {
			eachRecallWord(f.text, func(w []byte) {
				length[i] += f.weight
				if !first[w[0]] {
					return
				}
				if k, ok := termIdx[string(w)]; ok {
					dtf[k] += f.weight
					dfields[k] |= 1 << fi
				}
			})
		}
		for k := range dtf {
			if dtf[k] > 0 {
				df[k]++
			}
		}
		total += length[i]
	}
	avg := total / float64(len(entries))
	if avg == 0 {
		avg = 1
	}
	n := float64(len(entries))
	var picks []Pick
	order := make([]int, 0, len(entries))
	for i := range entries {
		score := 0.0
		var why []string
		for k, t := range terms {
			tf := tf[i*nt+k]
			if tf == 0 {
				continue
			}
			idf := math.Log(1 + (n-float64(df[k])+0.5)/(float64(df[k])+0.5))
			score += idf * tf * (bm25K1 + 1) / (tf + bm25K1*(1-bm25B+bm25B*length[i]/avg))
			var in []string
			for fi, name := range bm25Fields {
				if fields[i*nt+k]&(1<<fi) != 0 {
					in = append(in, name)
				}
			}
			why = append(why, fmt.Sprintf("%q in %s", t, strings.Join(in, ", ")))
		}
		if score <= 0 {
			continue
		}
		score = math.Round(score*bm25ScoreDigits) / bm25ScoreDigits
		picks = append(picks, Pick{File: entries[i].File, Score: score, Why: "matched " + strings.Join(why, "; ")})
		order = append(order, i)
	}
	idx := make([]int, len(picks))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool {
		pa, pb := picks[idx[a]], picks[idx[b]]
		if pa.Score != pb.Score {
			return pa.Score > pb.Score
		}
		ea, eb := entries[order[idx[a]]], entries[order[idx[b]]]
		if !ea.Mtime.Equal(eb.Mtime) {
			return ea.Mtime.After(eb.Mtime)
		}
		return ea.File < eb.File
	})
	out := make([]Pick, 0, limit)
	for _, i := range idx {
		if len(out) == limit {
			break
		}
		out = append(out, picks[i])
	}
	return out
}

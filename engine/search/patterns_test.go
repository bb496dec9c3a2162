package search

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/memscope/memscope/internal/genhome"
)

// patternSet is the fixed set scripts/search-patterns.sh runs beside rg:
// literals (any case, --case), alternations, classes, anchors, a pattern
// without a required literal, many hits and none.
var patternSet = []struct {
	query string
	qo    QueryOptions
}{
	{"deadlock", QueryOptions{}},
	{"release parser", QueryOptions{}},
	{"queue branch", QueryOptions{Case: true}},
	{"QUEUE BRANCH WORKER", QueryOptions{}},
	{"Zebra", QueryOptions{Case: true}},
	{"deploy (queue|feedback) build", QueryOptions{Regex: true}},
	{"dead(lock|line)s?", QueryOptions{Regex: true}},
	{"(migration|schema) (table|column)", QueryOptions{Regex: true}},
	{"colu(mn|mns)? [a-z]{3,6} filter", QueryOptions{Regex: true}},
	{`\bver[a-z]*ion [0-9]`, QueryOptions{Regex: true}},
	{"^index prompt", QueryOptions{Regex: true}},
	{"(?m)worker$", QueryOptions{Regex: true}},
	{"[A-Z][a-z]+Error", QueryOptions{Regex: true, Case: true}},
	{"parser|reader|writer", QueryOptions{Regex: true}},
	{"[0-9]{5}", QueryOptions{Regex: true}},
	{"zq(foo|bar)x", QueryOptions{Regex: true}},
	// What the prefilter treats apart: escapes, the Kelvin sign and the
	// long s, words split by an escaped line break, \b next to them.
	{`deploy\s+queue\s+build`, QueryOptions{Regex: true}},
	{`\bstatus\b`, QueryOptions{Regex: true}},
	{`(kelvin|sigma)s? (plant|probe)`, QueryOptions{Regex: true}},
	{`naïve (café|resume)`, QueryOptions{Regex: true}},
	{`\Bplant\B`, QueryOptions{Regex: true}},
	// A class run with no literal set, an unbounded expression in its
	// stretch, an anchored prefix after a word character.
	{`[0-9]{3}-[0-9]{2}`, QueryOptions{Regex: true}},
	{`\bver[a-z]*\b`, QueryOptions{Regex: true}},
	{`\Bion[a-z]* [0-9]`, QueryOptions{Regex: true}},
}

// plantedLines are transcript records with what a fast path could get
// wrong, as different JSON writers write it.
var plantedLines = []string{
	`{"type":"user","uuid":"p1","message":{"role":"user","content":"deploy queue build and deploy feedback build, status: ok; Status\nstatus"}}`,
	`{"type":"user","uuid":"p2","message":{"role":"user","content":"deploy\nqueue\tbuild, deploy queue build\u2028, \u212aelvins plant, \u017figma probe"}}`,
	`{"type":"assistant","uuid":"p3","message":{"role":"assistant","content":[{"type":"text","text":"na\u00efve caf\u00e9 and NAÏVE RESUME; deadlocks, deadline"},{"type":"tool_use","id":"t","name":"Bash","input":{"command":"grep -r deadline .","args":["worker","column abc filter"]}}]}}`,
	`{"type":"user","uuid":"p4","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"xplantx plant aplant ValueError TypeError typeError 12345 1234"}]}}`,
	`{"type":"system","uuid":"p5","subtype":"informational","content":"index prompt at the start\nworker\nversion 2 and ver-ion 3 and version3"}`,
	`{"type":"attachment","uuid":"p6","attachment":{"content":"deploy queue build in an attachment: not searched"}}`,
	`{"type":"user","uuid":"p7","deploy queue build":"in a key: not searched","message":{"role":"user","content":"plain text"}}`,
}

// reference finds what a search of the transcripts should find, the
// slow way: every line of every file decoded (referenceTexts), every
// field matched with the whole expression. It gives "file:line:where"
// with the count.
func reference(texts []refText, query string, qo QueryOptions) map[string]int {
	src := query
	if !qo.Regex {
		src = regexp.QuoteMeta(src)
	}
	if !qo.Case {
		src = "(?i)" + src
	}
	re := regexp.MustCompile(src)
	out := map[string]int{}
	for _, x := range texts {
		if c := countMatches(re, x.text); c > 0 {
			out[x.key] += c
		}
	}
	return out
}

// refText is one text reference matches: a field of a decoded record or
// a line of a tool result, keyed "file:line:where".
type refText struct{ key, text string }

// referenceTexts decodes the transcripts under dir once, for reference:
// every field of every searched record of every line, every line of
// every tool result.
func referenceTexts(t *testing.T, dir string) []refText {
	t.Helper()
	var out []refText
	err := filepath.WalkDir(filepath.Join(dir, "projects"), func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 64<<20)
		switch {
		case strings.HasSuffix(p, ".jsonl"):
		case strings.Contains(p, "/tool-results/"):
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			for i, line := range strings.Split(string(data), "\n") {
				out = append(out, refText{fmt.Sprintf("%s:%d:line", rel, i+1), line})
			}
			return nil
		default:
			return nil
		}
		for n := 1; sc.Scan(); n++ {
			var rec record
			if json.Unmarshal(sc.Bytes(), &rec) != nil || !searchedTypes[rec.Type] || strings.HasSuffix(rec.Subtype, "_boundary") {
				continue
			}
			for _, f := range rec.fields() {
				out = append(out, refText{fmt.Sprintf("%s:%d:%s", rel, n, f.where), f.text})
			}
		}
		return sc.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// countMatches counts the non-empty matches of re in s (at most
// maxCount).
func countMatches(re *regexp.Regexp, s string) int {
	n := 0
	for _, m := range re.FindAllStringIndex(s, -1) {
		if m[1] > m[0] {
			n++
		}
	}
	return min(n, maxCount)
}

// TestPatternSetMatchesReference: on a generated home with planted
// records, every pattern of the benchmark's set finds exactly the
// fields, and the matches in each, that decoding every line and running
// the whole expression on every field finds: the literal sets, the
// check near the anchors and the spans never lose or invent a hit.
func TestPatternSetMatchesReference(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := genhome.Run(dir, "2M", "11"); err != nil {
		t.Fatal(err)
	}
	writeFile(t, dir, "projects/-work-planted/aaaaaaaa-0000-4000-8000-000000000001.jsonl", strings.Join(plantedLines, "\n")+"\n")
	total := 0
	texts := referenceTexts(t, dir)
	for _, p := range patternSet {
		want := reference(texts, p.query, p.qo)
		hits, _ := runAll(t, dir, p.query, p.qo, func(o *Options) { o.Stores = []Store{StoreTranscripts} })
		got := map[string]int{}
		for _, h := range hits {
			got[fmt.Sprintf("%s:%d:%s", h.File, h.Line, h.Where)] += h.Count
		}
		if d := diffCounts(got, want); d != "" {
			t.Errorf("%q %+v: search and reference differ:\n%s", p.query, p.qo, d)
		}
		total += len(want)
	}
	if total < 200 {
		t.Fatalf("the set found only %d fields in all: the home does not exercise it", total)
	}
}

func diffCounts(got, want map[string]int) string {
	var lines []string
	for k, w := range want {
		if got[k] != w {
			lines = append(lines, fmt.Sprintf("  %s: got %d, want %d", k, got[k], w))
		}
	}
	for k, g := range got {
		if _, ok := want[k]; !ok {
			lines = append(lines, fmt.Sprintf("  %s: got %d, want none", k, g))
		}
	}
	sort.Strings(lines)
	if len(lines) > 20 {
		lines = append(lines[:20], fmt.Sprintf("  … %d more", len(lines)-20))
	}
	return strings.Join(lines, "\n")
}

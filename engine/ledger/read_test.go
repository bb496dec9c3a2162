package ledger

import (
	"encoding/json"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/memscope/memscope/demo"
	"github.com/memscope/memscope/engine/internal/enginetest"
	"github.com/memscope/memscope/model"
)

// transcriptFile is one transcript of a test source.
type transcriptFile struct {
	fsys fs.FS
	name string
}

// allTestTranscripts lists every transcript the repository's tests know:
// the ledger's own (rules, subagent, the two real-client files copied from
// the shared formats folder), model's real-client transcripts, the fixture
// home (malformed lines included) and the demo's homes.
func allTestTranscripts(t *testing.T) []transcriptFile {
	t.Helper()
	var out []transcriptFile
	for _, dir := range []string{"testdata", enginetest.RealDir} {
		paths, err := filepath.Glob(filepath.Join(dir, "*.jsonl"))
		if err != nil || len(paths) == 0 {
			t.Fatalf("no transcripts in %s: %v", dir, err)
		}
		for _, p := range paths {
			out = append(out, transcriptFile{model.DirFS(dir), filepath.Base(p)})
		}
	}
	l, err := demo.Materialize(t.TempDir(), time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	for _, home := range []string{"../../testdata/home", l.Home} {
		fsys := model.DirFS(home)
		files, _ := model.FindTranscripts(fsys)
		if len(files) == 0 {
			t.Fatalf("no transcripts in %s", home)
		}
		for _, f := range files {
			out = append(out, transcriptFile{fsys, f.Path})
		}
	}
	return out
}

// TestLeanReadSameLedger: a transcript read the ledger's way (readLean:
// the model's text, other tools' inputs and results skipped undecoded,
// preserved segments read again whole) has the same ledger and the same
// problems as the transcript read whole with ScanOptions, on every
// transcript of the repository's tests and the demo. It also checks the
// fast read skips something (else it would prove nothing) and that
// partial compactions (the re-read) are among the files.
func TestLeanReadSameLedger(t *testing.T) {
	var compacted, partial, skipped int
	for _, f := range allTestTranscripts(t) {
		full, err := model.ReadTranscriptWith(f.fsys, f.name, ScanOptions)
		if err != nil {
			t.Fatal(err)
		}
		lean, err := readLean(f.fsys, f.name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := json.Marshal(Build(full))
		got, _ := json.Marshal(Build(lean))
		if string(got) != string(want) {
			t.Errorf("%s: lean ledger\n%s\nwant\n%s", f.name, got, want)
		}
		// The home's build: the inputs walked as values of checked lines.
		if read, _ := json.Marshal(build(lean, true)); string(read) != string(want) {
			t.Errorf("%s: ledger of the read transcript\n%s\nwant\n%s", f.name, read, want)
		}
		wantP, _ := json.Marshal(full.Summary.Problems)
		gotP, _ := json.Marshal(lean.Summary.Problems)
		if string(gotP) != string(wantP) {
			t.Errorf("%s: lean problems %s, want %s", f.name, gotP, wantP)
		}
		if len(Build(full).Boundaries) > 0 {
			compacted++
		}
		for _, r := range full.Boundaries() {
			if r.IsCompactBoundary() && r.Compact != nil && r.Compact.PreservedSegment != nil {
				partial++
			}
		}
		for i, r := range full.Records {
			if m, lm := r.Message, lean.Records[i].Message; m != nil && lm != nil && len(m.Content) == len(lm.Content) {
				for j := range m.Content {
					if m.Content[j].Text != "" && lm.Content[j].Text == "" {
						skipped++
					}
				}
			}
		}
	}
	if compacted < 5 || partial < 2 || skipped == 0 {
		t.Errorf("the sources prove little: %d compacted files, %d partial compactions, %d blocks skipped", compacted, partial, skipped)
	}
	t.Logf("%d compacted files, %d partial compactions, %d blocks skipped", compacted, partial, skipped)
}

// TestLeanReadKeepsPreservedText: after a partial compaction the model
// still reads every word of the preserved segment, the model's text too,
// which the fast read skips elsewhere. Here (rules-session.jsonl with its
// second summary no longer naming the migration file, and the preserved
// answer naming it) the file survives boundary 2 only through that
// answer, so the segment must be read again in full.
func TestLeanReadKeepsPreservedText(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "rules-session.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	for old, new := range map[string]string{
		`"text": "Added a down migration."`:                                  `"text": "Added a down migration to 0042_bundles.sql."`,
		`Summary: bundles migration written in migrations/0042_bundles.sql.`: `Summary: bundles migration written.`,
	} {
		if !strings.Contains(s, old) {
			t.Fatalf("fixture changed: no %q", old)
		}
		s = strings.Replace(s, old, new, 1)
	}
	fsys := fstest.MapFS{"s.jsonl": {Data: []byte(s)}}
	lean, err := readLean(fsys, "s.jsonl", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	b := Build(lean).Boundaries[1]
	if b.Had[KindFile] != 1 || has(lostTexts(b, KindFile), "0042_bundles.sql") {
		t.Errorf("boundary 2 had %d files, lost %q: the preserved answer names 0042_bundles.sql", b.Had[KindFile], lostTexts(b, KindFile))
	}
}

// TestNormalizeIsFieldsJoined: the one-pass normalize is the lower-cased
// text's strings.Fields joined by single spaces, on strings of ASCII and
// Unicode white space (NBSP, NEL, U+2028, ideographic), upper case
// letters outside ASCII and invalid bytes, 20 000 of them from a fixed seed.
func TestNormalizeIsFieldsJoined(t *testing.T) {
	parts := []string{"a", "B", "Ünï", "ſ", " ", "\t", "\n", "\r\n", "\v", "\f", "\u00a0", "\u0085", "\u2028", "\u3000", "\xff", "\xe2\x80", "go test ./...", "İ", "", "K", "x y", "/a/b.go"}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(12) {
			b.WriteString(parts[rng.IntN(len(parts))])
		}
		s := b.String()
		if got, want := normalize(s), strings.Join(strings.Fields(strings.ToLower(s)), " "); got != want {
			t.Fatalf("normalize(%q) = %q, want %q", s, got, want)
		}
	}
}

// FuzzNormalizeIsFieldsJoined holds normalize (its ASCII pass and the
// general one) to its definition on any text.
func FuzzNormalizeIsFieldsJoined(f *testing.F) {
	for _, s := range []string{"", "a", "Go Test ./...", "  A\tb\r\nC  ", "ſ", "K", "x\u00a0y", "\xff", "İ"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := normalize(s), strings.Join(strings.Fields(strings.ToLower(s)), " "); got != want {
			t.Fatalf("normalize(%q) = %q, want %q", s, got, want)
		}
	})
}

// FuzzNamesFile holds the file test (the base name only) to naming the
// path or the base name, on any path and after-text.
func FuzzNamesFile(f *testing.F) {
	f.Add("/work/shop/cart.go", "Edited cart.go and /work/shop/x.")
	f.Add("/a/b.go", "see /A/B.GO")
	f.Add("/foo/    ", "the /foo/ folder")
	f.Add(`C:\src\Main.java`, "main.java")
	f.Add("/x/\xe2abcd", "\xe2abcd")
	f.Add("/dir/two  words.md", "TWO WORDS.md")
	f.Fuzz(func(t *testing.T, p, text string) {
		at := &afterText{raw: text, norm: normalize(text)}
		if got, want := at.namesFile(p), at.names(p) || at.names(baseName(p)); got != want {
			t.Fatalf("namesFile(%q) in %q = %v, want %v", p, text, got, want)
		}
	})
}

// TestNamesFileIsPathOrBase: the same on paths and after-texts built of
// parts that make them name each other (cases, white space, separators,
// short and blank base names, bytes outside ASCII).
func TestNamesFileIsPathOrBase(t *testing.T) {
	parts := []string{"/", `\`, "a", "B", "cart.go", "CART.GO", " ", "  ", "\t", "\n", "ſ", "K", "\xe2", "x y", "abcd", "/work/shop/", "Ü"}
	rng := rand.New(rand.NewPCG(3, 4))
	found := 0
	for range 30000 {
		var p, text strings.Builder
		for range rng.IntN(6) {
			p.WriteString(parts[rng.IntN(len(parts))])
		}
		for range rng.IntN(4) {
			text.WriteString(parts[rng.IntN(len(parts))])
		}
		if rng.IntN(2) == 0 {
			text.WriteString(strings.ToUpper(p.String()[rng.IntN(p.Len()+1):]))
		}
		at := &afterText{raw: text.String(), norm: normalize(text.String())}
		want := at.names(p.String()) || at.names(baseName(p.String()))
		if got := at.namesFile(p.String()); got != want {
			t.Fatalf("namesFile(%q) in %q = %v, want %v", p.String(), text.String(), got, want)
		}
		if want {
			found++
		}
	}
	if found < 3000 {
		t.Fatalf("only %d of the texts name their file", found)
	}
}

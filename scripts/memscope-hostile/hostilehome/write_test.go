package hostilehome

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// small keeps every scenario quick in tests: manyfiles writes 300 notes,
// more than the 250 its index lists (each file is about a millisecond of
// system time on a busy ext4).
var small = Options{Size: 3 << 20, N: 300, Depth: 20_000}

func TestWriteScenarios(t *testing.T) {
	for _, sc := range Scenarios {
		t.Run(string(sc), func(t *testing.T) {
			home := filepath.Join(t.TempDir(), "home")
			o := small
			o.Outside = home + "-out"
			res, err := Write(home, sc, o)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range res.Files {
				if _, err := os.Lstat(filepath.Join(home, f)); err != nil {
					t.Errorf("listed file %q: %v", f, err)
				}
			}
			good, bad := countJSONLines(t, filepath.Join(home, "history.jsonl"))
			if good != res.HistoryLines || bad != res.BadHistoryLines {
				t.Errorf("history: %d valid, %d invalid lines; result says %d, %d", good, bad, res.HistoryLines, res.BadHistoryLines)
			}
			_, badTr := countJSONLines(t, filepath.Join(home, res.Transcript))
			if badTr != res.BadTranscriptLines {
				t.Errorf("transcript: %d invalid lines, result says %d", badTr, res.BadTranscriptLines)
			}
			entries, err := os.ReadDir(filepath.Join(home, "paste-cache"))
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range entries {
				name, ok := strings.CutSuffix(e.Name(), ".txt")
				if !ok || len(name) != 16 {
					continue // newlinenames' odd paste
				}
				data, err := os.ReadFile(filepath.Join(home, "paste-cache", e.Name()))
				if err != nil {
					t.Fatal(err)
				}
				sum := sha256.Sum256(data)
				if got := hex.EncodeToString(sum[:])[:16]; got != name {
					t.Errorf("paste %s holds content hashed %s", e.Name(), got)
				}
			}
		})
	}
}

// countJSONLines counts the lines of a JSONL file that are and are not
// valid JSON, by the standard library's own judgement.
func countJSONLines(t *testing.T, path string) (good, bad int) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 1<<20)
	for {
		line, err := r.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			if json.Valid(line) {
				good++
			} else {
				bad++
			}
		}
		if err != nil {
			return good, bad
		}
	}
}

func TestWriteEscapesCarriesEveryPayload(t *testing.T) {
	home := t.TempDir()
	res, err := Write(home, Escapes, small)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(home, res.Transcript))
	if err != nil {
		t.Fatal(err)
	}
	var text strings.Builder
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var v any
		if err := json.Unmarshal([]byte(line), &v); err != nil {
			t.Fatalf("transcript line is not JSON: %v", err)
		}
		text.WriteString(flatten(v))
	}
	for _, p := range EscapePayloads {
		if !strings.Contains(text.String(), p.Text) {
			t.Errorf("payload %s not in the decoded transcript", p.Name)
		}
	}
	if res.BadHistoryLines != 1 {
		t.Errorf("the raw-escape history line should be the one invalid line, got %d", res.BadHistoryLines)
	}
}

// flatten concatenates every string in a decoded JSON value.
func flatten(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case []any:
		var b strings.Builder
		for _, e := range x {
			b.WriteString(flatten(e))
		}
		return b.String()
	case map[string]any:
		var b strings.Builder
		for _, e := range x {
			b.WriteString(flatten(e))
		}
		return b.String()
	}
	return ""
}

func TestWriteSymlinksOut(t *testing.T) {
	base := t.TempDir()
	home := filepath.Join(base, "home")
	res, err := Write(home, SymlinksOut, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Outside != home+"-outside" {
		t.Errorf("outside = %q", res.Outside)
	}
	if len(res.Links) != 5 || len(res.Targets) != 5 {
		t.Fatalf("links %d, targets %d", len(res.Links), len(res.Targets))
	}
	for rel, target := range res.Links {
		got, err := os.Readlink(filepath.Join(home, rel))
		if err != nil || got != target {
			t.Errorf("%s -> %q (%v), want %q", rel, got, err, target)
		}
		if strings.HasPrefix(target, home+string(filepath.Separator)) {
			t.Errorf("%s points inside the home", rel)
		}
	}
	passwd := filepath.Join(res.Outside, "passwd")
	sum := sha256.Sum256([]byte(PasswdLike))
	if res.Targets[passwd] != hex.EncodeToString(sum[:]) {
		t.Errorf("passwd sha256 = %q", res.Targets[passwd])
	}
	if _, err := Write(home+"2", SymlinksOut, Options{Outside: filepath.Join(home+"2", "in")}); err == nil {
		t.Error("an outside folder inside the home was accepted")
	}
}

func TestWriteRefusesNonEmptyAndUnknown(t *testing.T) {
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "x"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Write(home, Escapes, small); err == nil {
		t.Error("a non-empty folder was accepted")
	}
	if _, err := Write(filepath.Join(t.TempDir(), "h"), "nope", small); err == nil {
		t.Error("an unknown scenario was accepted")
	}
}

func TestWriteBigLineLengths(t *testing.T) {
	home := t.TempDir()
	res, err := Write(home, BigLine, small)
	if err != nil {
		t.Fatal(err)
	}
	longest := func(rel string) int {
		data, err := os.ReadFile(filepath.Join(home, rel))
		if err != nil {
			t.Fatal(err)
		}
		m := 0
		for _, l := range strings.Split(string(data), "\n") {
			m = max(m, len(l))
		}
		return m
	}
	for _, rel := range []string{res.Transcript, "history.jsonl", res.MemoryDir + "/big_body.md"} {
		if n := longest(rel); n < int(small.Size) || n > int(small.Size)+1000 {
			t.Errorf("%s: longest line %d bytes, want about %d", rel, n, small.Size)
		}
	}
}

func TestForbiddenInOutput(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want bool
	}{
		{"plain\ttext\n", true},
		{"<U+202E> shown", true},
		{"a\x1bb", false},
		{"bell\a", false},
		{"c1\u009b", false},
		{"bidi\u2066", false},
		{"cr\r", false},
		{"é ü 日本", true},
	} {
		if _, _, ok := ForbiddenInOutput(tc.in); ok != tc.want {
			t.Errorf("ForbiddenInOutput(%q) ok = %v, want %v", tc.in, ok, tc.want)
		}
	}
}

// Special puts the asked kind at each place, and only there; without a
// place, at every place.
func TestWriteSpecial(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("named pipes are a unix matter")
	}
	for _, kind := range SpecialKinds {
		home := filepath.Join(t.TempDir(), "home")
		res, err := Write(home, Special, Options{Kind: kind})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Special) != len(SpecialPlaces()) {
			t.Errorf("%s: %d places spoiled, want %d", kind, len(res.Special), len(SpecialPlaces()))
		}
		for place, rel := range res.Special {
			st, err := os.Stat(filepath.Join(home, rel))
			if err != nil {
				t.Fatalf("%s %s: %v", kind, place, err)
			}
			isPipe, isDev := st.Mode()&os.ModeNamedPipe != 0, st.Mode()&os.ModeCharDevice != 0
			if kind == KindFIFO && !isPipe || kind != KindFIFO && !isDev {
				t.Errorf("%s %s: %s has mode %v", kind, place, rel, st.Mode())
			}
		}
	}
	home := filepath.Join(t.TempDir(), "home")
	res, err := Write(home, Special, Options{Place: "history"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Special) != 1 || res.Special["history"] != "history.jsonl" {
		t.Errorf("one place: %v", res.Special)
	}
	if st, err := os.Stat(filepath.Join(home, res.Transcript)); err != nil || !st.Mode().IsRegular() {
		t.Errorf("the transcript was spoiled too: %v", err)
	}
	if _, err := Write(filepath.Join(t.TempDir(), "h"), Special, Options{Place: "nowhere"}); err == nil {
		t.Error("an unknown place was accepted")
	}
}

// Huge's runs are as long as asked and cost no disk; LinkLoops' links
// point where the result says.
func TestWriteHugeAndLinkLoops(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links need privileges on windows")
	}
	home := filepath.Join(t.TempDir(), "home")
	res, err := Write(home, Huge, Options{Size: 8 << 20})
	if err != nil {
		t.Fatal(err)
	}
	for _, rel := range []string{res.MemoryDir + "/MEMORY.md", "CLAUDE.md", res.Paste} {
		st, err := os.Stat(filepath.Join(home, rel))
		if err != nil || st.Size() != 8<<20 {
			t.Errorf("%s: %v, size %d", rel, err, st.Size())
		}
	}
	if st, _ := os.Stat(filepath.Join(home, res.Transcript)); st.Size() < 8<<20 {
		t.Errorf("transcript is %d bytes", st.Size())
	}
	home = filepath.Join(t.TempDir(), "home")
	res, err = Write(home, LinkLoops, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Links) < 10 || len(res.Targets) == 0 {
		t.Errorf("%d links, %d targets", len(res.Links), len(res.Targets))
	}
	for rel, target := range res.Links {
		if got, err := os.Readlink(filepath.Join(home, rel)); err != nil || got != target {
			t.Errorf("%s → %q (%v), want %q", rel, got, err, target)
		}
	}
}

package ledger

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"
	"github.com/memscope/memscope/engine/diskcache"
	"github.com/memscope/memscope/engine/internal/enginetest"
	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/model"
)

func readTestdata(t testing.TB, name string) *model.Transcript {
	t.Helper()
	tr, err := model.ReadTranscriptWith(model.DirFS("testdata"), name, ScanOptions)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func lostTexts(b Boundary, k Kind) []string {
	var out []string
	for _, it := range b.Lost {
		if it.Kind == k {
			out = append(out, it.Text)
		}
	}
	return out
}

func has(ss []string, sub string) bool {
	for _, s := range ss {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// TestRulesSession runs the ledger on a session written for it
// (testdata/rules-session.jsonl): an automatic compaction whose summary
// names rules.go, the failing go test command, the pnpm rule and the
// migration todo, then a partial /compact that preserves the user's
// "Make sure every migration is reversible." and re-attaches nothing.
// Each expectation below was worked out from the fixture by hand; the
// golden (testdata/ledger_golden/rules-session.json) holds the whole
// result, read by eye: boundary 1 loses three rules (the database mock,
// the pasted table-test rule, gofmt), legacy.go and round_test.go, `ls
// internal` (ok), the README todo and MEMORY.md (attached at start, not
// re-attached); boundary 2 loses only the two CLAUDE.md files.
func TestRulesSession(t *testing.T) {
	tr := readTestdata(t, "rules-session.jsonl")
	l := Build(tr)
	if len(l.Boundaries) != 2 {
		t.Fatalf("boundaries = %d, want 2", len(l.Boundaries))
	}
	b1, b2 := l.Boundaries[0], l.Boundaries[1]
	rules := lostTexts(b1, KindRule)
	for _, want := range []string{"Never mock the database", "Always write table tests", "run gofmt before every commit"} {
		if !has(rules, want) {
			t.Errorf("boundary 1 rules %q: missing %q", rules, want)
		}
	}
	if has(rules, "pnpm") {
		t.Errorf("the summary says pnpm, not npm: the rule survives, got %q", rules)
	}
	if has(rules, "Why does the build") {
		t.Errorf("a question is not a rule: %q", rules)
	}
	if b1.Had[KindRule] != 4 {
		t.Errorf("boundary 1 had %d rules, want 4", b1.Had[KindRule])
	}
	files := lostTexts(b1, KindFile)
	if has(files, "rules.go") || !has(files, "legacy.go") || !has(files, "round_test.go") {
		t.Errorf("boundary 1 files = %q", files)
	}
	cmds := lostTexts(b1, KindCommand)
	if len(cmds) != 1 || cmds[0] != "ls internal" {
		t.Errorf("boundary 1 commands = %q, want [ls internal]", cmds)
	}
	if it, ok := b1.Item("c1"); !ok || it.Detail != "ok" {
		t.Errorf("c1 = %+v", it)
	}
	todos := lostTexts(b1, KindTodo)
	if len(todos) != 1 || !strings.Contains(todos[0], "README") {
		t.Errorf("boundary 1 todos = %q, want the README one only (the migration survives, the JPY test is done)", todos)
	}
	mem := lostTexts(b1, KindMemory)
	if len(mem) != 1 || !strings.HasSuffix(mem[0], "MEMORY.md") {
		t.Errorf("boundary 1 instruction files lost = %q, want MEMORY.md", mem)
	}
	if b2.Had[KindRule] != 1 || b2.Count(KindRule) != 0 {
		t.Errorf("boundary 2: the preserved rule must survive: had %d, lost %d", b2.Had[KindRule], b2.Count(KindRule))
	}
	if b2.Count(KindMemory) != 2 || b2.Count(KindFile) != 0 {
		t.Errorf("boundary 2 lost = %+v", b2.Lost)
	}
	if got := b1.CountsText(); got != "lost 3 rules, 2 files, 1 command, 1 todo, 1 instruction file" {
		t.Errorf("CountsText = %q", got)
	}
	goldenJSON(t, "rules-session", l)
}

// TestRealClientTranscripts runs the ledger on the two transcripts the
// real client wrote (prose replaced by filler, testdata/transcript-*.jsonl,
// copied from the shared formats folder). The partial-compactions file has
// two manual compactions; its prompts are lorem ipsum (no rules), it calls
// no tools, and both boundaries re-attach the same four instruction files
// as before: the ledger is empty, and says so ("lost nothing") with the
// four files attached on both sides. The pastes file never compacts.
func TestRealClientTranscripts(t *testing.T) {
	l := Build(readTestdata(t, "transcript-partial-compactions.jsonl"))
	if len(l.Boundaries) != 2 {
		t.Fatalf("boundaries = %d, want 2", len(l.Boundaries))
	}
	for _, b := range l.Boundaries {
		if len(b.Lost) != 0 || b.CountsText() != "lost nothing" {
			t.Errorf("boundary %d lost %+v", b.Index, b.Lost)
		}
		if len(b.Memory) != 4 {
			t.Errorf("boundary %d instruction files = %d, want 4", b.Index, len(b.Memory))
		}
		for _, m := range b.Memory {
			if !m.Before || !m.After {
				t.Errorf("boundary %d: %s before %v after %v", b.Index, m.Path, m.Before, m.After)
			}
		}
	}
	if l.Boundaries[1].Compaction != "manual" {
		t.Errorf("second boundary is %q", l.Boundaries[1].Compaction)
	}
	goldenJSON(t, "transcript-partial-compactions", l)
	if l := Build(readTestdata(t, "transcript-interactive-pastes.jsonl")); len(l.Boundaries) != 0 {
		t.Errorf("pastes transcript: %d boundaries, want none", len(l.Boundaries))
	}
}

func goldenJSON(t *testing.T, name string, v any) {
	t.Helper()
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	golden.RequireEqual(enginetest.GoldenNamed(t, "ledger_golden/"+name+".json"), append(b, '\n'))
}

// TestFindMarkAcrossChunks finds the boundary mark where it straddles
// findMark's 256 KiB reads, and not in a file without it; the bytes it
// hands back are the file's from the start, through the mark (the ledger
// decodes them without reading them again), or none past its limit.
func TestFindMarkAcrossChunks(t *testing.T) {
	for _, at := range []int{0, 256<<10 - 5, 256<<10 - 1, 256 << 10, 600 << 10} {
		data := bytes.Repeat([]byte("x"), 700<<10)
		copy(data[at:], compactMark)
		for _, size := range []int{0, len(data)} {
			read, ok, err := findMark(bytes.NewReader(data), "t.jsonl", compactMark, make([]byte, size), prefixMax)
			if err != nil || !ok || len(read) < at+len(compactMark) || !bytes.Equal(read, data[:len(read)]) {
				t.Errorf("mark at %d (room %d): found %v, %v, %d bytes back", at, size, ok, err, len(read))
			}
		}
		read, ok, err := findMark(bytes.NewReader(data), "t.jsonl", compactMark, nil, 300<<10)
		if want := at >= 300<<10; err != nil || !ok || (read == nil) != want {
			t.Errorf("mark at %d, limit 300 KiB: found %v, %v, %d bytes back (none: %v)", at, ok, err, len(read), want)
		}
	}
	data := bytes.Repeat([]byte("compact_bound"), 50000)
	for _, limit := range []int{prefixMax, 100 << 10} {
		if _, ok, _ := findMark(bytes.NewReader(data), "t.jsonl", compactMark, nil, limit); ok {
			t.Errorf("limit %d: found the mark in a file without it", limit)
		}
	}
}

// writeHome writes a home holding rules-session.jsonl (and, when pastes is
// set, the real client's pastes transcript, which never compacted) and
// returns its folder and the session's file.
func writeHome(t *testing.T, pastes bool) (dir, name string) {
	t.Helper()
	dir = t.TempDir()
	proj := filepath.Join(dir, "projects", "-work-shop")
	if err := os.MkdirAll(proj, 0o755); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{"5e1f0c2a-1111-4222-8333-444455556666.jsonl": "rules-session.jsonl"}
	if pastes {
		files["668e1d4c-98ed-55ff-b990-a2cdf6449cee.jsonl"] = "transcript-interactive-pastes.jsonl"
	}
	for dst, src := range files {
		data, err := os.ReadFile(filepath.Join("testdata", src))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(proj, dst), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, filepath.Join(proj, "5e1f0c2a-1111-4222-8333-444455556666.jsonl")
}

// TestHome lists only the transcripts that compacted.
func TestHome(t *testing.T) {
	dir, _ := writeHome(t, true)
	ss, probs := Home(model.DirFS(dir), dir, nil)
	if len(ss) != 1 || len(ss[0].Boundaries) != 2 || ss[0].File.SessionID != "5e1f0c2a-1111-4222-8333-444455556666" {
		t.Fatalf("sessions = %+v", ss)
	}
	if len(probs) != 0 {
		t.Errorf("problems = %v", probs)
	}
}

// TestHomeCache: a second run takes each unchanged transcript's ledger
// from memscope's cache without reading it (a planted entry with the
// file's stamp is what it returns), and a changed file is read again.
func TestHomeCache(t *testing.T) {
	dir, name := writeHome(t, false)
	src, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	cache := diskcache.New(filepath.Join(t.TempDir(), "cache"), testroot.New(t), model.OSWriteFS{})
	home := model.DirFS(dir)
	first, _ := Home(home, dir, cache)
	if len(first) != 1 || len(first[0].Boundaries) != 2 {
		t.Fatalf("first run: %+v", first)
	}
	kept, ok := diskcache.Load[map[string]diskcache.Entry[cachedLedger]](cache, cacheKind, diskcache.Name(cacheKind, dir))
	rel := first[0].File.Path
	if !ok || len(kept[rel].Value.Boundaries) != 2 {
		t.Fatalf("cache after the first run: %v %+v", ok, kept)
	}
	planted := kept[rel]
	planted.Value.Boundaries = planted.Value.Boundaries[:1]
	kept[rel] = planted
	if err := diskcache.Save(cache, cacheKind, diskcache.Name(cacheKind, dir), kept); err != nil {
		t.Fatal(err)
	}
	if again, _ := Home(home, dir, cache); len(again) != 1 || len(again[0].Boundaries) != 1 {
		t.Fatalf("second run did not use the cache: %+v", again)
	}
	if err := os.WriteFile(name, append(src, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	if changed, _ := Home(home, dir, cache); len(changed) != 1 || len(changed[0].Boundaries) != 2 {
		t.Fatalf("a changed file was not read again: %+v", changed)
	}
}

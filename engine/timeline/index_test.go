package timeline

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memscope/memscope/engine/window"
	"github.com/memscope/memscope/model"
)

// replayOfFile indexes name in fsys and builds its replay, reading
// records again through a Rereader, with turns and steps in memory.
func replayOfFile(t *testing.T, fsys fs.FS, name string, w window.Config, size int64) (Timeline, []string, []string, error) {
	t.Helper()
	ix, err := ReadIndex(fsys, name)
	if err != nil {
		t.Fatal(err)
	}
	rr, err := model.OpenRereader(fsys, name, model.ScanOptions{Content: true})
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Close()
	rp, err := BuildReplay(ix, func(i int32) (*model.Record, error) { return ix.Reread(rr, i) }, w, size)
	if err != nil {
		return Timeline{}, nil, nil, err
	}
	tl, err := rp.Whole()
	return tl, rp.UUIDs(rp.Messages), rp.UUIDs(rp.Preserved), err
}

func uuidsOf(rs []*model.Record) []string {
	out := make([]string, 0, len(rs))
	for _, r := range rs {
		out = append(out, r.UUID)
	}
	return out
}

// sameAsTree checks that the indexed replay of name equals Build on the
// transcript read whole, field for field (as JSON) and in the resume's
// records, at the file's size and as if it were over the 5 MiB rule.
func sameAsTree(t *testing.T, fsys fs.FS, name string) {
	t.Helper()
	tr, err := model.ReadTranscript(fsys, name)
	if err != nil {
		t.Fatal(err)
	}
	st, err := fs.Stat(fsys, name)
	if err != nil {
		t.Fatal(err)
	}
	for _, size := range []int64{st.Size(), LargeTranscriptBytes + 1} {
		want := treeBuild(tr, window.Size200k(), size)
		wj, _ := json.MarshalIndent(want, "", " ")
		got, msgs, pres, err := replayOfFile(t, fsys, name, window.Size200k(), size)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		inTree := Build(tr, window.Size200k(), size)
		for _, c := range []struct {
			how        string
			got        Timeline
			msgs, pres []string
		}{
			{"the file's index", got, msgs, pres},
			{"the tree's index (Build)", inTree, uuidsOf(inTree.Resume.Messages), uuidsOf(inTree.Resume.Preserved)},
		} {
			gj, _ := json.MarshalIndent(c.got, "", " ")
			if !bytes.Equal(wj, gj) {
				t.Errorf("%s (size %d): replay on %s differs from the tree's:\n%s", name, size, c.how, firstDiff(wj, gj))
			}
			if w, g := strings.Join(uuidsOf(want.Resume.Messages), " "), strings.Join(c.msgs, " "); w != g {
				t.Errorf("%s (size %d): %s: resume messages\n got %.300s\nwant %.300s", name, size, c.how, g, w)
			}
			if w, g := strings.Join(uuidsOf(want.Resume.Preserved), " "), strings.Join(c.pres, " "); w != g {
				t.Errorf("%s (size %d): %s: preserved %s, want %s", name, size, c.how, g, w)
			}
		}
	}
	// Each step's state (the resume as the file stood there).
	tl := Build(tr, window.Size200k(), st.Size())
	for k, s := range tl.Steps {
		want := ResumeTranscript(tr, ResumeOptions{AtLine: s.Line, Leaf: s.Leaf})
		got := tl.State(k)
		wj, _ := json.Marshal(want)
		gj, _ := json.Marshal(got)
		if !bytes.Equal(wj, gj) || strings.Join(uuidsOf(want.Messages), " ") != strings.Join(uuidsOf(got.Messages), " ") ||
			strings.Join(uuidsOf(want.Preserved), " ") != strings.Join(uuidsOf(got.Preserved), " ") {
			t.Errorf("%s: state at step %d differs from the tree's resume:\n got %s\nwant %s", name, k, gj, wj)
		}
	}
}

func firstDiff(a, b []byte) string {
	la, lb := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	for i := range min(len(la), len(lb)) {
		if la[i] != lb[i] {
			return fmt.Sprintf("line %d:\nwant %s\n got %s", i+1, la[i], lb[i])
		}
	}
	return fmt.Sprintf("lengths %d and %d lines", len(la), len(lb))
}

// The indexed replay equals the tree's on every transcript of the
// repository's fixtures.
func TestIndexedReplayEqualsTreeOnFixtures(t *testing.T) {
	n := 0
	for _, dir := range []string{"../../testdata/home", "../../model/testdata", "../ledger/testdata"} {
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".jsonl") || d.Name() == "history.jsonl" {
				return err
			}
			n++
			sameAsTree(t, os.DirFS(filepath.Dir(p)), d.Name())
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if n < 10 {
		t.Fatalf("only %d fixture transcripts found", n)
	}
}

// The indexed replay equals the tree's on the long synthetic session of
// the benchmark and on random trees: rewinds, sidechains, duplicate and
// forward and missing parents, cycles, partial compactions with whole and
// broken preserved segments, multi-line responses, CRLF and a BOM.
func TestIndexedReplayEqualsTreeOnGenerated(t *testing.T) {
	dir := t.TempDir()
	f, err := os.Create(filepath.Join(dir, "synthetic.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := writeSyntheticTranscript(f, 2<<20); err != nil {
		t.Fatal(err)
	}
	f.Close()
	sameAsTree(t, os.DirFS(dir), "synthetic.jsonl")
	for seed := range uint64(40) {
		name := fmt.Sprintf("random-%d.jsonl", seed)
		if err := os.WriteFile(filepath.Join(dir, name), randomTranscript(seed, 300), 0o600); err != nil {
			t.Fatal(err)
		}
		sameAsTree(t, os.DirFS(dir), name)
	}
}

// randomTranscript writes n records in a random message tree.
func randomTranscript(seed uint64, n int) []byte {
	rng := rand.New(rand.NewPCG(seed, 7))
	var b bytes.Buffer
	nl := "\n"
	if seed%5 == 1 {
		nl = "\r\n"
	}
	if seed%7 == 2 {
		b.WriteString("\ufeff")
	}
	var uuids []string
	uuidOf := func(i int) string {
		if rng.IntN(8) == 0 {
			return fmt.Sprintf("r%d", i)
		}
		return fmt.Sprintf("%08x-0000-4000-8000-%012x", seed, i)
	}
	q := func(s string) string {
		if s == "" {
			return "null"
		}
		return `"` + s + `"`
	}
	pick := func() string {
		if len(uuids) == 0 {
			return ""
		}
		return uuids[rng.IntN(len(uuids))]
	}
	prev, msg := "", 0
	for i := range n {
		u := uuidOf(i)
		if rng.IntN(40) == 0 && len(uuids) > 0 {
			u = pick() // a duplicate
		}
		parent := prev
		switch k := rng.IntN(40); {
		case k < 3:
			parent = pick()
		case k < 4:
			parent = uuidOf(i + 1 + rng.IntN(5)) // forward, or missing
		case k < 5:
			parent = "gone-" + u
		case k < 6:
			parent = ""
		}
		side := rng.IntN(10) == 0
		ts := fmt.Sprintf("2026-11-%02dT10:%02d:%02d.%03dZ", 1+i/1000%28, i/60%60, i%60, i%1000)
		if i%13 == 0 {
			ts = fmt.Sprintf("2026-11-01T10:00:%02d+02:00", i%60)
		}
		common := fmt.Sprintf(`"uuid":%s,"parentUuid":%s,"isSidechain":%v,"timestamp":%q,"sessionId":"s-%d","cwd":"/w"`, q(u), q(parent), side, ts, seed)
		if side {
			common += fmt.Sprintf(`,"agentId":"ag%d"`, rng.IntN(3))
		}
		var line string
		switch k := rng.IntN(100); {
		case k < 30:
			line = fmt.Sprintf(`{"type":"user",%s,"message":{"role":"user","content":"prompt %d %s"}}`, common, i, strings.Repeat("x", rng.IntN(400)))
		case k < 36:
			line = fmt.Sprintf(`{"type":"user",%s,"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t%d","content":"%s"}]}}`, common, i, strings.Repeat("r", rng.IntN(2000)))
		case k < 70:
			if rng.IntN(3) > 0 {
				msg++
			}
			ids := fmt.Sprintf(`"requestId":"req_%d",`, msg)
			mid := fmt.Sprintf(`"id":"msg_%d",`, msg)
			if rng.IntN(15) == 0 {
				ids, mid = "", ""
			}
			line = fmt.Sprintf(`{"type":"assistant",%s%s,"message":{%s"role":"assistant","model":"claude-x","content":[{"type":"text","text":"%s"}],"usage":{"input_tokens":%d,"output_tokens":%d,"cache_read_input_tokens":%d}}}`,
				ids, common, mid, strings.Repeat("a", rng.IntN(300)), rng.IntN(5000), rng.IntN(900), rng.IntN(150000))
		case k < 75:
			line = fmt.Sprintf(`{"type":"attachment",%s,"attachment":{"type":"prompt_snapshot","content":"%s"}}`, common, strings.Repeat("s", rng.IntN(3000)))
		case k < 78:
			line = fmt.Sprintf(`{"type":"attachment",%s,"attachment":{"type":"nested_memory","content":"%s"}}`, common, strings.Repeat("m", rng.IntN(800)))
		case k < 84:
			seg := ""
			if rng.IntN(2) == 0 {
				seg = fmt.Sprintf(`,"preservedSegment":{"headUuid":%s,"anchorUuid":%s,"tailUuid":%s}`, q(pick()), q(uuidOf(i+1)), q(pick()))
			}
			bu, lp := u, prev
			if rng.IntN(6) == 0 {
				bu = ""
			}
			line = fmt.Sprintf(`{"type":"system","subtype":"compact_boundary","uuid":%s,"parentUuid":null,"logicalParentUuid":%s,"timestamp":%q,"sessionId":"s-%d","content":"Conversation compacted","compactMetadata":{"trigger":"auto","preTokens":%d,"postTokens":%d%s}}`,
				q(bu), q(lp), ts, seed, 100000+rng.IntN(90000), rng.IntN(9000), seg)
			u = bu
			if u != "" {
				uuids = append(uuids, u)
				b.WriteString(line + nl)
				prev = u
				// its summary
				s := uuidOf(i + 1)
				line = fmt.Sprintf(`{"type":"user","uuid":%q,"parentUuid":%q,"isCompactSummary":true,"timestamp":%q,"sessionId":"s-%d","message":{"role":"user","content":"summary %s"},"summarizeMetadata":{"direction":"from"}}`, s, u, ts, seed, strings.Repeat("z", rng.IntN(900)))
				u = s
			}
		case k < 86:
			line = fmt.Sprintf(`{"type":"system","subtype":"microcompact_boundary",%s,"microcompactMetadata":{"trigger":"auto","preTokens":%d,"tokensSaved":%d}}`, common, rng.IntN(100000), rng.IntN(9000))
		case k < 92:
			leaf := pick()
			if rng.IntN(4) == 0 {
				leaf = "nowhere"
			}
			line = fmt.Sprintf(`{"type":"last-prompt","lastPrompt":"p","leafUuid":%q,"sessionId":"s-%d"}`, leaf, seed)
			u = ""
		case k < 95:
			line = fmt.Sprintf(`{"type":"api-request-blob","hash":"h%d"}`, i)
			u = ""
		case k < 97:
			line = `{"type":"user","uuid":"broken", "message": {`
			u = ""
		default:
			line = fmt.Sprintf(`{"type":"summary","summary":"old","leafUuid":%q}`, pick())
			u = ""
		}
		b.WriteString(line + nl)
		if u != "" {
			uuids = append(uuids, u)
			prev = u
		}
	}
	return b.Bytes()
}

// A line rewritten between the index and the reading of a turn is
// reported with the file and line, not read as the record indexed.
func TestIndexedReplayReportsChangedLine(t *testing.T) {
	dir := t.TempDir()
	lines := []string{
		`{"type":"user","uuid":"u1","parentUuid":null,"timestamp":"2026-11-01T10:00:00.000Z","message":{"role":"user","content":"hi"}}`,
		`{"type":"assistant","uuid":"a1","parentUuid":"u1","requestId":"r1","timestamp":"2026-11-01T10:00:01.000Z","message":{"id":"m1","role":"assistant","content":"ok","usage":{"input_tokens":5,"output_tokens":2}}}`,
	}
	path := filepath.Join(dir, "s.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	fsys := os.DirFS(dir)
	ix, err := ReadIndex(fsys, "s.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	rr, err := model.OpenRereader(fsys, "s.jsonl", model.ScanOptions{Content: true})
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Close()
	rp, err := BuildReplay(ix, func(i int32) (*model.Record, error) { return ix.Reread(rr, i) }, window.Size200k(), 0)
	if err != nil || rp.TurnCount() != 1 {
		t.Fatalf("%d turns, %v", rp.TurnCount(), err)
	}
	// Same length, another uuid: a rewrite (a local cleanup) since.
	if err := os.WriteFile(path, []byte(lines[0]+"\n"+strings.Replace(lines[1], `"a1"`, `"a2"`, 1)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = rp.Turn(0)
	if !errors.Is(err, model.ErrLineChanged) || !strings.Contains(err.Error(), "s.jsonl line 2") {
		t.Errorf("turn of a rewritten line: %v, want ErrLineChanged naming s.jsonl line 2", err)
	}
	if _, err := rp.Step(0); !errors.Is(err, model.ErrLineChanged) {
		t.Errorf("step of a rewritten line: %v, want ErrLineChanged", err)
	}
}

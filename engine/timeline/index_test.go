package timeline

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memscope/memscope/engine/internal/enginetest"
	"github.com/memscope/memscope/engine/window"
	"github.com/memscope/memscope/internal/testenv"
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
				t.Errorf("%s (size %d): replay on %s differs from the tree's:\n%s", name, size, c.how, enginetest.FirstDiff(wj, gj))
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

// The indexed replay equals the tree's on every transcript of the
// repository's fixtures.
func TestIndexedReplayEqualsTreeOnFixtures(t *testing.T) {
	for _, p := range enginetest.FixtureTranscripts(t) {
		sameAsTree(t, os.DirFS(filepath.Dir(p)), filepath.Base(p))
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
	for seed := range uint64(testenv.Size(t, 40, 12)) {
		name := fmt.Sprintf("random-%d.jsonl", seed)
		if err := os.WriteFile(filepath.Join(dir, name), enginetest.RandomTranscript(seed, 300), 0o600); err != nil {
			t.Fatal(err)
		}
		sameAsTree(t, os.DirFS(dir), name)
	}
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

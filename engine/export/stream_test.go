package export

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
	"github.com/memscope/memscope/internal/genhome"
	"github.com/memscope/memscope/internal/testenv"
	"github.com/memscope/memscope/model"
)

var allFormats = []Format{Markdown, HTML, JSON}

// sameExportAsTree checks that the streamed export of src (Write, in
// every format, twice as a retried write does, and Whole) is byte for
// byte the tree export's (build_tree_ref_test.go), the JSON also against
// the encoder's own output of the whole tree export.
func sameExportAsTree(t *testing.T, src SessionSource) {
	t.Helper()
	tree, err := treeLoadSessionExport(src, exportNow)
	if err != nil {
		t.Fatalf("%s: tree: %v", src.Transcript, err)
	}
	s, err := OpenSession(src, exportNow)
	if err != nil {
		t.Fatalf("%s: %v", src.Transcript, err)
	}
	defer s.Close()
	whole, err := s.Whole()
	if err != nil {
		t.Fatalf("%s: whole: %v", src.Transcript, err)
	}
	wj, _ := marshalExport(tree)
	if gj, _ := marshalExport(whole); !bytes.Equal(wj, gj) {
		t.Errorf("%s: the streamed export held whole differs from the tree's:\n%s", src.Transcript, enginetest.FirstDiff(wj, gj))
	}
	for _, f := range allFormats {
		want, err := RenderSessionExport(tree, f)
		if err != nil {
			t.Fatal(err)
		}
		if f == JSON && !bytes.Equal(want, wj) {
			t.Errorf("%s: the JSON written an entry at a time differs from the encoder's:\n%s", src.Transcript, enginetest.FirstDiff(wj, want))
		}
		for try := range 2 {
			var got bytes.Buffer
			if err := s.Write(&got, f); err != nil {
				t.Fatalf("%s: write %s: %v", src.Transcript, f, err)
			}
			if !bytes.Equal(want, got.Bytes()) {
				t.Errorf("%s: streamed %s (write %d) differs from the tree's:\n%s", src.Transcript, f, try+1, enginetest.FirstDiff(want, got.Bytes()))
			}
		}
	}
}

// The streamed export equals the tree's on every transcript of the
// repository's fixtures (the test home with its history and subagents,
// the shared formats' real transcripts, the model's and ledger's) and on
// the export's own fixture homes.
func TestStreamedExportEqualsTreeOnFixtures(t *testing.T) {
	n := 0
	home := os.DirFS("../../testdata/home")
	err := fs.WalkDir(home, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".jsonl") || p == model.HistoryPath {
			return err
		}
		n++
		sameExportAsTree(t, SessionSource{FS: home, Transcript: p, Home: home})
		return nil
	})
	if err != nil || n < 5 {
		t.Fatalf("%d transcripts in the test home: %v", n, err)
	}
	for _, p := range enginetest.FixtureTranscripts(t) {
		sameExportAsTree(t, SessionSource{FS: os.DirFS(filepath.Dir(p)), Transcript: filepath.Base(p)})
	}
	for _, c := range fxCases {
		h := c.home()
		sameExportAsTree(t, SessionSource{FS: h, Transcript: fxHome + fxSession + ".jsonl", Home: h})
	}
}

// The streamed export equals the tree's on random message trees (each
// with a random subagent transcript) and on every session of a generated
// home.
func TestStreamedExportEqualsTreeOnGenerated(t *testing.T) {
	dir := t.TempDir()
	for seed := range uint64(testenv.Size(t, 40, 12)) {
		name := fmt.Sprintf("random-%d.jsonl", seed)
		sub := filepath.Join(dir, fmt.Sprintf("random-%d", seed), "subagents")
		if err := os.MkdirAll(sub, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), enginetest.RandomTranscript(seed, 300), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(sub, "agent-a1.jsonl"), enginetest.RandomTranscript(seed+100, 60), 0o600); err != nil {
			t.Fatal(err)
		}
		sameExportAsTree(t, SessionSource{FS: os.DirFS(dir), Transcript: name})
	}
	gen := t.TempDir()
	if err := genhome.Run(gen, "1M", "7"); err != nil {
		t.Fatal(err)
	}
	home := os.DirFS(gen)
	files, _ := model.FindTranscripts(home)
	n := 0
	for _, f := range files {
		if f.Kind != model.TranscriptSubagent {
			n++
			sameExportAsTree(t, SessionSource{FS: home, Transcript: f.Path, Home: home})
		}
	}
	if n < 2 {
		t.Fatalf("only %d sessions in the generated home", n)
	}
}

// A line rewritten between the index and the writing of its entry is an
// error naming the file and line, not an entry of another record.
func TestStreamedExportReportsChangedLine(t *testing.T) {
	dir := t.TempDir()
	lines := []string{
		`{"type":"user","uuid":"u1","parentUuid":null,"timestamp":"2026-11-01T10:00:00.000Z","message":{"role":"user","content":"hi"}}`,
		`{"type":"assistant","uuid":"a1","parentUuid":"u1","requestId":"r1","timestamp":"2026-11-01T10:00:01.000Z","message":{"id":"m1","role":"assistant","content":"ok","usage":{"input_tokens":5,"output_tokens":2}}}`,
	}
	p := filepath.Join(dir, "s.jsonl")
	if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := OpenSession(SessionSource{FS: os.DirFS(dir), Transcript: "s.jsonl"}, exportNow)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := os.WriteFile(p, []byte(lines[0]+"\n"+strings.Replace(lines[1], `"a1"`, `"a2"`, 1)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, f := range allFormats {
		var b bytes.Buffer
		err := s.Write(&b, f)
		if !errors.Is(err, model.ErrLineChanged) || !strings.Contains(err.Error(), "s.jsonl line 2") {
			t.Errorf("%s: %v, want ErrLineChanged naming s.jsonl line 2", f, err)
		}
	}
}

// The header OpenSession works out is the whole export's but the
// entries: what a caller checks before writing (the CLI's --out guard
// reads the subagent sources from it).
func TestSessionStreamHeader(t *testing.T) {
	h := fxSidechain()
	s, err := OpenSession(SessionSource{FS: h, Transcript: fxHome + fxSession + ".jsonl", Home: h}, exportNow)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	whole, err := s.Whole()
	if err != nil {
		t.Fatal(err)
	}
	x := s.Header()
	if len(x.Conversation) != 0 || len(whole.Conversation) == 0 {
		t.Fatalf("header holds %d entries, whole %d", len(x.Conversation), len(whole.Conversation))
	}
	strip := *whole
	strip.Conversation = []Entry{}
	strip.Sidechains = nil
	for _, sc := range whole.Sidechains {
		sc.Entries = []Entry{}
		strip.Sidechains = append(strip.Sidechains, sc)
	}
	a, _ := json.Marshal(x)
	b, _ := json.Marshal(&strip)
	if !bytes.Equal(a, b) || len(x.Sidechains) < 2 {
		t.Errorf("header %s\nwant %s", a, b)
	}
}

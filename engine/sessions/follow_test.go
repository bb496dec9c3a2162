package sessions

import (
	"bytes"
	"io/fs"
	"math/rand/v2"
	"os"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/memscope/memscope/model"
)

// A Follower fed a transcript in pieces cut anywhere (mid-line, mid
// character) has, after each piece, the summary the model's reader gives
// for the complete lines written so far.
func TestFollowerEqualsWholeSummary(t *testing.T) {
	t.Parallel()
	src := os.DirFS("../../testdata/home")
	var files []string
	fs.WalkDir(src, "projects", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".jsonl") {
			files = append(files, p)
		}
		return nil
	})
	if len(files) < 3 {
		t.Fatalf("found %d transcripts in the test home", len(files))
	}
	rng := rand.New(rand.NewPCG(7, 8))
	for _, name := range files {
		data, err := fs.ReadFile(src, name)
		if err != nil {
			t.Fatal(err)
		}
		fsys := fstest.MapFS{}
		f := NewFollower()
		for n, step := 0, 0; n < len(data); step++ {
			n = min(len(data), n+1+rng.IntN(max(len(data)/6, 1)))
			fsys[name] = &fstest.MapFile{Data: data[:n], ModTime: time.Unix(int64(step), 0)}
			got, err := f.Update(fsys, name)
			if err != nil {
				t.Fatal(err)
			}
			complete := data[:bytes.LastIndexByte(data[:n], '\n')+1]
			want, _ := model.SummarizeTranscript(fstest.MapFS{name: {Data: complete}}, name)
			if !reflect.DeepEqual(normal(got), normal(want)) {
				t.Fatalf("%s after %d of %d bytes:\n got %+v\nwant %+v", name, n, len(data), got, want)
			}
		}
	}
}

// normal makes empty and missing maps and slices compare equal.
func normal(s model.TranscriptSummary) model.TranscriptSummary {
	if len(s.Types) == 0 {
		s.Types = nil
	}
	if len(s.Subtypes) == 0 {
		s.Subtypes = nil
	}
	if len(s.Problems) == 0 {
		s.Problems = nil
	}
	return s
}

// A transcript replaced by another file (the same name) is summarized
// from its start: nothing of the old one remains.
func TestFollowerStartsOverOnAReplacedFile(t *testing.T) {
	t.Parallel()
	line := func(ts string) string {
		return `{"type":"user","timestamp":"` + ts + `","sessionId":"s","message":{"role":"user","content":"hi"}}` + "\n"
	}
	fsys := fstest.MapFS{"t.jsonl": {Data: []byte(line("2026-11-11T10:00:00.000Z") + line("2026-11-11T10:01:00.000Z"))}}
	f := NewFollower()
	if s, err := f.Update(fsys, "t.jsonl"); err != nil || s.Records != 2 {
		t.Fatalf("first read: %d records, %v", s.Records, err)
	}
	fsys["t.jsonl"] = &fstest.MapFile{Data: []byte(line("2026-11-12T09:00:00.000Z"))}
	s, err := f.Update(fsys, "t.jsonl")
	if err != nil || s.Records != 1 || s.First.Day() != 12 {
		t.Fatalf("after the file was replaced: %d records from %v, %v", s.Records, s.First, err)
	}
	delete(fsys, "t.jsonl")
	if _, err := f.Update(fsys, "t.jsonl"); err == nil {
		t.Fatal("a missing transcript is no error")
	}
}

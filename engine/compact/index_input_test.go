package compact

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/memscope/memscope/engine/internal/enginetest"
	"github.com/memscope/memscope/engine/timeline"
	"github.com/memscope/memscope/internal/testenv"
	"github.com/memscope/memscope/model"
)

// sameInputAsTree checks that InputFromIndex on name equals
// InputFromResume on the transcript read whole, at the file's size and
// as if it were over the resume's 5 MiB rule, and that the pipeline
// writes the same records from both. It returns how many records the
// pipeline wrote.
func sameInputAsTree(t *testing.T, fsys fs.FS, name string) (wrote int) {
	t.Helper()
	scan := model.ScanOptions{Content: true, KeepText: true}
	tr, err := model.ReadTranscriptWith(fsys, name, scan)
	if err != nil && tr == nil {
		t.Fatal(err)
	}
	ix, err := timeline.ReadIndex(fsys, name)
	if err != nil && ix == nil {
		t.Fatal(err)
	}
	rr, err := model.OpenRereader(fsys, name, scan)
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Close()
	st, err := fs.Stat(fsys, name)
	if err != nil {
		t.Fatal(err)
	}
	for _, size := range []int64{st.Size(), timeline.LargeTranscriptBytes + 1} {
		opts := timeline.ResumeOptions{FileSize: size}
		want := InputFromResume(tr, timeline.ResumeTranscript(tr, opts))
		got, err := InputFromIndex(ix, opts, func(i int32) (*model.Record, error) { return ix.ReadAgain(rr, i) })
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !reflect.DeepEqual(want, got) {
			t.Errorf("%s (size %d): the input from the index differs from the tree's:\n got %+v\nwant %+v", name, size, got.Session, want.Session)
			continue
		}
		var res [2]Result
		for k, in := range []Input{want, got} {
			cfg := DefaultConfig(smallWindow)
			n := 0
			cfg.NewUUID = func() string { n++; return fmt.Sprintf("00000000-0000-4000-8000-%012d", n) }
			if res[k], err = Run(in, cfg, &State{}, enginetest.OpsNow); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
		}
		if !reflect.DeepEqual(res[0].Records, res[1].Records) || len(res[0].Stages) != len(res[1].Stages) {
			t.Errorf("%s (size %d): the pipeline wrote other records from the index's input", name, size)
		}
		wrote += len(res[0].Records)
	}
	return wrote
}

// The compaction input read from the index (only the resume chain read
// again) equals the tree's on every fixture transcript and on random
// message trees.
func TestIndexedInputEqualsTree(t *testing.T) {
	for _, p := range enginetest.FixtureTranscripts(t) {
		_ = sameInputAsTree(t, os.DirFS(filepath.Dir(p)), filepath.Base(p))
	}
	dir := t.TempDir()
	wrote := 0
	for seed := range uint64(testenv.Size(t, 40, 12)) {
		name := fmt.Sprintf("random-%d.jsonl", seed)
		if err := os.WriteFile(filepath.Join(dir, name), enginetest.RandomTranscript(seed, 300), 0o600); err != nil {
			t.Fatal(err)
		}
		wrote += sameInputAsTree(t, os.DirFS(dir), name)
	}
	if wrote == 0 {
		t.Errorf("the pipeline compacted none of the random sessions")
	}
	t.Logf("%d records written from the random sessions", wrote)
}

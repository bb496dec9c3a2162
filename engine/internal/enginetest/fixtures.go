package enginetest

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// FixtureTranscripts are the paths of the repository's fixture
// transcripts (the test home's, the model's with the shared formats'
// real ones, the ledger's), history files left out, for tests that
// compare two ways of reading every one. It fails t when there are
// fewer than ten.
func FixtureTranscripts(t testing.TB) []string {
	t.Helper()
	var out []string
	for _, dir := range []string{"../../testdata/home", "../../model/testdata", "../ledger/testdata"} {
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".jsonl") || d.Name() == "history.jsonl" {
				return err
			}
			out = append(out, p)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(out) < 10 {
		t.Fatalf("only %d fixture transcripts found", len(out))
	}
	return out
}

// FirstDiff says where two texts first differ, by line.
func FirstDiff(a, b []byte) string {
	la, lb := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	for i := range min(len(la), len(lb)) {
		if la[i] != lb[i] {
			return fmt.Sprintf("line %d:\nwant %.400s\n got %.400s", i+1, la[i], lb[i])
		}
	}
	return fmt.Sprintf("lengths %d and %d lines", len(la), len(lb))
}

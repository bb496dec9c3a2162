package enginetest

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"

	"github.com/memscope/memscope/model"
)

const RealDir = "../../model/testdata/transcripts"

// RealTranscripts are the real transcripts (prose replaced) in
// model/testdata, by base name.
func RealTranscripts(t testing.TB) map[string][]byte {
	t.Helper()
	paths, _ := filepath.Glob(filepath.Join(RealDir, "*.jsonl"))
	if len(paths) == 0 {
		t.Fatalf("no real transcripts in %s", RealDir)
	}
	out := map[string][]byte{}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(p)] = data
	}
	return out
}

func ReadReal(t testing.TB, name string) *model.Transcript {
	t.Helper()
	tr, err := model.ReadTranscriptWith(os.DirFS(RealDir), name, model.ScanOptions{Content: true, KeepText: true})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// Line writes one chain record; parent "" is null. extra is appended
// inside the object.
func Line(typ, uuid, parent, extra string) string {
	p := "null"
	if parent != "" {
		p = fmt.Sprintf("%q", parent)
	}
	return fmt.Sprintf(`{"type":%q,"uuid":%q,"parentUuid":%s%s}`, typ, uuid, p, extra) + "\n"
}

func Boundary(uuid, logical string, preserved string) string {
	meta := `{"trigger":"manual","preTokens":1000`
	if preserved != "" {
		meta += `,` + preserved
	}
	meta += `}`
	return Line("system", uuid, "", fmt.Sprintf(`,"subtype":"compact_boundary","logicalParentUuid":%q,"compactMetadata":%s`, logical, meta))
}

func Segment(head, anchor, tail string) string {
	return fmt.Sprintf(`"preservedSegment":{"headUuid":%q,"anchorUuid":%q,"tailUuid":%q}`, head, anchor, tail)
}

func LastPrompt(leaf string) string {
	return fmt.Sprintf(`{"type":"last-prompt","lastPrompt":"p","leafUuid":%q}`, leaf) + "\n"
}

func BuildTranscript(t testing.TB, s string) *model.Transcript {
	t.Helper()
	tr, err := model.ReadTranscriptWith(fstest.MapFS{"t.jsonl": {Data: []byte(s)}}, "t.jsonl", model.ScanOptions{Content: true, KeepText: true})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// AssertAfterBoundary checks the resume property: no message from before
// the boundary unless it is in the preserved segment.
func AssertAfterBoundary(t *testing.T, fromBoundary string, fallback bool, msgs, preserved []*model.Record) {
	t.Helper()
	if fromBoundary == "" || fallback {
		return
	}
	b := msgs[0]
	pres := map[*model.Record]bool{}
	for _, p := range preserved {
		pres[p] = true
	}
	for _, m := range msgs {
		if m.Line < b.Line && !pres[m] {
			t.Errorf("message %s (line %d) is from before boundary line %d", m.UUID, m.Line, b.Line)
		}
	}
}

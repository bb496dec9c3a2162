package inventory

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/memscope/memscope/engine/internal/enginetest"
	"github.com/memscope/memscope/model"
)

func TestStatUsesTheFastScanner(t *testing.T) {
	files := enginetest.RealTranscripts(t)
	fsys := fstest.MapFS{}
	var want model.Usage
	for name, data := range files {
		p := "projects/-home-me-app/" + strings.TrimSuffix(name, ".jsonl") + ".jsonl"
		fsys[p] = &fstest.MapFile{Data: data}
		s, err := model.SummarizeTranscript(fsys, p)
		if err != nil {
			t.Fatal(err)
		}
		want = want.Add(s.Usage)
	}
	rep := Stat(Options{Home: &model.Home{Dir: "/h", FS: fsys, Source: model.HomeFromFlag}})
	if rep.Usage != want || rep.Transcripts != len(files) {
		t.Errorf("stat usage %+v over %d transcripts, model says %+v over %d", rep.Usage, rep.Transcripts, want, len(files))
	}
}

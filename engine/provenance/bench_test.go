package provenance

import (
	"testing"

	"github.com/memscope/memscope/engine/internal/enginetest"
	"github.com/memscope/memscope/internal/testenv"
	"github.com/memscope/memscope/model"
)

// BenchmarkScanHome is the byte-first scan of every transcript of the
// bench home (enginetest.BenchHome: 64 MB generated, or
// MEMSCOPE_BENCH_HOME) for calls on the memory folders of every project:
// what memscope origin and the Review pane pay on a big home. MB/s is
// over transcript bytes; MB/cpu-s stays meaningful on a shared machine.
func BenchmarkScanHome(b *testing.B) {
	h := enginetest.BenchHome(b)
	files, _ := model.FindTranscripts(h.FS)
	projects, _ := model.ListProjects(h.FS)
	var folders []Folder
	var n int64
	for _, t := range files {
		n += t.Size
	}
	for _, p := range projects {
		folders = append(folders, ProjectFolders(h.Dir, h.Dir+"/"+p.Dir+"/memory", "")[0])
	}
	if n == 0 || len(folders) == 0 {
		b.Fatal("bench home has no transcripts or projects")
	}
	b.SetBytes(n)
	b.ReportAllocs()
	c0 := testenv.ProcessCPU()
	var r Report
	for b.Loop() {
		r = Scan(Options{Home: h.FS, Transcripts: files, Folders: folders})
	}
	if c := testenv.ProcessCPU() - c0; c > 0 {
		b.ReportMetric(float64(n)*float64(b.N)/1e6/c.Seconds(), "MB/cpu-s")
	}
	b.ReportMetric(float64(r.Decoded), "decoded")
	b.ReportMetric(float64(len(r.Writes)), "writes")
}

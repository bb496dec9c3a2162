package homepass_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"testing/fstest"

	"github.com/memscope/memscope/engine/diskcache"
	"github.com/memscope/memscope/engine/doctor"
	"github.com/memscope/memscope/engine/homepass"
	"github.com/memscope/memscope/engine/inventory"
	"github.com/memscope/memscope/engine/ledger"
	"github.com/memscope/memscope/engine/provenance"
	"github.com/memscope/memscope/engine/secrets"
	"github.com/memscope/memscope/engine/sessions"
	"github.com/memscope/memscope/model"
)

// BenchmarkRiders is the shared pass of a cold start with every rider
// the app's start feeds (doctor, secrets, stat's summary, the ledger,
// provenance's first pass for one memory folder, the Projects list's
// last activity and the Replay list's followers of the first file's
// project) over transcripts held
// in memory (an fstest.MapFS, so no read costs a system call): the
// riders' work a line, which `valgrind --tool=cachegrind` counts in
// instructions. The transcripts are $MEMSCOPE_BENCH_HOME's (W) up to
// $MEMSCOPE_BENCH_MB megabytes (default 16), else testdata/home's.
//
//	MEMSCOPE_BENCH_HOME=$PWD/.cache/bench/W go test ./engine/homepass -run '^$' -bench Riders -benchmem
func BenchmarkRiders(b *testing.B) {
	dir, limit := filepath.Join("..", "..", "testdata", "home"), int64(16<<20)
	if h := os.Getenv("MEMSCOPE_BENCH_HOME"); h != "" {
		dir = h
	}
	if mb, err := strconv.Atoi(os.Getenv("MEMSCOPE_BENCH_MB")); err == nil && mb > 0 {
		limit = int64(mb) << 20
	}
	all, _ := model.FindTranscripts(model.DirFS(dir))
	mem := fstest.MapFS{}
	var files []model.TranscriptFile
	var n int64
	for _, t := range all {
		if n >= limit {
			break
		}
		d, err := os.ReadFile(filepath.Join(dir, t.Path))
		if err != nil {
			b.Fatal(err)
		}
		mem[t.Path] = &fstest.MapFile{Data: d, Mode: 0o644}
		files, n = append(files, t), n+int64(len(d))
	}
	if n == 0 {
		b.Fatal("no transcripts")
	}
	var home fs.FS = mem
	folders := []provenance.Folder{{Kind: provenance.KindProject, Dir: "/home/dev/work/p/memory"}}
	b.SetBytes(n)
	b.ReportAllocs()
	for b.Loop() {
		c := diskcache.New(filepath.Join(b.TempDir(), "cache"), model.DirFS("/"), model.OSWriteFS{})
		cs := []homepass.Consumer{doctor.NewFeed(c, "/h"), secrets.NewFeed(c, "/h"), inventory.NewFeed(c, "/h"), ledger.NewFeed(c, "/h"),
			provenance.NewFirstCacheOn(c, "/h").Feed(folders), sessions.NewActiveHandoff().Feed(c, "/h"),
			sessions.NewHandoff().Feed(files[0].ProjectSlug)}
		if st, _ := homepass.Run(home, files, 1, cs...); st.Bytes != n {
			b.Fatalf("read %d of %d bytes", st.Bytes, n)
		}
	}
}

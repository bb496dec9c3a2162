package provenance

import (
	"io/fs"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/memscope/memscope/internal/provgen"
	"github.com/memscope/memscope/model"
)

// gateFS counts the transcripts opened through it; while gate is open
// (not nil) each transcript's open waits for it to close, after saying
// so on entered.
type gateFS struct {
	fs.FS
	opens   atomic.Int64
	gate    chan struct{}
	entered chan struct{}
}

func (g *gateFS) Open(name string) (fs.File, error) {
	if strings.HasSuffix(name, ".jsonl") {
		g.opens.Add(1)
		if g.gate != nil {
			select {
			case g.entered <- struct{}{}:
			default:
			}
			<-g.gate
		}
	}
	return g.FS.Open(name)
}

// Two scans through one FirstCache at once (the app's start asks for the
// open project's inbox and its Overview line together) read each
// transcript once: the second waits for the first's entry instead of
// reading the file beside it, and both answer as a scan alone.
func TestFirstCacheOneReadAtATime(t *testing.T) {
	l, err := provgen.Write(t.TempDir(), now)
	if err != nil {
		t.Fatal(err)
	}
	files, _ := model.FindTranscripts(model.DirFS(l.Home))
	folders := ProjectFolders(l.Home, l.MemoryDir, l.Project)
	alone := &gateFS{FS: model.DirFS(l.Home)}
	want := Scan(Options{Home: alone, Transcripts: files, Folders: folders, Cache: NewFirstCache(), Workers: 1})
	if alone.opens.Load() == 0 {
		t.Fatal("a scan alone opened no transcript")
	}
	home := &gateFS{FS: model.DirFS(l.Home), gate: make(chan struct{}), entered: make(chan struct{}, 1)}
	c := NewFirstCache()
	var wg sync.WaitGroup
	got := make([]Report, 2)
	wg.Go(func() { got[0] = Scan(Options{Home: home, Transcripts: files, Folders: folders, Cache: c, Workers: 1}) })
	<-home.entered // the first scan is reading its first transcript
	wg.Go(func() { got[1] = Scan(Options{Home: home, Transcripts: files, Folders: folders, Cache: c, Workers: 1}) })
	// Let the second scan reach that transcript (it waits, or, without
	// the one-read rule, opens it too), then let both go.
	time.Sleep(100 * time.Millisecond)
	close(home.gate)
	wg.Wait()
	for i, r := range got {
		if !reflect.DeepEqual(r.Writes, want.Writes) {
			t.Errorf("scan %d: %d writes, a scan alone %d", i, len(r.Writes), len(want.Writes))
		}
	}
	if n, one := home.opens.Load(), alone.opens.Load(); n != one {
		t.Errorf("two scans at once opened transcripts %d times, one scan alone %d", n, one)
	}
}

package provenance

import (
	"io/fs"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/memscope/memscope/engine/homepass"
	"github.com/memscope/memscope/internal/provgen"
	"github.com/memscope/memscope/model"
)

// A scan that starts while the shared reader (homepass) runs a Feed
// waits for it rather than reading the transcripts itself: the Feed
// claimed them at Start and looks for the scan's folders too (the app's
// start: the open project's inbox and the Projects counts scan while the
// Overview's lines run the pass). The scan answers as one without a
// cache, and the transcripts are read once for both: the bytes read are
// the pass's, the stamps' heads and the scan's own second pass (its
// links), no first pass of the scan's.
func TestFeedMakesAScanWait(t *testing.T) {
	l, err := provgen.Write(t.TempDir(), now)
	if err != nil {
		t.Fatal(err)
	}
	files, _ := model.FindTranscripts(model.DirFS(l.Home))
	project := ProjectFolders(l.Home, l.MemoryDir, l.Project)
	auto := project[:1]
	plain := Scan(Options{Home: model.DirFS(l.Home), Transcripts: files, Folders: project})
	var size int64
	for _, f := range files {
		if f.Kind == model.TranscriptMain || f.Kind == model.TranscriptSubagent {
			size += f.Size
		}
	}
	// The scan's second pass alone: a scan on a cache the pass filled
	// before it started.
	c0 := NewFirstCache()
	if _, err := homepass.Run(model.DirFS(l.Home), files, 1, c0.Feed(project)); err != nil {
		t.Fatal(err)
	}
	linksFS := readFS(model.DirFS(l.Home))
	Scan(Options{Home: linksFS, Transcripts: files, Folders: project, Cache: c0})
	links := linksFS.N.Load()

	c := NewFirstCache()
	home := readFS(model.DirFS(l.Home))
	feed := c.Feed(auto)
	feed.(homepass.Starter).Start(files)
	got := make(chan Report)
	go func() { got <- Scan(Options{Home: home, Transcripts: files, Folders: project, Cache: c}) }()
	// The scan asks for its folders before it reads (it waits for the
	// Feed's claims); the Feed then looks for them too.
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(time.Millisecond) {
		c.mu.Lock()
		asked := c.asking[project[len(project)-1]] > 0
		c.mu.Unlock()
		if asked {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the scan never asked for its folders")
		}
	}
	st, err := homepass.Run(home, files, 1, feed)
	if err != nil {
		t.Fatal(err)
	}
	r := <-got
	if !reflect.DeepEqual(r.Writes, plain.Writes) {
		t.Errorf("the scan that waited: %d writes, without a cache: %d", len(r.Writes), len(plain.Writes))
	}
	if st.Bytes != size {
		t.Errorf("the pass read %d bytes, the transcripts hold %d", st.Bytes, size)
	}
	heads := int64(len(files)) * model.TailHeadMax
	if n := home.N.Load(); n > size+heads+links {
		t.Errorf("%d bytes read; the pass, the stamps and the scan's links take at most %d+%d+%d: the scan read first passes of its own", n, size, heads, links)
	}
}

// orderFS notes the transcripts in the order they are first opened.
type orderFS struct {
	fs.FS
	mu    sync.Mutex
	seen  map[string]bool
	order []string
}

func (o *orderFS) Open(name string) (fs.File, error) {
	if strings.HasSuffix(name, ".jsonl") {
		o.mu.Lock()
		if !o.seen[name] {
			o.seen[name] = true
			o.order = append(o.order, name)
		}
		o.mu.Unlock()
	}
	return o.FS.Open(name)
}

// A scan reads its transcripts smallest first, the other end from the
// shared pass (biggest first): a scan that began before the pass holds
// the small files when the pass claims the rest, so what the pass reads
// a second time for its other passes is small (on W the 15 biggest
// transcripts were read twice).
func TestScanReadsSmallestFirst(t *testing.T) {
	l, err := provgen.Write(t.TempDir(), now)
	if err != nil {
		t.Fatal(err)
	}
	files, _ := model.FindTranscripts(model.DirFS(l.Home))
	size := map[string]int64{}
	distinct := map[int64]bool{}
	for _, f := range files {
		if f.Kind == model.TranscriptMain || f.Kind == model.TranscriptSubagent {
			size[f.Path] = f.Size
			distinct[f.Size] = true
		}
	}
	if len(distinct) < 3 {
		t.Fatalf("the generated home has %d transcript sizes: the test proves nothing", len(distinct))
	}
	o := &orderFS{FS: model.DirFS(l.Home), seen: map[string]bool{}}
	Scan(Options{Home: o, Transcripts: files, Folders: ProjectFolders(l.Home, l.MemoryDir, l.Project), Workers: 1})
	var got []int64
	for _, n := range o.order {
		if s, ok := size[n]; ok {
			got = append(got, s)
		}
	}
	if len(got) != len(size) || !slices.IsSorted(got) {
		t.Errorf("first reads by size %v (of %d transcripts): want smallest first", got, len(size))
	}
}

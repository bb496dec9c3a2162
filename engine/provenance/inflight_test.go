package provenance

import (
	"io/fs"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

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
	waiting := make(chan struct{}, 1)
	c.waits = func(string) {
		select {
		case waiting <- struct{}{}:
		default:
		}
	}
	var wg sync.WaitGroup
	got := make([]Report, 2)
	wg.Go(func() { got[0] = Scan(Options{Home: home, Transcripts: files, Folders: folders, Cache: c, Workers: 1}) })
	<-home.entered // the first scan is reading its first transcript
	wg.Go(func() { got[1] = Scan(Options{Home: home, Transcripts: files, Folders: folders, Cache: c, Workers: 1}) })
	// The second scan reaches that transcript: it waits for the first's
	// read, or, without the one-read rule, opens it too. Then both go.
	select {
	case <-waiting:
	case <-home.entered:
	}
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

// A read of a transcript that ends between another read's look in the
// cache and its claim answers that other read: it does not read the file
// again (the race that made two scans at once open a transcript twice,
// now and then).
func TestFirstCacheReadEndedBeforeClaim(t *testing.T) {
	l, err := provgen.Write(t.TempDir(), now)
	if err != nil {
		t.Fatal(err)
	}
	files, _ := model.FindTranscripts(model.DirFS(l.Home))
	if len(files) == 0 {
		t.Fatal("no transcripts")
	}
	tf := files[0]
	folders := ProjectFolders(l.Home, l.MemoryDir, l.Project)
	// What one read costs alone, in opens, for each pass.
	alone := &gateFS{FS: model.DirFS(l.Home)}
	ac := NewFirstCache()
	ac.first(alone, tf, folders)
	firstOpens := alone.opens.Load()
	wanted := map[string]bool{"toolu_none": true}
	alone.opens.Store(0)
	ac.links(alone, tf, wanted)
	linkOpens := alone.opens.Load()
	if firstOpens == 0 || linkOpens == 0 {
		t.Fatalf("a read alone opened the transcript %d and %d times", firstOpens, linkOpens)
	}

	home := &gateFS{FS: model.DirFS(l.Home)}
	c := NewFirstCache()
	// The first claim's caller has looked and missed; before it claims,
	// another read of the same transcript runs whole.
	c.claiming = beforeFirstClaim(func() { c.first(home, tf, folders) })
	c.first(home, tf, folders)
	if n := home.opens.Load(); n != firstOpens {
		t.Errorf("first pass: the transcript opened %d times, one read alone %d", n, firstOpens)
	}

	// The second pass, the same way.
	c.claiming = beforeFirstClaim(func() { c.links(home, tf, wanted) })
	home.opens.Store(0)
	if _, probs := c.links(home, tf, wanted); len(probs) > 0 {
		t.Fatal(probs)
	}
	if n := home.opens.Load(); n != linkOpens {
		t.Errorf("second pass: the transcript opened %d times, one read alone %d", n, linkOpens)
	}
}

// beforeFirstClaim is a FirstCache.claiming hook that, at the first claim
// only, runs read on another goroutine to its end before the claim goes
// on.
func beforeFirstClaim(read func()) func(string) {
	var once atomic.Bool
	return func(string) {
		if once.CompareAndSwap(false, true) {
			done := make(chan struct{})
			go func() { read(); close(done) }()
			<-done
		}
	}
}

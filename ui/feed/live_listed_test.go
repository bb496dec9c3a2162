package feed

import (
	"io/fs"
	"sync/atomic"
	"testing"
	"testing/fstest"
	"time"

	"github.com/memscope/memscope/engine/live"
	"github.com/memscope/memscope/model"
)

// projectsListings counts the listings of projects/.
type projectsListings struct {
	fs.FS
	n atomic.Int64
}

func (p *projectsListings) ReadDir(name string) ([]fs.DirEntry, error) {
	if name == "projects" {
		p.n.Add(1)
	}
	return fs.ReadDir(p.FS, name)
}

// The Live feed's first listing of the home (the start's) goes through
// the listing ListFrom hands it, which the Overview's lines walk too:
// the home's folders are listed once between them (on the old code the
// tracker walked the home on its own). A later listing (a relist) reads
// the home as it is then.
func TestLiveStartListsFromTheSharedListing(t *testing.T) {
	line := `{"type":"user","uuid":"u1","sessionId":"s1","timestamp":"2026-11-22T11:00:00.000Z","cwd":"/tmp/w","message":{"role":"user","content":"hi"}}` + "\n"
	mfs := fstest.MapFS{"projects/-tmp-w/s1.jsonl": {Data: []byte(line), ModTime: liveNow.Add(-time.Hour)}}
	pfs := &projectsListings{FS: mfs}
	home := &model.Home{Dir: "/h", FS: pfs}
	l := NewLive(live.Options{Home: home, Now: func() time.Time { return liveNow }, Alive: func(int) bool { return false }}, true)
	var asked int
	var listed *model.Home
	l.ListFrom(home, func(h *model.Home) *model.Home {
		asked++
		if listed == nil {
			listed = h.ListedOnce()
		}
		return listed
	})
	snap(t, l, false)
	if asked != 1 {
		t.Fatalf("the start asked for the listing %d times", asked)
	}
	// The Overview's lines walk the same listing.
	if sf, _ := model.FindSessionFiles(listed.FS); len(sf.Transcripts) != 1 {
		t.Fatalf("the shared listing's transcripts: %+v", sf.Transcripts)
	}
	if n := pfs.n.Load(); n != 1 {
		t.Errorf("projects/ listed %d times between the Live feed and the shared listing", n)
	}
	// The next relist lists the home itself.
	l.relist = true
	snap(t, l, false)
	if asked != 1 {
		t.Errorf("a relist asked for the start's listing (%d asks)", asked)
	}
	if n := pfs.n.Load(); n != 2 {
		t.Errorf("the relist did not list projects/ again (%d listings)", n)
	}
}

package ui

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/internal/storeshome"
	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/ui/feed"
)

// A memory file written in the project's auto memory folder moved out
// of the home (autoMemoryDirectory) reaches the review, with live reload
// on (fsnotify, a real loop): the watcher watches every store
// model.HomeMemoryStores lists, not only the home. It used to watch the
// home alone, so the review never heard of the write.
func TestWriteInMovedMemoryReachesReview(t *testing.T) {
	t.Parallel()
	homeDir, env, _ := storeshome.Write(t)
	project := filepath.Join(filepath.Dir(homeDir), "work", "a")
	moved := filepath.Join(filepath.Dir(homeDir), "moved")
	home, err := model.OpenHome(homeDir, model.HomeFromFlag)
	if err != nil {
		t.Fatal(err)
	}
	m := New(Options{Home: home, Project: project, Watch: true, Now: func() time.Time { return testNow }, Root: testroot.New(t),
		Getenv: func(k string) string { return env[k] }})
	const fresh = "written_while_watched.md"
	var watched, written, reviewed bool
	reviews := 0
	l := &liveLoop{t: t, m: m, msgs: make(chan tea.Msg, 256), seen: func(msg tea.Msg) {
		switch msg := msg.(type) {
		case storesWatchedMsg:
			_, watched = msg.dirs[moved]
		case feed.ReviewLoaded:
			reviews++
			if !written {
				return
			}
			// The review's origins are every file of the folder it
			// reads (its items only the model's writes).
			for abs := range msg.Origins() {
				if filepath.Base(abs) == fresh {
					reviewed = true
				}
			}
		}
	}}
	l.exec(l.m.Init())
	l.until(time.Minute, "the first load and the stores' watch", func() bool {
		return watched && reviews > 0 && len(l.m.loading) == 0 && l.m.feeds.project.Cur().Slug == model.Slug(project)
	})
	defer func() { l.m.watch.Close() }()
	written = true
	if err := os.WriteFile(filepath.Join(moved, fresh), []byte("---\nname: fresh\ndescription: d\ntype: project\n---\nbody\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	l.until(time.Minute, "the review of the moved folder to read the new file", func() bool { return reviewed })
}

// A memory store folder outside the home that appears after the start
// (the moved autoMemoryDirectory made by the client's first write there)
// is watched from then on: its nearest existing parent is watched while
// it is missing, its creation is heard (a memory change of the project),
// and a write in it then reaches the review (fsnotify, a real loop). Fails without the parent's
// watch: the folder's creation is never heard of, nor the write in it.
func TestMemoryStoreMadeAfterTheStartIsWatched(t *testing.T) {
	t.Parallel()
	homeDir, env, _ := storeshome.Write(t)
	project := filepath.Join(filepath.Dir(homeDir), "work", "a")
	moved := filepath.Join(filepath.Dir(homeDir), "moved")
	if err := os.RemoveAll(moved); err != nil {
		t.Fatal(err)
	}
	home, err := model.OpenHome(homeDir, model.HomeFromFlag)
	if err != nil {
		t.Fatal(err)
	}
	m := New(Options{Home: home, Project: project, Watch: true, Now: func() time.Time { return testNow }, Root: testroot.New(t),
		Getenv: func(k string) string { return env[k] }})
	const fresh = "written_in_the_new_folder.md"
	var listed, madeHeard, written, heard, reviewed bool
	reviews := 0
	l := &liveLoop{t: t, m: m, msgs: make(chan tea.Msg, 256), seen: func(msg tea.Msg) {
		switch msg := msg.(type) {
		case storesWatchedMsg:
			_, listed = msg.dirs[moved]
		case fileChangedMsg:
			for _, p := range msg.paths {
				madeHeard = madeHeard || p == moved
				heard = heard || p == filepath.Join(moved, fresh)
			}
		case feed.ReviewLoaded:
			reviews++
			for abs := range msg.Origins() {
				if written && filepath.Base(abs) == fresh {
					reviewed = true
				}
			}
		}
	}}
	l.exec(l.m.Init())
	l.until(time.Minute, "the first load and the stores' watch", func() bool {
		return listed && reviews > 0 && len(l.m.loading) == 0 && l.m.feeds.project.Cur().Slug == model.Slug(project)
	})
	defer func() { l.m.watch.Close() }()
	if err := os.Mkdir(moved, 0o700); err != nil {
		t.Fatal(err)
	}
	// The watcher watches the folder before it passes its creation on.
	l.until(time.Minute, "the memory folder's creation to be heard", func() bool { return madeHeard })
	written = true
	if err := os.WriteFile(filepath.Join(moved, fresh), []byte("---\nname: fresh\ndescription: d\ntype: project\n---\nbody\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	// The write itself is heard (a review read for another reason could
	// see the file without it), and reaches the review.
	l.until(time.Minute, "the write in the new folder to be heard and reviewed", func() bool { return heard && reviewed })
}

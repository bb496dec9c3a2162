package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/memscope/memscope/engine/live"
	"github.com/memscope/memscope/model"
)

var watchCommand = &command{
	name:  "watch",
	usage: "memscope watch [--home DIR] [--json] [--once]",
	summary: "follow the home and print its events as they happen, one a line (NDJSON with --json)\n\n" +
		"The events: a session started or ended, its context crossed a level (warning, autocompact, blocked), it\n" +
		"compacted (with the tokens before and after), a memory file was written or deleted, MEMORY.md went over or\n" +
		"back under a cap, a paste history refers to went missing. --once prints the sessions running now (as\n" +
		"session-started events; with --json one array, [] when none runs) and stops. SIGINT or SIGTERM stops it (exit 0).",
	run: steps(parseWatch, runWatch, showWatch),
}

// watchOptions are watch's flags.
type watchOptions struct {
	home homeFlags
	json bool
	once bool
	// vault keeps each session that changes in the rescue vault.
	vault bool
}

func parseWatch(e *env, args []string) (watchOptions, error) {
	var opts watchOptions
	fs := newFlags("watch", &opts.home, &opts.json)
	fs.BoolVar(&opts.once, "once", false, "print the sessions running now and stop")
	fs.BoolVar(&opts.vault, "vault", false, "also keep every session in the rescue vault as it changes (memscope vault)")
	return opts, parseFlagsOnly(e, fs, args)
}

// The pace of the watch loop: file events are gathered for watchSettle
// before the tracker reads (a client writes a turn as several lines);
// every watchPoll the process files and memory folders are looked at
// with no event (a process can end without one, and a -p run stops
// counting as running when its transcript goes quiet), and every
// watchRelist polls the transcripts are listed again, in case an event
// was lost. Pastes are checked again at most every watchPasteEvery after
// history or the paste cache changed: that reads all of history.
const (
	watchSettle     = 50 * time.Millisecond
	watchPoll       = 2 * time.Second
	watchRelist     = 15
	watchPasteEvery = 5 * time.Second
)

// watchResult is how the watch ended.
type watchResult struct {
	events int
}

// runWatch prints the events as they happen until a signal, an error or,
// with --once, the first snapshot. It prints as it goes: showWatch has
// nothing left to print.
func runWatch(e *env, opts watchOptions) (watchResult, error) {
	o, err := e.openHome(&opts.home)
	if err != nil {
		return watchResult{}, err
	}
	defer o.close()
	w := &watchRun{e: e, opts: opts, home: o.home}
	w.tracker = live.NewTracker(live.Options{Home: o.home, Root: o.root, Now: e.now, Alive: e.alive,
		Session: live.SessionOptions{Getenv: e.getenv}})
	var sigs <-chan os.Signal
	if e.signals != nil && !opts.once {
		var stop func()
		sigs, stop = e.signals()
		defer stop()
	}
	prev := w.snapshot(nil, true, true)
	if opts.once {
		return w.res, w.printOnce(live.Diff(live.Snapshot{}, prev))
	}
	if err := w.print(live.Diff(live.Snapshot{}, prev)); err != nil {
		return w.res, err
	}
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return w.res, fmt.Errorf("watching %s: %w", o.home.Dir, err)
	}
	defer fw.Close()
	w.fw = fw
	w.watchDirs(prev)
	fmt.Fprintf(e.stderr, "memscope watch: following %s; ctrl+c stops\n", o.home.Dir)
	w.keepAll()

	poll := time.NewTicker(watchPoll)
	defer poll.Stop()
	var settle <-chan time.Time
	paths := map[string]bool{}
	pastes, polls := false, 0
	var pastesAt time.Time
	for {
		relist := false
		select {
		case <-sigs:
			return w.res, nil
		case err, ok := <-fw.Errors:
			if !ok {
				return w.res, nil
			}
			fmt.Fprintf(e.stderr, "memscope watch: %v\n", err)
			continue
		case ev, ok := <-fw.Events:
			if !ok {
				return w.res, nil
			}
			rel := w.rel(ev.Name)
			if ev.Has(fsnotify.Create) {
				w.watchNew(ev.Name)
			}
			if rel == model.HistoryPath || strings.HasPrefix(rel, "paste-cache/") {
				pastes = true
			}
			if rel != "" {
				paths[rel] = true
			}
			if settle == nil {
				settle = time.After(watchSettle)
			}
			continue
		case <-settle:
		case <-poll.C:
			polls++
			relist = polls%watchRelist == 0
		}
		settle = nil
		recheck := pastes && time.Since(pastesAt) >= watchPasteEvery
		if recheck {
			pastes, pastesAt = false, time.Now()
		}
		var list []string
		for p := range paths {
			list = append(list, p)
		}
		clear(paths)
		w.keep(list)
		next := w.snapshot(list, relist, recheck)
		if !recheck {
			next.Pastes = prev.Pastes
		}
		if err := w.print(live.Diff(prev, next)); err != nil {
			return w.res, err
		}
		w.watchDirs(next)
		prev = next
		if len(next.Behind) > 0 {
			// A transcript grew by more than a window: read on soon, with
			// whatever else happened meanwhile.
			settle = time.After(watchSettle)
		}
	}
}

// watchRun is one run of watch.
type watchRun struct {
	e       *env
	opts    watchOptions
	home    *model.Home
	tracker *live.Tracker
	fw      *fsnotify.Watcher
	// watched are the folders added to fw.
	watched map[string]bool
	res     watchResult
}

// snapshot asks the tracker: the whole home (relist) or what changed at
// paths; pastes, when set, checks every paste history refers to.
func (w *watchRun) snapshot(paths []string, relist, pastes bool) live.Snapshot {
	var s live.Snapshot
	if relist {
		s = w.tracker.Refresh()
	} else {
		s = w.tracker.Update(paths...)
	}
	if pastes {
		s.Pastes = pasteStates(w.home.FS)
	}
	return s
}

// pasteStates is how each paste history refers to resolves; nil when
// history cannot be read (pastes are then not watched).
func pasteStates(fsys fs.FS) map[model.PasteHash]model.PasteStatus {
	h, err := model.ReadHistory(fsys, model.HistoryPath)
	if err != nil && h == nil {
		if !errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		h = &model.History{}
	}
	return live.PasteStates(model.InventoryPastes(fsys, h))
}

// print writes events, as NDJSON or as text lines.
func (w *watchRun) print(events []live.Event) error {
	for _, ev := range events {
		w.res.events++
		lost := lostOf(w.home.FS, ev)
		if w.opts.json {
			var buf bytes.Buffer
			enc := json.NewEncoder(&buf)
			enc.SetEscapeHTML(false)
			if err := enc.Encode(watchEventOut{Event: ev, Lost: lost}); err != nil {
				return err
			}
			if _, err := w.e.stdout.Write(escapeTerminalRunes(buf.Bytes())); err != nil {
				return err
			}
			continue
		}
		text := ev.Text
		if lost != nil {
			text += " · " + lost.CountsText()
		}
		line := fmt.Sprintf("%s  %-16s %s\n", ev.Time.Local().Format("2006-01-02 15:04:05"), ev.Kind, model.SanitizeLine(text))
		if _, err := io.WriteString(humanOutput(w.e.stdout), line); err != nil {
			return err
		}
	}
	return nil
}

// printOnce writes --once's snapshot as one result: the events as text
// lines, or a line saying nothing runs; with --json one array ([] when
// nothing runs), so a script reads one document, never an empty output.
func (w *watchRun) printOnce(events []live.Event) error {
	w.res.events = len(events)
	if w.opts.json {
		if events == nil {
			events = []live.Event{}
		}
		return writeJSON(w.e.stdout, events)
	}
	if len(events) == 0 {
		_, err := fmt.Fprintf(humanOutput(w.e.stdout), "no session running in %s\n", model.SanitizeLine(w.home.Dir))
		return err
	}
	return w.print(events)
}

// rel is an event's path inside the home, slash-separated; "" outside.
func (w *watchRun) rel(name string) string {
	rel, err := filepath.Rel(w.home.Dir, name)
	if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
		return ""
	}
	return filepath.ToSlash(rel)
}

// watchDirs watches the home, projects/ and each project folder (the
// transcripts), sessions/ (the process files), the paste cache, and the
// memory folders of the running sessions. Missing folders are skipped;
// their parent's create event adds them later.
func (w *watchRun) watchDirs(s live.Snapshot) {
	if w.watched == nil {
		w.watched = map[string]bool{}
		dir := w.home.Dir
		for _, d := range []string{dir, filepath.Join(dir, "projects"), filepath.Join(dir, "sessions"), filepath.Join(dir, "paste-cache")} {
			w.add(d)
		}
		projects, _ := filepath.Glob(filepath.Join(dir, "projects", "*"))
		for _, p := range projects {
			w.add(p)
		}
	}
	for _, m := range s.Memory {
		if m.Exists {
			w.add(filepath.FromSlash(m.Dir))
		}
	}
}

func (w *watchRun) add(dir string) {
	if w.watched[dir] {
		return
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return
	}
	if w.fw.Add(dir) == nil {
		w.watched[dir] = true
	}
}

// watchNew watches a folder created after the start where watchDirs
// would have: sessions/, projects/, a project folder.
func (w *watchRun) watchNew(p string) {
	rel := w.rel(p)
	parts := strings.Split(rel, "/")
	switch {
	case rel == "sessions", rel == "projects", rel == "paste-cache":
	case len(parts) == 2 && parts[0] == "projects":
	default:
		return
	}
	w.add(p)
}

// showWatch has nothing to print: runWatch printed as it went.
func showWatch(e *env, opts watchOptions, res watchResult) error { return nil }

// Package leftover finds and removes memscope's own leftovers: what a
// memscope write that was killed, or failed and could not clean up,
// left behind. They are the atomic writer's temporary files, a change's
// staged copies and set-aside files, write probes (all named by
// model.OwnPrefix, with the writer's process id), and the empty folders
// a change makes (.trash/<time>/, .archive/, .memscope/). They lie in
// memory folders, in memscope's folder of the home, and in the project
// trees its file-history restores wrote to (the restore journals name
// every file). Each holds the old or the new content of a file whose
// change either landed or was rolled back (the journals say which), so
// it is clutter, never the only copy of the user's data; still, nothing
// is removed without being asked.
//
// A copy is a leftover only when no running write can be using it: its
// writer's process is gone, or no memscope holds the journal lock the
// write would hold (journal.Busy). Names from before the process id was
// in them are judged by age (LegacyAge).
package leftover

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/memscope/memscope/engine/filehist"
	"github.com/memscope/memscope/engine/journal"
	"github.com/memscope/memscope/engine/lint"
	"github.com/memscope/memscope/engine/store"
	"github.com/memscope/memscope/internal/format"
	"github.com/memscope/memscope/model"
)

// LegacyAge is how old a copy named without its writer's process id must
// be before it counts as a leftover: a younger one may belong to a write
// in progress in an older memscope.
const LegacyAge = 10 * time.Minute

// Kind is what a leftover is.
type Kind string

// The kinds of leftover.
const (
	// KindCopy is a hidden copy of a file (temporary, staged, set aside).
	KindCopy Kind = "copy"
	// KindProbe is an empty file a write probe made.
	KindProbe Kind = "probe"
	// KindEmptyFolder is an empty folder a change made for its files.
	KindEmptyFolder Kind = "empty-folder"
	// KindJournal is a journal's lock file with no journal entry beside
	// it, or an empty journal: what a first change killed before its
	// entry was written leaves.
	KindJournal Kind = "journal"
)

// Item is one leftover.
type Item struct {
	// Path is absolute.
	Path string `json:"path"`
	Kind Kind   `json:"kind"`
	// Of is the absolute path of the file a copy holds a version of.
	Of string `json:"of,omitempty"`
	// Why says what left it.
	Why     string    `json:"why"`
	Size    int64     `json:"size"`
	ModTime time.Time `json:"modTime"`
	// PID is the process that wrote it; 0 when its name does not say.
	PID int `json:"pid,omitempty"`
	// journal is the journal whose lock a write of it holds.
	journal string
}

// What says what the leftover is, for a report.
func (it Item) What() string { return it.WhatIn("") }

// WhatIn is What with the file a copy holds named relative to the folder
// dir when it is inside it (the memory folder a report is about).
func (it Item) WhatIn(dir string) string {
	switch it.Kind {
	case KindCopy:
		of := it.Of
		if rel, err := filepath.Rel(dir, of); err == nil && dir != "" && filepath.IsLocal(rel) {
			of = filepath.ToSlash(rel)
		}
		return fmt.Sprintf("a copy of %s (%s) left by %s; the change itself landed or was rolled back", of, format.Bytes(it.Size), it.Why)
	case KindProbe:
		return "an empty write probe left by " + it.Why
	case KindJournal:
		return "a journal file with no change in it, left by " + it.Why
	}
	return "an empty folder made by " + it.Why
}

// Interrupted is a file-history restore whose journal entry is still
// marked pending: it was killed or failed part way, so some of its files
// may be restored and others not. memscope files --undo puts back the
// ones it changed.
type Interrupted struct {
	Session model.SessionID `json:"session"`
	ID      string          `json:"id"`
	Summary string          `json:"summary"`
	Files   int             `json:"files"`
}

// Report is what Find found.
type Report struct {
	Items []Item `json:"items"`
	// InFlight counts copies a running memscope write may be using: not
	// leftovers (yet).
	InFlight    int             `json:"inFlight"`
	Interrupted []Interrupted   `json:"interrupted"`
	Problems    []model.Problem `json:"problems"`
}

// Input says where to look.
type Input struct {
	// Root is the machine from "/" (names as model.RootName gives them):
	// every folder is read through it.
	Root fs.FS
	// HomeDir is the Claude home (absolute); its restore journals name
	// the project files restores wrote, and its .memscope/ is searched.
	HomeDir string
	// MemoryDirs are memory folders to search (absolute) besides every
	// projects/*/memory of the home.
	MemoryDirs []string
	// Now dates copies named without a process id (LegacyAge).
	Now time.Time
	// Alive and Busy are model.ProcessAlive and journal.Busy when nil.
	Alive func(pid int) bool
	Busy  func(journal string) bool
	// Walk keeps the walk of the whole home between Finds (nil: every
	// Find walks it).
	Walk *WalkCache
	// Listed, when not nil, is the home at HomeDir listed once for the
	// readers of this moment (model.ListOnce): the walk kept on disk
	// takes a folder's listing from it when the folder is as it was
	// listed there (model.ListedFolder), instead of listing it again.
	Listed fs.FS
}

// finder is one Find.
type finder struct {
	in   Input
	rep  Report
	busy map[string]bool
	seen map[string]bool
	// found are the paths of the copies listed.
	found map[string]bool
}

// Find looks for memscope's leftovers in the memory folders, in the
// home's .memscope/ and beside every file the home's restore journals
// name.
func Find(in Input) Report {
	if in.Alive == nil {
		in.Alive = model.ProcessAlive
	}
	if in.Busy == nil {
		in.Busy = journal.Busy
	}
	f := &finder{in: in, busy: map[string]bool{}, seen: map[string]bool{}, found: map[string]bool{},
		rep: Report{Items: []Item{}, Interrupted: []Interrupted{}, Problems: []model.Problem{}}}
	// One Find is one walk: the home's folder is held for all of it (the
	// memory folders' search opened the home again for each name it
	// looked at, some 170 opens of W's a cold start, beside the walk).
	defer model.HoldWalk(in.Root)()
	dirs := map[string]bool{}
	for _, d := range append(homeMemoryDirs(in.Root, in.HomeDir), in.MemoryDirs...) {
		if d = filepath.Clean(d); !dirs[d] {
			dirs[d] = true
			f.memoryDir(d)
		}
	}
	if in.HomeDir != "" {
		f.restores(filepath.Clean(in.HomeDir))
		f.home(filepath.Clean(in.HomeDir), dirs)
	}
	sort.Slice(f.rep.Items, func(i, j int) bool { return f.rep.Items[i].Path < f.rep.Items[j].Path })
	return f.rep
}

// homeMemoryDirs are the memory folders in the home's projects/ (a
// project whose memory folder is set elsewhere is in Input.MemoryDirs).
func homeMemoryDirs(root fs.FS, home string) []string {
	if home == "" {
		return nil
	}
	projects := filepath.Join(home, "projects")
	ents, err := fs.ReadDir(root, model.RootName(filepath.ToSlash(projects)))
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range ents {
		if e.IsDir() {
			out = append(out, filepath.Join(projects, e.Name(), "memory"))
		}
	}
	return out
}

// isBusy is in.Busy, asked once per journal.
func (f *finder) isBusy(j string) bool {
	if j == "" {
		return false
	}
	b, ok := f.busy[j]
	if !ok {
		b = f.in.Busy(j)
		f.busy[j] = b
	}
	return b
}

// inFlight reports whether a running write may be using the copy: its
// writer lives and (but for a probe, which no lock covers) a memscope
// holds the journal lock the write takes. A name without a process id
// is in flight while it is young.
func (f *finder) inFlight(c model.OwnCopy, info fs.FileInfo, journal string) bool {
	if c.PID == 0 {
		return !f.in.Now.IsZero() && f.in.Now.Sub(info.ModTime()) < LegacyAge
	}
	if !f.in.Alive(c.PID) {
		return false
	}
	return c.Tag == "probe" || journal == anyWrite || f.isBusy(journal)
}

// why says what left a copy.
func why(c model.OwnCopy, what string, alive bool) string {
	switch {
	case c.PID == 0:
		return "an interrupted memscope " + what
	case alive:
		return fmt.Sprintf("a memscope %s (process %d, no longer writing)", what, c.PID)
	}
	return fmt.Sprintf("an interrupted memscope %s (process %d, gone)", what, c.PID)
}

// add records a copy or probe found at abs (a file named name in folder
// dir), unless a running write may use it.
func (f *finder) add(dir, name string, info fs.FileInfo, journal, what string) {
	c, ok := model.ParseOwnCopy(name)
	if !ok || !info.Mode().IsRegular() {
		return
	}
	abs := filepath.Join(dir, name)
	if f.seen[abs] {
		return
	}
	f.seen[abs] = true
	if f.inFlight(c, info, journal) {
		f.rep.InFlight++
		return
	}
	it := Item{Path: abs, Kind: KindCopy, Size: info.Size(), ModTime: info.ModTime(), PID: c.PID, journal: journal,
		Why: why(c, what, c.PID != 0 && f.in.Alive(c.PID))}
	if c.Tag == "probe" {
		it.Kind = KindProbe
	} else {
		it.Of = filepath.Join(dir, model.OriginalOf(name))
	}
	f.found[abs] = true
	f.rep.Items = append(f.rep.Items, it)
}

// memoryDir searches a memory folder: copies anywhere in it (the trash,
// the archive and the journal's folder too), and the empty folders its
// changes make.
func (f *finder) memoryDir(dir string) {
	jn := filepath.Join(dir, filepath.FromSlash(journal.Path))
	root := model.RootName(filepath.ToSlash(dir))
	st, err := fs.Lstat(f.in.Root, root)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			f.rep.Problems = append(f.rep.Problems, model.Problem{File: dir, Kind: model.ProblemUnreadable, Reason: err.Error()})
		}
		return
	}
	if !st.IsDir() {
		// memscope never writes through a link, so nothing of its can be
		// there; and nothing there is removed through one.
		return
	}
	var folders []fs.DirEntry
	var folderRels []string
	fs.WalkDir(f.in.Root, root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			f.rep.Problems = append(f.rep.Problems, model.Problem{File: model.RootPath(p), Kind: model.ProblemUnreadable, Reason: err.Error()})
			return nil
		}
		rel := strings.TrimPrefix(strings.TrimPrefix(p, root), "/")
		if d.IsDir() {
			if rel != "" && f.emptyFolder(rel) {
				folders, folderRels = append(folders, d), append(folderRels, rel)
			}
			return nil
		}
		// Names first: most files are the user's, and need no stat.
		_, own := model.ParseOwnCopy(d.Name())
		inJournalDir := path.Dir(rel) == path.Dir(journal.Path)
		if !own && !inJournalDir {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil
		}
		if inJournalDir {
			f.journalFile(filepath.Join(dir, filepath.FromSlash(rel)), info, jn)
		}
		f.add(filepath.Join(dir, filepath.FromSlash(path.Dir(rel))), d.Name(), info, jn, "write")
		return nil
	})
	// Deepest first: a folder that holds only empty folders of the kind
	// is empty too (.archive/ once its only folder is gone).
	empty := map[string]bool{}
	for i := len(folders) - 1; i >= 0; i-- {
		if f.isEmpty(dir, folderRels[i], empty) {
			empty[folderRels[i]] = true
			f.addEmptyFolder(dir, folderRels[i], folders[i], jn)
		}
	}
}

// isEmpty reports whether the folder rel of the memory folder dir holds
// nothing but folders already found empty and leftover copies.
func (f *finder) isEmpty(dir, rel string, empty map[string]bool) bool {
	ents, err := fs.ReadDir(f.in.Root, model.RootName(filepath.ToSlash(filepath.Join(dir, filepath.FromSlash(rel)))))
	if err != nil {
		return false
	}
	for _, e := range ents {
		switch {
		case e.IsDir() && empty[path.Join(rel, e.Name())]:
		case !e.IsDir() && f.found[filepath.Join(dir, filepath.FromSlash(rel), e.Name())]:
			// A leftover copy: removed before the folder (Remove).
		default:
			return false
		}
	}
	return true
}

// emptyFolder reports whether rel (in a memory folder) is one of the
// folders a change makes: the trash's and the archive's (store.IsOwnFolder,
// the rule a change removes the folders it emptied by), memscope's
// .memscope/.
func (f *finder) emptyFolder(rel string) bool {
	return rel == path.Dir(journal.Path) || store.IsOwnFolder(rel)
}

// addEmptyFolder records the empty folder rel of the memory folder dir
// unless a change is under way there.
func (f *finder) addEmptyFolder(dir, rel string, d fs.DirEntry, jn string) {
	abs := filepath.Join(dir, filepath.FromSlash(rel))
	if f.isBusy(jn) {
		f.rep.InFlight++
		return
	}
	it := Item{Path: abs, Kind: KindEmptyFolder, Why: "a memscope change that did not complete (it holds nothing else)", journal: jn}
	if info, err := d.Info(); err == nil {
		it.ModTime = info.ModTime()
	}
	f.rep.Items = append(f.rep.Items, it)
}

// journalFile records the journal jn's lock file, or jn itself, at abs
// when the journal holds no change (absent or empty) and no memscope
// holds the lock: a change killed before its entry was written, or
// whose first write failed, left them.
func (f *finder) journalFile(abs string, info fs.FileInfo, jn string) {
	if abs != jn && abs != journal.LockOf(jn) || !info.Mode().IsRegular() {
		return
	}
	if st, err := fs.Stat(f.in.Root, model.RootName(filepath.ToSlash(jn))); err == nil && st.Size() > 0 || err != nil && !errors.Is(err, fs.ErrNotExist) {
		return
	}
	if f.isBusy(jn) {
		f.rep.InFlight++
		return
	}
	f.found[abs] = true
	f.rep.Items = append(f.rep.Items, Item{Path: abs, Kind: KindJournal, Size: info.Size(), ModTime: info.ModTime(), journal: jn,
		Why: "a memscope change that did not complete"})
}

// tidyFolder records the folder abs (of memscope's own) when it holds
// nothing but what was found already, and reports whether it did.
func (f *finder) tidyFolder(abs, jn string) bool {
	ents, err := fs.ReadDir(f.in.Root, model.RootName(filepath.ToSlash(abs)))
	if err != nil {
		return false
	}
	for _, e := range ents {
		if !f.found[filepath.Join(abs, e.Name())] {
			return false
		}
	}
	if f.isBusy(jn) {
		f.rep.InFlight++
		return false
	}
	it := Item{Path: abs, Kind: KindEmptyFolder, Why: "a memscope change that did not complete (it holds nothing else)", journal: jn}
	if st, err := fs.Stat(f.in.Root, model.RootName(filepath.ToSlash(abs))); err == nil {
		it.ModTime = st.ModTime()
	}
	f.found[abs] = true
	f.rep.Items = append(f.rep.Items, it)
	return true
}

// restores searches the home's restore journals' folder, and beside each
// file a restore wrote, for copies a killed restore left; and reports
// restores still marked pending.
func (f *finder) restores(home string) {
	jdir := filepath.Join(home, filepath.FromSlash(filehist.RestoreJournalDir))
	sessions, err := fs.ReadDir(f.in.Root, model.RootName(filepath.ToSlash(jdir)))
	if errors.Is(err, fs.ErrNotExist) {
		// A restore killed as it made the folders may leave .memscope/
		// alone.
		f.tidyFolder(filepath.Dir(jdir), "")
		return
	}
	if err != nil {
		return
	}
	homeFS, err := fs.Sub(f.in.Root, model.RootName(filepath.ToSlash(home)))
	if err != nil {
		return
	}
	// The files restores wrote, by folder: each folder is read once,
	// however many of its files the journals name (a rewind names
	// hundreds in one folder).
	wrote := map[string]map[string]writer{}
	for _, d := range sessions {
		if !d.IsDir() {
			continue
		}
		sid := model.SessionID(d.Name())
		jn := filepath.Join(home, filepath.FromSlash(filehist.RestoreJournal(sid)))
		f.beside(filepath.Dir(jn), func(string) (writer, bool) { return writer{jn, "restore journal write"}, true })
		for _, name := range []string{jn, journal.LockOf(jn)} {
			if st, err := fs.Stat(f.in.Root, model.RootName(filepath.ToSlash(name))); err == nil {
				f.journalFile(name, st, jn)
			}
		}
		f.tidyFolder(filepath.Dir(jn), jn)
		entries, probs, err := filehist.Restores(homeFS, sid)
		f.rep.Problems = append(f.rep.Problems, probs...)
		if err != nil {
			f.rep.Problems = append(f.rep.Problems, model.Problem{File: jn, Kind: model.ProblemUnreadable, Reason: err.Error()})
			continue
		}
		for _, e := range entries {
			if e.Pending {
				f.rep.Interrupted = append(f.rep.Interrupted, Interrupted{Session: sid, ID: e.ID, Summary: e.Summary, Files: len(e.Files)})
			}
			for _, jf := range e.Files {
				target := filepath.FromSlash("/" + jf.Path)
				dir, base := filepath.Dir(target), filepath.Base(target)
				if wrote[dir] == nil {
					wrote[dir] = map[string]writer{}
				}
				if _, ok := wrote[dir][base]; !ok {
					wrote[dir][base] = writer{jn, "restore (session " + string(sid) + ")"}
				}
			}
		}
	}
	for _, dir := range slices.Sorted(maps.Keys(wrote)) {
		f.beside(dir, func(base string) (writer, bool) { w, ok := wrote[dir][base]; return w, ok })
	}
	// The folders above, when all they hold is found.
	if f.tidyFolder(jdir, "") {
		f.tidyFolder(filepath.Dir(jdir), "")
	}
}

// writer is the journal of the write a copy may belong to, and what to
// call that write.
type writer struct{ journal, what string }

// beside adds the copies in folder dir of the files of that returns a
// writer for (by the name of the file a copy holds).
func (f *finder) beside(dir string, of func(base string) (writer, bool)) {
	ents, err := fs.ReadDir(f.in.Root, model.RootName(filepath.ToSlash(dir)))
	if err != nil {
		return
	}
	for _, e := range ents {
		w, ok := of(model.OriginalOf(e.Name()))
		if !ok {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		f.add(dir, e.Name(), info, w.journal, w.what)
	}
}

// anyWrite stands for the journal of a copy no one lock covers (one
// found by the walk of the whole home): it is in flight while its
// writer lives.
const anyWrite = "\x00any"

// home walks the whole home (no link followed) for memscope's hidden
// files the other searches did not reach: what a killed scrub leaves
// beside a transcript, a paste or history.jsonl, a killed settings or
// archive write, a scrub copy's temporary manifest. Every memscope
// writer names its hidden files by model.OwnPrefix, so the name is
// enough; a copy whose writer lives is in flight.
func (f *finder) home(home string, searched map[string]bool) {
	root := model.RootName(filepath.ToSlash(home))
	if st, err := fs.Lstat(f.in.Root, root); err != nil || !st.IsDir() {
		return
	}
	hits, probs, gen, ok := f.in.Walk.cached(f.in.Root, home, searched)
	if !ok {
		if w := f.in.Walk; w != nil && w.disk != nil {
			hits, probs = w.walkOnDisk(f.in.Root, f.in.Listed, home, root, walkKey(home, searched), searched)
		} else {
			hits, probs = walkHome(f.in.Root, root, searched)
		}
		f.in.Walk.keep(gen, home, searched, hits, probs)
	}
	f.rep.Problems = append(f.rep.Problems, probs...)
	for _, h := range hits {
		f.add(h.dir, h.name, h.info, anyWrite, "write")
	}
	// A scrub killed before its copy's manifest was written leaves the
	// copy's folder empty (or holding only its temporary file).
	scrubs := filepath.Join(home, filepath.FromSlash(model.ScrubCopyDir))
	jn := filepath.Join(home, filepath.FromSlash(model.ScrubJournal))
	ents, _ := fs.ReadDir(f.in.Root, model.RootName(filepath.ToSlash(scrubs)))
	for _, e := range ents {
		if e.IsDir() {
			f.tidyFolder(filepath.Join(scrubs, e.Name()), jn)
		}
	}
}

// walkHome lists the hidden copies in the home (root, a RootName) outside
// the memory folders searched, and the folders it could not read.
func walkHome(fsys fs.FS, root string, searched map[string]bool) (hits []walkHit, probs []model.Problem) {
	fs.WalkDir(fsys, root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p != root {
				probs = append(probs, model.Problem{File: model.RootPath(p), Kind: model.ProblemUnreadable, Reason: err.Error()})
			}
			return nil
		}
		if d.IsDir() {
			if p != root && searched[filepath.FromSlash(model.RootPath(p))] {
				return fs.SkipDir // a memory folder, searched above
			}
			return nil
		}
		if _, own := model.ParseOwnCopy(d.Name()); !own {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil
		}
		hits = append(hits, walkHit{dir: filepath.Dir(model.RootPath(p)), name: d.Name(), info: info})
		return nil
	})
	return hits, probs
}

// HomeCopies are the paths of the hidden copies Find finds in the home
// at dir (memory folders, beside restored files, and anywhere else in
// it): what the secrets scan reads as leftovers.
func HomeCopies(root fs.FS, dir string, now time.Time) []string {
	var out []string
	for _, it := range Find(Input{Root: root, HomeDir: dir, Now: now}).Items {
		if it.Kind == KindCopy {
			out = append(out, it.Path)
		}
	}
	return out
}

// Count is how many leftovers Find finds: the number an Overview line
// shows (memscope lint --remove-leftovers removes them).
func Count(in Input) int { return len(Find(in).Items) }

// LintCopies are the leftovers as lint reports them (lint.Input.Leftovers):
// paths inside the memory folder memDir relative to it, others absolute.
func LintCopies(items []Item, memDir string) []lint.LeftoverCopy {
	out := make([]lint.LeftoverCopy, 0, len(items))
	for _, it := range items {
		p := it.Path
		if rel, err := filepath.Rel(memDir, it.Path); err == nil && memDir != "" && filepath.IsLocal(rel) {
			p = filepath.ToSlash(rel)
		}
		out = append(out, lint.LeftoverCopy{Path: p, What: it.WhatIn(memDir), ModTime: it.ModTime})
	}
	return out
}

// LintInterrupted are the interrupted restores as lint reports them.
func LintInterrupted(home string, rs []Interrupted) []lint.InterruptedChange {
	out := make([]lint.InterruptedChange, 0, len(rs))
	for _, r := range rs {
		out = append(out, lint.InterruptedChange{
			Path: filepath.Join(home, filepath.FromSlash(filehist.RestoreJournal(r.Session))),
			What: fmt.Sprintf("restore %s of session %s (%s, %d files) was interrupted: each file is as before it or as it restored it; memscope files %s --undo puts back the ones it changed",
				r.ID, r.Session, r.Summary, r.Files, r.Session),
		})
	}
	return out
}

package vault

import (
	"errors"
	"io"
	"io/fs"
	"path"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/memscope/memscope/model"
)

// smallFile: a changed file up to this size is read whole; a larger one
// that grew under the same identity is read from its last chunk on.
const smallFile = 1 << 20

// SyncOptions say what to sync.
type SyncOptions struct {
	Home *model.Home
	// Session limits the sync to one session's files (a hook's sync at
	// the end of a session or before a compaction); "" syncs the home.
	Session model.SessionID
	Now     time.Time
	// Full walks every folder, trusting no write-once folder's stamp
	// (folders.go); a sync does so anyway once a day.
	Full bool
}

// SyncReport is what a sync read and stored.
type SyncReport struct {
	Vault     string `json:"vault"`
	Session   string `json:"session,omitempty"`
	Files     int    `json:"files"`
	New       int    `json:"new"`
	Changed   int    `json:"changed"`
	Unchanged int    `json:"unchanged"`
	// Gone counts files found absent from the home for the first time
	// (the vault keeps them).
	Gone int `json:"gone"`
	// BytesRead counts the home's bytes read; BytesNew the bytes of
	// chunks stored for the first time; PackBytes what was written for
	// them (compressed).
	BytesRead int64           `json:"bytesRead"`
	BytesNew  int64           `json:"bytesNew"`
	PackBytes int64           `json:"packBytes"`
	Chunks    int             `json:"chunks"`
	Problems  []model.Problem `json:"problems"`
}

// homeFile is one file of the home a sync considers.
type homeFile struct {
	rel string
	// info is nil for a regular file the walk listed without its
	// information (syncFile asks it: infoOf).
	info    fs.FileInfo
	kind    Kind
	session model.SessionID
	project string
}

// Sync copies into the vault what changed in the home since the last
// sync. It only reads the home; a growing file is read up to its last
// complete line (transcripts), and a file that grew under the same
// identity is read from its last chunk on, so the cost follows the
// appended bytes.
func (v *Vault) Sync(o SyncOptions) (SyncReport, error) {
	rep := SyncReport{Vault: v.Dir, Session: string(o.Session), Problems: []model.Problem{}}
	// The home listed once (model.ListOnce): on Linux its files are
	// opened by their bare names from descriptors of their folders, held
	// from the walk on, not resolved again beneath the home each (openat2).
	o.Home = &model.Home{Dir: o.Home.Dir, FS: model.ListOnce(o.Home.FS), Source: o.Home.Source}
	if err := v.ensure(); err != nil {
		return rep, err
	}
	unlock := v.lock()
	defer unlock()
	var fw *folderWalk
	var oldStamps []byte
	if o.Session == "" {
		var stamps folderStamps
		stamps, oldStamps = v.loadFolders()
		fw = &folderWalk{stamps: stamps, full: o.Full || o.Now.Sub(stamps.Full) >= foldersFull || stamps.Full.After(o.Now)}
	}
	// The home is listed while the state is read (the walk needs the
	// state only to check the folders it trusted, after), and the
	// projects' files, listed first, are synced while the rest of the
	// home is listed (before, one core listed the whole home while the
	// other waited: tens of ms of a first sync's start).
	var files []homeFile
	var walkProbs []model.Problem
	walked := make(chan struct{})
	// At most two batches and the end (walkHome): the walk never waits
	// on it, even when the sync returns before reading them.
	projects := make(chan []homeFile, 3)
	go func() {
		defer close(walked)
		files = walkHome(o.Home.FS, o.Session, &walkProbs, fw, func(f []homeFile) { projects <- f })
	}()
	st, err := v.loadState()
	if err != nil {
		<-walked
		rep.Problems = append(rep.Problems, walkProbs...)
		return rep, err
	}
	live := map[string][]string{}
	if fw != nil && !fw.full {
		live = liveOf(st)
	}
	ix := &index{load: v.loadIndex}
	pw := newPackWriter(v, ix, func() time.Time { return o.Now })
	defer pw.close()
	s := &syncer{v: v, home: o.Home, st: st, pw: pw, rep: &rep, now: o.Now, mu: &sync.Mutex{}}
	s.board = newResultBoard()
	s.newWorkers(max(runtime.GOMAXPROCS(0), 1))
	earlyFiles := make(chan []homeFile, 1)
	earlyDone := make(chan struct{})
	go s.syncEarly(projects, earlyFiles, earlyDone)
	<-walked
	rep.Problems = append(rep.Problems, walkProbs...)
	files = settleWalk(o.Home.FS, files, &rep.Problems, fw, live)
	seen := map[string]bool{}
	if fw != nil {
		// A trusted folder's files are as the vault has them (the
		// projects' files are being synced: the report is shared).
		s.mu.Lock()
		for _, d := range fw.trusted {
			for _, p := range live[d.rel] {
				seen[p] = true
				rep.Files++
				rep.Unchanged++
			}
		}
		s.mu.Unlock()
	}
	synced := map[string]int{}
	// The files' results are taken in the state's order as the workers
	// post them (board), their state lines written to the new state file
	// at once (ss) and let go: nothing holds every line until the end.
	// The gone records are encoded after them, here.
	ss := v.newStateStream(st, o.Now)
	var fromFiles int
	var encodeErr error
	board := s.board
	early := <-earlyFiles
	restDone := make(chan struct{})
	go func() {
		defer close(restDone)
		s.syncRest(files, early, earlyDone)
		board.close()
	}()
	for _, f := range files {
		r, done := board.take(f.rel)
		if !done {
			break // a write error stopped the sync (reported below)
		}
		var pe *fileProblem
		if r.err != nil && errors.As(r.err, &pe) && pe.vanished {
			s.mu.Lock()
			rep.Problems = append(rep.Problems, pe.p)
			s.mu.Unlock()
			continue
		}
		seen[f.rel] = true
		s.mu.Lock()
		rep.Files++
		if r.err != nil && pe != nil {
			rep.Problems = append(rep.Problems, pe.p)
		}
		s.mu.Unlock()
		if r.err != nil {
			if pe != nil {
				continue
			}
			<-restDone
			ss.finish(nil, r.err)
			return rep, r.err
		}
		synced[path.Dir(f.rel)]++
		if r.changed {
			fromFiles++
			if r.encodeErr != nil && encodeErr == nil {
				encodeErr = r.encodeErr
			}
			if encodeErr == nil {
				ss.write(r.line)
			}
		}
	}
	<-restDone
	// The files gone from the home, by path (only they are sorted: a
	// sync sorts none of the vault's paths when nothing went).
	var gone []string
	for p, e := range st.entries {
		h := &e.head
		if !seen[p] && h.Gone.IsZero() && (o.Session == "" || h.Session == o.Session) {
			gone = append(gone, p)
		}
	}
	sort.Strings(gone)
	var goneRecs []*Record
	for _, p := range gone {
		r := st.get(p)
		if r == nil {
			continue
		}
		r.Gone = o.Now
		r.Follow = nil
		st.put(r)
		rep.Gone++
		goneRecs = append(goneRecs, r)
	}
	// The changed records are final: the gone ones are encoded, and the
	// state file written and synced, while the last packs are written
	// and synced; the state file is renamed into place only after them
	// (it names their chunks). Before, the state was written and synced
	// once the packs were, one fsync after another on one core; and
	// every record was encoded here, after the last file was read: a
	// first sync's records (one a file, its chunk list) took tens of ms
	// of its tail, on one core as encodeRecords split them (the small
	// records of file history first, the transcripts' after).
	packsDone := make(chan struct{})
	var flushErr error
	stateDone := make(chan error, 1)
	go func() {
		goneData, err := encodeRecords(goneRecs)
		err = errors.Join(encodeErr, err)
		if err == nil && len(goneData) > 0 {
			ss.write(goneData)
		}
		if stateEncodedHook != nil {
			stateEncodedHook()
		}
		if stateHeldHook != nil {
			stateHeldHook(st)
		}
		if err != nil {
			ss.finish(nil, err)
			stateDone <- err
			return
		}
		stateDone <- ss.finish(func() error {
			<-packsDone
			return flushErr
		}, nil)
	}()
	// The folders' stamps likewise, renamed into place after the state
	// (a stamp never names files the state does not hold).
	stateWritten := make(chan struct{})
	var stateErr error
	foldersDone := make(chan error, 1)
	if fw != nil {
		stamps := fw.next(o.Now, synced)
		go func() {
			foldersDone <- v.saveFoldersAfter(stamps, oldStamps, func() error {
				<-stateWritten
				if flushErr != nil {
					return flushErr
				}
				return stateErr
			})
		}()
	} else {
		foldersDone <- nil
	}
	flushErr = pw.flush()
	close(packsDone)
	stateErr = <-stateDone
	close(stateWritten)
	foldersErr := <-foldersDone
	if flushErr != nil {
		return rep, flushErr
	}
	rep.PackBytes, rep.Chunks = pw.written, pw.chunks
	if stateErr != nil {
		return rep, stateErr
	}
	if foldersErr != nil {
		return rep, foldersErr
	}
	rep.Problems = append(rep.Problems, st.problems...)
	return rep, nil
}

// stateEncodedHook, when set, is called once a sync has encoded its
// state's records: a test's seam.
var stateEncodedHook func()

// stateHeldHook, when set, is given the state a sync holds once its
// records are encoded (the workers done): a test's seam.
var stateHeldHook func(*state)

// liveOf lists the vault's files still in the home, by folder.
func liveOf(st *state) map[string][]string {
	live := map[string][]string{}
	for p, e := range st.entries {
		if e.head.Gone.IsZero() {
			d := path.Dir(p)
			live[d] = append(live[d], p)
		}
	}
	return live
}

// fileProblem is a file the sync could not read: reported, the sync
// goes on. vanished: it was no longer there when its worker looked
// (listed, then removed): it is not one of the home's files, so a file
// the vault keeps is marked gone by this sync, as it was when the walk
// looked at each file itself.
type fileProblem struct {
	p        model.Problem
	vanished bool
}

func (e *fileProblem) Error() string { return e.p.Error() }

// syncer is one sync's state.
type syncer struct {
	v    *Vault
	home *model.Home
	st   *state
	pw   *packWriter
	rep  *SyncReport
	now  time.Time
	// mu guards st and rep, which the workers of syncAll share.
	mu  *sync.Mutex
	cut cutter
	// frame is the frame this worker fills (packWriter.addFilled).
	frame *frameFill
	// enc encodes the state lines of the files this worker syncs.
	enc recordEncoder
	// board takes the files' results (syncAll).
	board *resultBoard
	// workers are the sync's worker syncers not at work, one for each
	// CPU, shared by the two syncAll of a sync (its early files and the
	// rest, synced at once): a worker's cutter (its read buffer of
	// cutBuf bytes, its normalizer's) and its frame go from the early
	// files to the rest. Before, each syncAll made a worker for each CPU,
	// twice as many cutters and frames being filled as CPUs, their
	// pages faulted in and cleared (docs/VAULT.md, "i31v7"). Nil: each
	// syncAll makes its own.
	workers chan *syncer
}

// newWorkers fills s.workers with n worker syncers.
func (s *syncer) newWorkers(n int) {
	s.workers = make(chan *syncer, n)
	for range n {
		s.workers <- s.worker()
	}
}

// worker is a new worker syncer of s's sync.
func (s *syncer) worker() *syncer {
	return &syncer{v: s.v, home: s.home, st: s.st, pw: s.pw, rep: s.rep, now: s.now, mu: s.mu, board: s.board}
}

// fileResult is what syncing one file gave: changed when the file's
// record changed, and its state line (line, encodeErr: appendRecord's),
// encoded by the worker that synced it. The record itself is not kept
// (keepLine): the state holds its head and its line.
type fileResult struct {
	changed   bool
	err       error
	line      []byte
	encodeErr error
}

// syncAll syncs files on every CPU (reading, hashing and cutting a file
// is most of a first sync beside the compression, which the pack
// writer's workers do), each worker with its own cutter; each file's
// result is posted to s.board as it comes (the sync takes them in the
// files' order, so the state is written as a sequential sync writes
// it). A write error stops the workers: the files after it are left
// undone (never posted). early: files the walk handed over; their
// workers step aside while the rest of the home's are synced
// (s.board.pause).
func (s *syncer) syncAll(files []homeFile, early bool) {
	n := min(max(runtime.GOMAXPROCS(0), 1), len(files))
	var next atomic.Int64
	var stop atomic.Bool
	var wg sync.WaitGroup
	pf := s.startPrefetch(files, &next, n)
	defer pf.stop()
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var w *syncer
			take := func() {
				if s.workers != nil {
					w = <-s.workers
				} else {
					w = s.worker()
				}
			}
			give := func() {
				s.pw.park(w.frame)
				w.frame = nil
				if s.workers != nil {
					s.workers <- w
				}
				w = nil
			}
			take()
			defer func() { give() }()
			for !stop.Load() {
				if early && s.board.paused() {
					give()
					s.board.waitResume()
					take()
					continue
				}
				i := int(next.Add(1) - 1)
				if i >= len(files) {
					return
				}
				pf.moved()
				rec, err := w.syncFile(files[i], pf.take(i))
				r := fileResult{changed: rec != nil, err: err}
				if rec != nil && err == nil {
					// The record is final (a sync changes a file's
					// record once): its state line is encoded here,
					// on every CPU while files are read, not after
					// the last one.
					r.line, r.encodeErr = w.enc.appendRecord(nil, rec)
					if r.encodeErr == nil {
						s.keepHead(rec)
					}
				}
				s.board.post(files[i].rel, r)
				var pe *fileProblem
				if err != nil && !errors.As(err, &pe) {
					stop.Store(true)
				}
			}
		}()
	}
	wg.Wait()
}

// keepHead makes the state hold of rec, a file's record this sync
// changed and encoded, only its head: its line goes to the new state
// file (stateStream) and nothing after the files' loop asks for the
// record (a merge of the state files reads them again: finish). A
// first sync held every file's record, its versions and chunk lists,
// until its end, beside its line (tens of MB of live heap on a home of
// 1 GB, which the collector's target multiplies: docs/VAULT.md,
// "i31r").
func (s *syncer) keepHead(rec *Record) {
	s.mu.Lock()
	if e := s.st.entries[rec.Path]; e != nil && e.rec == rec {
		s.st.entries[rec.Path] = &stateEntry{head: e.head, written: true}
	}
	s.mu.Unlock()
}

// syncEarly syncs the batches of the projects' files the walk hands
// over (batches, ended by nil) as they come, each on the shared
// workers (before, the workers waited for the whole projects' listing,
// one core at work for the first ms of a first sync); it sends the
// files handed over on files once the hand-over ended, and closes done
// once they are synced (their results posted to s.board).
func (s *syncer) syncEarly(batches <-chan []homeFile, files chan<- []homeFile, done chan<- struct{}) {
	var all []homeFile
	var wg sync.WaitGroup
	for b := <-batches; b != nil; b = <-batches {
		all = append(all, b...)
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.syncAll(b, true)
		}()
	}
	files <- all
	wg.Wait()
	close(done)
}

// syncRest syncs the files (the whole walk, sorted) that early (synced
// while the walk went on: earlyDone is closed once they are) does not
// hold, and returns once every file is synced. The early files' workers
// step aside meanwhile (board.pause): the rest of the home (file
// history, pastes, history.jsonl) comes first in the state's order,
// the projects' files after, so their lines would wait for the rest's
// before being written (stateStream), most of the state held again.
func (s *syncer) syncRest(files, early []homeFile, earlyDone <-chan struct{}) {
	done := make(map[string]bool, len(early))
	for _, f := range early {
		done[f.rel] = true
	}
	rest := make([]homeFile, 0, len(files)-len(early))
	for _, f := range files {
		if !done[f.rel] {
			rest = append(rest, f)
		}
	}
	if len(rest) > 0 {
		s.board.pause()
		s.syncAll(rest, false)
		s.board.resume()
	}
	<-earlyDone
}

// isUnchanged reports whether the vault has f as it is (same identity,
// size and time): such a file is not opened (s.mu held).
func (s *syncer) isUnchanged(f homeFile) bool {
	e := s.st.entries[f.rel]
	if e == nil {
		return false
	}
	h, id := e.head, model.FileIDOf(f.info)
	return h.Gone.IsZero() && h.Follow != nil && id.Known && h.Follow.ID == id &&
		h.Follow.Size == f.info.Size() && h.Follow.ModTime == f.info.ModTime().UnixNano()
}

// syncFile brings one file's record up to date and returns it when it
// changed (nil when it did not); opened is the file, when the
// prefetcher opened it (syncFile closes it).
func (s *syncer) syncFile(f homeFile, opened fs.File) (*Record, error) {
	if f.info == nil {
		var err error
		if f, opened, err = s.infoOf(f, opened); err != nil {
			return nil, err
		}
	}
	id := model.FileIDOf(f.info)
	mtime := f.info.ModTime().UnixNano()
	s.mu.Lock()
	if s.isUnchanged(f) {
		s.rep.Unchanged++
		s.mu.Unlock()
		if opened != nil {
			opened.Close()
		}
		return nil, nil
	}
	rec := s.st.get(f.rel)
	s.mu.Unlock()
	// The file is read: its chunks will be looked up in the index,
	// which is read meanwhile.
	s.pw.ix.prefetch()
	file := opened
	if file == nil {
		var err error
		if file, err = model.OpenRegular(s.home.FS, f.rel); err != nil {
			return nil, &fileProblem{p: model.Problem{File: f.rel, Kind: model.ProblemUnreadable, Reason: err.Error()}}
		}
	}
	defer file.Close()
	jsonl := strings.HasSuffix(f.rel, ".jsonl")
	var latest *Version
	if rec != nil {
		latest = rec.Latest()
	}
	start, kept := int64(0), []Chunk(nil)
	if latest != nil && rec.Follow != nil && id.Known && rec.Follow.ID == id && f.info.Size() > smallFile &&
		f.info.Size() >= rec.Follow.Size && rec.Follow.Closed > 0 &&
		rec.Follow.ClosedChunks <= len(latest.Chunks) && s.closedIntact(file, rec) {
		start, kept = rec.Follow.Closed, latest.Chunks[:rec.Follow.ClosedChunks]
	}
	if start > 0 {
		sk, ok := file.(io.Seeker)
		if !ok {
			start, kept = 0, nil
		} else if _, err := sk.Seek(start, io.SeekStart); err != nil {
			return nil, &fileProblem{p: model.Problem{File: f.rel, Kind: model.ProblemUnreadable, Reason: err.Error()}}
		}
	}
	prefixAt := int64(-1)
	if latest != nil && latest.Size >= start {
		prefixAt = latest.Size
	}
	// The normalizer keeps its buffer from file to file (a chunk's bytes
	// are copied when stored): a new one a file grew it again by
	// doubling, a third of a first sync's allocated bytes.
	s.cut.norm.enabled = jsonl
	s.cut.prefixAt = prefixAt
	s.cut.store = s.store
	if s.pw.codec.framed() {
		if s.frame == nil {
			s.frame = s.pw.fill()
		}
		s.cut.into = s.frameTail
	}
	s.cut.hash = s.v.hash
	res, err := s.cut.cut(file, start, f.info.Size()-start, jsonl)
	if err != nil {
		if errors.Is(err, fs.ErrClosed) || isWriteErr(err) {
			return nil, err
		}
		return nil, &fileProblem{p: model.Problem{File: f.rel, Kind: model.ProblemUnreadable, Reason: err.Error()}}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rep.BytesRead += res.size
	s.rep.BytesNew += res.newBytes
	chunks := append(append([]Chunk(nil), kept...), res.chunks...)
	ver := Version{Size: start + res.size, ModTime: f.info.ModTime(), Mode: f.info.Mode().Perm(),
		Sum: chunksSum(chunks), Chunks: chunks, Synced: s.now}
	closedChunks := len(chunks) - 1
	if len(res.chunks) == 0 {
		closedChunks = len(kept)
	}
	if closedChunks < 0 {
		closedChunks = 0
	}
	fl := &follow{ID: id, Size: start + res.size, ModTime: mtime, Closed: res.lastStart,
		ClosedChunks: closedChunks}
	if !jsonl || ver.Size == f.info.Size() {
		fl.Size = f.info.Size()
	}
	if rec == nil {
		rec = &Record{Path: f.rel, Kind: f.kind, Session: f.session, Project: f.project}
		s.rep.New++
	} else {
		s.rep.Changed++
	}
	rec.Gone = time.Time{}
	rec.Follow = fl
	defer s.st.put(rec)
	switch {
	case latest == nil:
		rec.Versions = append(rec.Versions, ver)
	case sameChunks(latest.Chunks, chunks),
		// the old version is a prefix of this one: nothing of it is lost.
		res.prefixSeen && isPrefix(latest.Chunks, chunks[:len(kept)+res.prefixChunks], res.prefixPart):
		*latest = ver
	default:
		rec.Versions = append(rec.Versions, ver)
	}
	return rec, nil
}

// infoOf gives f, listed without its information (walkHome), the
// file's information: a file the vault knows is looked at from its
// listed folder (an lstat: an unchanged one is not opened), a new one
// is opened (unless opened is: the prefetcher opened it) and takes its
// open's (OpenedInfo: the fstat that checks it is a regular file). It
// returns f with its information and the file opened (nil when not),
// or the problem (the file closed). Before, the walk asked each file's
// lstat, on one core while the workers waited for files, and each open
// its fstat again (a first sync of the bench home: 3 864 fstatat, 4 029
// fstat).
func (s *syncer) infoOf(f homeFile, opened fs.File) (homeFile, fs.File, error) {
	s.mu.Lock()
	known := s.st.entries[f.rel] != nil
	s.mu.Unlock()
	var err error
	switch {
	case known:
		f.info, err = statListed(s.home.FS, f.rel)
	case opened == nil:
		opened, err = model.OpenRegular(s.home.FS, f.rel)
		if err == nil {
			f.info, err = model.OpenedInfo(opened)
		}
	default:
		f.info, err = model.OpenedInfo(opened)
	}
	if err == nil && !f.info.Mode().IsRegular() {
		err = errors.New(model.NotRegularReason(f.info.Mode()) + " (not kept)")
	}
	if err != nil {
		if opened != nil {
			opened.Close()
		}
		return f, nil, &fileProblem{p: model.Problem{File: f.rel, Kind: model.ProblemUnreadable, Reason: err.Error()}, vanished: errors.Is(err, fs.ErrNotExist)}
	}
	return f, opened, nil
}

// statListed is the information of the regular file rel of fsys as its
// folder's listing has it (model.ListedInfo: the listing's one lstat of
// it), or the system's lstat of it when that does not answer.
func statListed(fsys fs.FS, rel string) (fs.FileInfo, error) {
	if info, ok := model.ListedInfo(fsys, rel); ok {
		return info, nil
	}
	return fs.Lstat(fsys, rel)
}

// isPrefix reports whether old (a version's chunks) are the chunks of
// the new version's first bytes: the new version's first chunks, then
// part (the part of its next chunk they end in; N 0 when they end
// between two chunks). Both are cut by the same rules, so a version that
// only grew is cut as it was up to its old last chunk, which was cut by
// the old end of the file.
func isPrefix(old, first []Chunk, part Chunk) bool {
	if part.N > 0 {
		first = append(slices.Clip(first), part)
	}
	return sameChunks(old, first)
}

// isWriteErr reports whether err came from writing the vault (which
// stops the sync) rather than reading the home.
func isWriteErr(err error) bool {
	var we *writeErr
	return errors.As(err, &we)
}

// writeErr wraps a failure to store a chunk.
type writeErr struct{ err error }

func (e *writeErr) Error() string { return e.err.Error() }
func (e *writeErr) Unwrap() error { return e.err }

// frameTail is the room after the bytes of the frame s fills.
func (s *syncer) frameTail(n int) []byte { return s.pw.tail(s.frame, n) }

// store adds a chunk to the pack being written.
func (s *syncer) store(k key, data []byte) (bool, error) {
	var fresh bool
	var err error
	if s.frame != nil {
		fresh, err = s.pw.addFilled(s.frame, k, data)
	} else {
		fresh, err = s.pw.add(k, data)
	}
	if err != nil {
		return false, &writeErr{err}
	}
	return fresh, nil
}

// closedIntact reports whether the file still holds, just before the
// recorded Closed offset, the last closed chunk the vault has: the check
// that lets an incremental sync trust the part it does not read.
func (s *syncer) closedIntact(file fs.File, rec *Record) bool {
	fl := rec.Follow
	latest := rec.Latest()
	if fl.ClosedChunks == 0 {
		return false
	}
	last := latest.Chunks[fl.ClosedChunks-1]
	ra, ok := file.(io.ReaderAt)
	if !ok || last.N > maxChunk || last.N > fl.Closed {
		return false
	}
	buf := make([]byte, last.N)
	if _, err := ra.ReadAt(buf, fl.Closed-last.N); err != nil {
		return false
	}
	n := normalizer{enabled: strings.HasSuffix(rec.Path, ".jsonl")}
	data, raw, _ := n.forward(buf)
	k, ok := keyOf(last.H)
	return ok && raw == last.Raw && s.v.hash.sum(data) == k
}

// walkHome lists the files a sync keeps: every session's transcript and
// folder, file history, pastes, memory folders and history.jsonl; only
// one session's (and history.jsonl) when session is set. Links are
// followed inside the home only (model.ReadDirFollow's rule). A
// write-once folder fw trusts (folders.go) is not listed; fw notes the
// ones listed. The walk does not need the vault's state (a sync runs it
// while the state is read): a trusted folder is checked against the
// state afterwards (settleWalk). projects, when set, is handed the
// projects' files as they are listed, in at most two batches, each
// sorted: the first project folder's files as soon as it is listed
// (the workers start on them while the other projects are listed),
// then the other projects' once they all are; then nil.
func walkHome(fsys fs.FS, session model.SessionID, probs *[]model.Problem, fw *folderWalk, projects func([]homeFile)) []homeFile {
	w := &homeWalk{fsys: fsys, probs: probs, fw: fw}
	all := session == ""
	defer func() {
		if projects != nil {
			projects(nil) // the walk stopped before its projects' end
		}
	}()
	handed := 0 // w.out[:handed] went to projects
	for _, p := range model.ReadDirFollowFiles(fsys, "projects", probs) {
		if !isDir(p) {
			continue
		}
		if projects != nil && handed == 0 && len(w.out) > 0 {
			handed = handOver(projects, w.out, handed)
		}
		for _, e := range model.ReadDirFollowFiles(fsys, p.Path, probs) {
			switch {
			case isDir(e) && e.Name == "memory":
				if all {
					w.files(e.Path, false, KindMemory, "", p.Name)
				}
			case isDir(e):
				if all || model.SessionID(e.Name) == session {
					w.files(e.Path, true, KindSessionFile, model.SessionID(e.Name), p.Name)
				}
			case strings.HasSuffix(e.Name, ".jsonl"):
				sid := model.SessionID(strings.TrimSuffix(e.Name, ".jsonl"))
				if all || sid == session {
					w.add(e.Path, e.Info, KindTranscript, sid, p.Name)
				}
			}
		}
	}
	if projects != nil {
		handOver(projects, w.out, handed)
		projects(nil)
		projects = nil
	}
	for _, e := range model.ReadDirFollowFiles(fsys, model.FileHistoryDir, probs) {
		if isDir(e) && (all || model.SessionID(e.Name) == session) && !fw.trust(e.Path, e.Info) {
			w.onceFolder(e.Path, e.Info)
		}
	}
	if all {
		if info, err := model.StatInside(fsys, model.PasteCacheDir); fw != nil && err == nil && info.IsDir() {
			if !fw.trust(model.PasteCacheDir, info) {
				w.onceFolder(model.PasteCacheDir, info)
			}
		} else {
			w.pastes(nil)
		}
	} else {
		pastes := map[string]bool{}
		for _, h := range sessionPastes(fsys, session) {
			pastes[h] = true
		}
		w.pastes(pastes)
	}
	if all {
		w.files("agent-memory", false, KindMemory, "", "")
	}
	if info, err := model.StatInside(fsys, model.HistoryPath); err == nil {
		w.add(model.HistoryPath, info, KindHistory, "", "")
	}
	w.sort()
	return w.out
}

// settleWalk checks the write-once folders walkHome trusted against the
// vault's state (live: its files still in the home, by folder): a
// folder whose stamp counts other files than the vault holds is listed
// now, and its files join files (sorted again).
func settleWalk(fsys fs.FS, files []homeFile, probs *[]model.Problem, fw *folderWalk, live map[string][]string) []homeFile {
	late := fw.settle(live)
	if len(late) == 0 {
		return files
	}
	w := &homeWalk{fsys: fsys, probs: probs, fw: fw, out: files}
	for _, f := range late {
		w.onceFolder(f.rel, f.info)
	}
	w.sort()
	return w.out
}

// homeWalk gathers the files of a walk of the home.
type homeWalk struct {
	fsys  fs.FS
	probs *[]model.Problem
	fw    *folderWalk
	out   []homeFile
}

// add adds the file rel (info: nil for a regular file listed without
// its information, model.ReadDirFollowFiles).
func (w *homeWalk) add(rel string, info fs.FileInfo, kind Kind, sid model.SessionID, project string) {
	w.fw.count(rel)
	if info == nil || info.Mode().IsRegular() {
		w.out = append(w.out, homeFile{rel: rel, info: info, kind: kind, session: sid, project: project})
	} else if !info.IsDir() {
		*w.probs = append(*w.probs, model.Problem{File: rel, Kind: model.ProblemUnreadable, Reason: model.NotRegularReason(info.Mode()) + " (not kept)"})
	}
}

// files adds every file under dir as kind; once: its write-once folders
// may be trusted (folders.go).
func (w *homeWalk) files(dir string, once bool, kind Kind, sid model.SessionID, project string) {
	fw := w.fw
	if !once {
		fw = nil
	}
	walkFiles(w.fsys, dir, w.probs, fw, func(rel string, info fs.FileInfo) { w.add(rel, info, kind, sid, project) })
}

// onceFolder lists the write-once folder rel (info) fw did not trust:
// the pastes, a session's file history or a session's tool results.
func (w *homeWalk) onceFolder(rel string, info fs.FileInfo) {
	w.fw.list(rel, info)
	parts := strings.Split(rel, "/")
	switch {
	case rel == model.PasteCacheDir:
		w.pastes(nil)
	case parts[0] == model.FileHistoryDir && len(parts) == 2:
		w.files(rel, true, KindFileHistory, model.SessionID(parts[1]), "")
	case parts[0] == "projects" && len(parts) > 3:
		w.files(rel, true, KindSessionFile, model.SessionID(parts[2]), parts[1])
	}
}

// pastes adds the paste-cache's files (only those named in only, when
// set).
func (w *homeWalk) pastes(only map[string]bool) {
	for _, e := range model.ReadDirFollowFiles(w.fsys, model.PasteCacheDir, w.probs) {
		if only == nil || only[e.Name] {
			if isDir(e) {
				w.fw.subdir(model.PasteCacheDir)
			}
			w.add(e.Path, e.Info, KindPaste, "", "")
		}
	}
}

// handOver hands out[from:] (sorted, a copy) to projects, unless it is
// empty, and returns len(out).
func handOver(projects func([]homeFile), out []homeFile, from int) int {
	if len(out) > from {
		b := slices.Clone(out[from:])
		sort.Slice(b, func(i, j int) bool { return b[i].rel < b[j].rel })
		projects(b)
	}
	return len(out)
}

// isDir reports whether the walk's entry e is a folder (a regular
// file's comes without its information: not one).
func isDir(e model.Followed) bool { return e.Info != nil && e.Info.IsDir() }

func (w *homeWalk) sort() {
	sort.Slice(w.out, func(i, j int) bool { return w.out[i].rel < w.out[j].rel })
}

// walkFiles visits every file under dir (links followed inside the
// home), skipping memscope's own hidden files and the client's
// temporary copies, and the write-once folders fw trusts (nil: none).
func walkFiles(fsys fs.FS, dir string, probs *[]model.Problem, fw *folderWalk, fn func(rel string, info fs.FileInfo)) {
	for _, e := range model.ReadDirFollowFiles(fsys, dir, probs) {
		if skipName(e.Name) {
			continue
		}
		if isDir(e) {
			fw.subdir(dir)
			if writeOnceFolder(e.Path) {
				if fw.trust(e.Path, e.Info) {
					continue
				}
				fw.list(e.Path, e.Info)
			}
			walkFiles(fsys, e.Path, probs, fw, fn)
			continue
		}
		fn(e.Path, e.Info)
	}
}

// skipName reports the names a sync leaves: memscope's own folder and
// hidden files (journals, temporary and staged copies) and the client's
// temporary rewrite of a transcript.
func skipName(name string) bool {
	return name == ".memscope" || strings.HasPrefix(name, ".") && strings.Contains(name, ".memscope-") ||
		strings.Contains(name, ".compact.tmp.")
}

// sessionPastes lists the paste-cache file names the session's
// history.jsonl entries refer to.
func sessionPastes(fsys fs.FS, session model.SessionID) []string {
	f, err := model.OpenRegular(fsys, model.HistoryPath)
	if err != nil {
		return nil
	}
	defer f.Close()
	return pastesIn(f, session)
}

// pastesIn lists the paste-cache file names the session's entries of
// the history lines r holds refer to.
func pastesIn(r io.Reader, session model.SessionID) []string {
	var out []string
	_, _ = model.ScanHistory(r, model.HistoryPath, func(e *model.HistoryEntry) {
		if e.SessionID != session {
			return
		}
		for _, p := range e.PastedContents {
			if p.Hash != "" && p.Hash.IsCacheForm() {
				out = append(out, path.Base(string(p.Hash))+".txt")
			}
		}
	})
	return out
}

package secrets

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"math"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/memscope/memscope/engine/journal"
	"github.com/memscope/memscope/engine/scan"
	"github.com/memscope/memscope/engine/timeline"
	"github.com/memscope/memscope/internal/format"
	"github.com/memscope/memscope/internal/jsonscan"
	"github.com/memscope/memscope/model"
)

// Options say which home to scan and how.
type Options struct {
	Home *model.Home
	// Root is the machine from "/" (model.RootName paths), for the
	// project files outside the home; nil scans the home only.
	Root fs.FS
	// UserHome is the user's home folder, for ~/.claude.json.
	UserHome string
	// Getenv reads the environment (CLAUDE_CODE_REMOTE_MEMORY_DIR and the
	// memory folder's overrides move memory stores); nil reads nothing.
	Getenv func(string) string
	// Project, an absolute folder, keeps only that project's findings.
	Project string
	// Workers bounds the files read at once (default: the CPUs).
	Workers int
	// Leftovers are memscope's hidden copies in the home (absolute),
	// as engine/leftover's one search finds them
	// (leftover.HomeCopies): a killed scrub's staged file holds the
	// file as it was, secrets and all.
	Leftovers []string
	// PasteSums, when set, is handed the paste inventory's verdict on
	// each paste file the scan reads whole (model.PasteVerdictOf, from a
	// sha256 taken on the way), so the inventory's check need not read
	// the file again. Called from several goroutines at once.
	PasteSums func(model.PasteVerdict)
	// KeepMemory hands each topic file of a project's memory folder the
	// scan reads whole to the memory folders' readers
	// (model.KeepMemoryRead): a reader after the scan (the Overview's
	// inventory) parses those bytes instead of reading the file again.
	KeepMemory bool
	// trusted, when set, answers for the listing of the write-once
	// folders the counts' cache stamped (Counts).
	trusted *trustedFolders
	// units is how many units the listing expects (the last run's
	// counts: the slice's room).
	units int
}

// Finding is one secret at rest.
type Finding struct {
	// ID names the finding for --only: it stays the same while the
	// secret's bytes stay where they are (appends to a file keep it).
	ID      string      `json:"id"`
	Rule    scan.RuleID `json:"rule"`
	Message string      `json:"message"`
	Store   Store       `json:"store"`
	// File is relative to the home, or absolute when Outside.
	File    string `json:"file"`
	Outside bool   `json:"outside,omitempty"`
	// Line is 1-based; Column counts bytes of the line as stored, 1-based.
	Line   int   `json:"line"`
	Column int   `json:"column"`
	Offset int64 `json:"offset"`
	Length int   `json:"length"`
	// JSONPath is the string holding the secret inside the line's JSON
	// value ("message.content[2].content"); "" in text.
	JSONPath string `json:"jsonPath,omitempty"`
	// RecordType is the line's "type" (transcripts); Part says in words
	// what held the secret ("tool result", "user prompt", …).
	RecordType string          `json:"recordType,omitempty"`
	Part       string          `json:"part,omitempty"`
	Session    model.SessionID `json:"session,omitempty"`
	Agent      string          `json:"agent,omitempty"`
	Project    string          `json:"project,omitempty"`
	// Turn is the API response the record went to or came from (1-based,
	// timeline.IsTurn's count), 0 outside transcripts' main chain.
	Turn    int       `json:"turn,omitempty"`
	Time    time.Time `json:"time,omitzero"`
	Excerpt string    `json:"excerpt"`
	// SameAs is the ID of the first finding of the same secret (the same
	// key pasted, or repeated in every later request of a session).
	SameAs string `json:"sameAs,omitempty"`
	// secret is the secret itself: shown only when asked (Reveal).
	secret string
}

// Secret returns the secret itself. Print it only when the user asked.
func (f Finding) Secret() string { return f.secret }

// StoreCount is what a scan read of one store.
type StoreCount struct {
	Store    Store `json:"store"`
	Files    int   `json:"files"`
	Bytes    int64 `json:"bytes"`
	Findings int   `json:"findings"`
}

// Report is a scan of a home.
type Report struct {
	Home     string          `json:"home"`
	Project  string          `json:"project,omitempty"`
	Stores   []StoreCount    `json:"stores"`
	Findings []Finding       `json:"findings"`
	Copies   []Copy          `json:"copies"`
	Problems []model.Problem `json:"problems"`
	// Bytes is everything read.
	Bytes int64 `json:"bytes"`
}

// Scan reads every store of the home once, files on all CPUs (biggest
// first), and reports every secret with where it is. It holds every
// finding; Begin and Each hand them out one at a time instead.
func Scan(o Options) Report {
	// It keeps them all anyway: no file is read a second time.
	s := begin(o, math.MaxInt64)
	r := s.Report
	r.Findings = []Finding{}
	s.Each(func(f *Finding) { r.Findings = append(r.Findings, *f) })
	return r
}

// Scanning is a scan read but not yet handed out: its Report has every
// count, copy and problem, and no finding; Each hands the findings out
// in Scan's order. A scan holds a bounded number of findings (heldMax in
// all); a file past that is scanned again by Each, so what a scan holds
// is bounded by the files it reads, not by the secrets they hold.
type Scanning struct {
	// Report is the scan without its findings (Findings is empty):
	// counted, so it can be printed before them.
	Report  Report
	o       Options
	units   []unit
	results []fileResult
	hist    *lazyHistory
}

// heldMax bounds the findings a scan holds between Begin and Each
// (about 900 bytes each, 4 MB in all); a file whose findings would pass
// it is scanned again when Each reaches it.
var heldMax int64 = 1 << 12

// Begin reads every store of the home (files on all CPUs, biggest first)
// and counts what it found; Each hands the findings out.
func Begin(o Options) *Scanning { return begin(o, heldMax) }

// hold counts the findings held across the scan's workers, up to max.
type hold struct {
	n   atomic.Int64
	max int64
}

// begin is Begin holding at most limit findings.
func begin(o Options, limit int64) *Scanning {
	units, probs := listUnits(o)
	s := &Scanning{o: o, units: units, hist: &lazyHistory{fsys: o.Home.FS}}
	all := make([]int, len(units))
	for i := range all {
		all[i] = i
	}
	s.results = scanUnits(o, units, all, s.hist, &hold{max: limit}, nil, nil)
	s.Report = report(o, units, s.results, probs)
	return s
}

// scanUnits scans the units at the indexes idx on o.Workers workers,
// biggest first, and returns their results in the order of idx. held
// nil only counts (scanUnit). stamp, when not nil, is handed the stamp
// of each file from the open that reads it (j its index in idx; a cache's
// check, diskcache.Stamping), and after, when not nil, the information
// of each file it stamped once its read is done (diskcache.Checking).
func scanUnits(o Options, units []unit, idx []int, hist *lazyHistory, held *hold, stamp, after func(j int, st model.FileStamp)) []fileResult {
	order := make([]int, len(idx))
	for i := range order {
		order[i] = i
	}
	// The units whose size is known, biggest first; then the files a
	// listing named (pastes, backups, memory: unit.ent), in its order,
	// each sized by the open that reads it (no lstat before: on W some
	// 11 500 system calls of a cold start).
	sort.SliceStable(order, func(a, b int) bool {
		ua, ub := &units[idx[order[a]]], &units[idx[order[b]]]
		if (ua.ent == nil) != (ub.ent == nil) {
			return ua.ent == nil
		}
		return ua.size > ub.size
	})
	workers := o.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	out := make([]fileResult, len(idx))
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range min(workers, max(len(idx), 1)) {
		wg.Go(func() {
			w := newWorker()
			w.pasteSums, w.keepMemory = o.PasteSums, o.KeepMemory
			for j := range jobs {
				out[j] = w.scanUnit(&units[idx[j]], hist, o.Project, held, stamp, after, j)
			}
		})
	}
	for _, j := range order {
		jobs <- j
	}
	close(jobs)
	wg.Wait()
	return out
}

// report counts the results of a scan of units (in the same order) by
// store, and lists the scrub copies.
func report(o Options, units []unit, results []fileResult, probs []model.Problem) Report {
	r := Report{Home: o.Home.Dir, Project: o.Project, Findings: []Finding{}, Problems: []model.Problem{}}
	counts := map[Store]*StoreCount{}
	for _, st := range Stores() {
		counts[st] = &StoreCount{Store: st}
	}
	for i, u := range units {
		res := &results[i]
		probs = append(probs, res.problems...)
		res.problems = nil
		if !res.read {
			continue
		}
		c := counts[u.store]
		c.Files++
		c.Bytes += res.bytes
		r.Bytes += res.bytes
		c.Findings += res.kept
	}
	for _, st := range Stores() {
		r.Stores = append(r.Stores, *counts[st])
	}
	r.Copies, probs = listCopies(o.Home, probs)
	r.Problems = append(r.Problems, probs...)
	return r
}

// Count is the number of findings Each hands out (when no file changed
// in between).
func (s *Scanning) Count() int { return s.Report.Count() }

// Count is the number of findings the report's stores counted.
func (r Report) Count() int {
	n := 0
	for _, c := range r.Stores {
		n += c.Findings
	}
	return n
}

// Each hands every finding to fn, in Scan's order, each with its turn
// and the first finding of the same secret (SameAs); fn must not keep
// the pointer. A file whose findings were not held is read again, up to
// the bytes the scan read. Each hands out what it held once: call it
// once.
func (s *Scanning) Each(fn func(*Finding)) {
	// The first finding of each secret, by a hash of the secret: a
	// scan of a million different secrets holds a few dozen bytes each.
	first := map[[12]byte]idKey{}
	w := newWorker()
	for i, u := range s.units {
		res := &s.results[i]
		if !res.read || res.kept == 0 {
			continue
		}
		emit := func(f *Finding) {
			res.turns.set(f)
			h := sha256.Sum256([]byte(string(f.Rule) + "\x00" + f.secret))
			k := [12]byte(h[:12])
			if id, ok := first[k]; ok {
				f.SameAs = id.String()
			} else {
				first[k] = keyOf(f.ID)
			}
			fn(f)
		}
		if !res.rescan {
			for j := range res.findings {
				emit(&res.findings[j])
			}
			res.findings, res.turns = nil, nil
			continue
		}
		w.rescanUnit(u, res.bytes, func(f *Finding) {
			if s.hist.attach(f, u, s.o.Project) {
				emit(f)
			}
		})
		res.turns = nil
	}
}

// idKey is a finding's ID ("s" and 9 hex digits) as a fixed-size value,
// for maps of a million findings.
type idKey [10]byte

func keyOf(id string) (k idKey) {
	copy(k[:], id)
	return k
}

func (k idKey) String() string { return strings.TrimRight(string(k[:]), "\x00") }

// fileResult is what scanning one file gave.
type fileResult struct {
	read     bool
	bytes    int64
	problems []model.Problem
	// kept counts the findings the file gave (after the project filter);
	// findings holds them unless rescan: then Each reads the file again.
	kept     int
	findings []Finding
	rescan   bool
	// turns are the turn and time of each transcript line with a finding.
	turns lineTurns
}

// worker scans files one after another, reusing its buffers.
type worker struct {
	a    *scan.Anchors
	lr   *model.LineReader
	sc   jsonscan.Scanner
	hits []scan.AnchorHit
	// at is, while a finding is emitted, the bytes it was found in (its
	// line, or the whole file), starting at the file's byte atOffset: a
	// scrub's plan checks the span there, holding no copy of the file.
	at       []byte
	atOffset int64
	// whole is readWhole's buffer.
	whole []byte
	// pasteSums is Options.PasteSums (nil: no paste is hashed).
	pasteSums func(model.PasteVerdict)
	// keepMemory is Options.KeepMemory.
	keepMemory bool
	// quick is the file being scanned when its listed folder opened it
	// (scanUnit); tr, head and sum the tee of its read, reused.
	quick     model.HeldRead
	tr        teeRead
	head, sum hash.Hash
}

func newWorker() *worker { return &worker{a: scan.SecretAnchors()} }

// maxTextBytes bounds a text or JSON file read whole (so a key block
// spanning lines is found, and a JSON file's strings have paths); bigger
// ones are read line by line like JSONL, each line bounded, so memory
// stays flat whatever a hostile home holds.
const maxTextBytes = 4 << 20

// scanUnit scans one file for Begin: it counts the findings the
// project keeps, holds them while the scan's budget (held) allows, and
// notes the turn of each transcript line that has one. With held nil it
// only counts (Counts): it holds no finding and notes no turn. stamp,
// when not nil, is handed j and the file's stamp, taken from the open
// that reads it before the read, its head hash from the scan's own read
// of the head (teeRead; not called when it cannot be taken). A file of
// a listed home is opened into the worker's own (model.HeldRead: a
// cold count opens some 11 500 small files, each else a file, its
// cleanup, its information and its path made).
func (w *worker) scanUnit(up *unit, hist *lazyHistory, project string, held *hold, stamp, after func(int, model.FileStamp), j int) fileResult {
	var res fileResult
	var f fs.File
	if up.format != formatJournal && w.quick.Open(up.fsys, up.name) {
		f = &w.quick
	} else {
		var err error
		if f, err = model.OpenRegular(up.fsys, up.name); err != nil {
			if !isNotExist(err) {
				res.problems = append(res.problems, model.Problem{File: up.file, Kind: model.ProblemUnreadable, Reason: err.Error()})
			}
			return res
		}
	}
	defer f.Close()
	pasteSum := w.pasteSums != nil && up.store == StorePaste && up.inHome
	var st model.FileStamp
	stOK := false
	if up.ent != nil || (up.format != formatJournal && (stamp != nil || pasteSum)) {
		st, stOK = w.opened(f)
	}
	up.sized(st, stOK)
	u := *up
	var t *teeRead
	if u.format != formatJournal && stOK {
		t = w.tee(f, u, st, stamp != nil, pasteSum)
	}
	if stamp != nil && t == nil {
		if st, err := model.StampOpened(f, u.name); err == nil {
			stamp(j, st)
		}
	}
	res.read = true
	var lines []int
	emit := func(f *Finding) {
		if held == nil && project == "" {
			// Counting only, every finding kept (attach keeps them all).
			res.kept++
			return
		}
		if !hist.attach(f, u, project) {
			return
		}
		res.kept++
		if held == nil {
			return
		}
		if u.store.IsTranscript() && (len(lines) == 0 || lines[len(lines)-1] != f.Line) {
			lines = append(lines, f.Line)
		}
		if res.rescan {
			return
		}
		if held.n.Add(1) > held.max {
			held.n.Add(-int64(len(res.findings)) - 1)
			res.findings, res.rescan = nil, true
			return
		}
		res.findings = append(res.findings, *f)
	}
	if u.format == formatJournal {
		w.scanJournal(f, u, &res, emit)
		return res
	}
	switch {
	case !u.byLine():
		// Read whole (f is the file: a read short at its size is its
		// end), then the tee takes the bytes read.
		memory := w.keepMemory && u.store == StoreMemory && u.inHome && stOK
		// A memory file a memory folder's read (the open project's)
		// read as it is now is not read again; one the scan reads is
		// kept for the readers after it (Options.KeepMemory).
		var data []byte
		var eof bool
		var err error
		if memory {
			data, eof = model.KeptMemoryRead(u.name, st)
		}
		if !eof {
			data, eof, err = w.readWhole(f, u.size, true)
			if memory && eof && err == nil {
				model.KeepMemoryRead(u.name, st, data)
			}
		}
		if t != nil {
			t.took(data, eof)
		}
		w.scanData(data, err, u, &res, emit)
		if t != nil {
			t.done(u.name, stamp, j, w.pasteSums)
		}
	case t != nil:
		w.scanFile(t, u, &res, emit)
		t.done(u.name, stamp, j, w.pasteSums)
	default:
		w.scanFile(f, u, &res, emit)
	}
	if stamp != nil && after != nil {
		// The file as it is after the read, from its descriptor (not
		// its name again: diskcache.Checking).
		if st, err := stampNow(f); err == nil {
			after(j, st)
		}
	}
	if len(lines) > 0 {
		var err error
		if res.turns, err = turnsOf(u, lines); err != nil {
			res.problems = append(res.problems, model.Problem{File: u.file, Kind: model.ProblemUnreadable, Reason: err.Error()})
		}
	}
	return res
}

// rescanUnit scans a file again for Each, up to the bytes Begin read
// (appended lines are not counted, so they are not handed out), handing
// out every finding; its problems were reported by Begin.
func (w *worker) rescanUnit(u unit, n int64, emit func(*Finding)) {
	f, err := model.OpenRegular(u.fsys, u.name)
	if err != nil {
		return
	}
	defer f.Close()
	var res fileResult
	r := io.LimitReader(f, n)
	if u.format == formatJournal {
		w.scanJournal(r, u, &res, emit)
		return
	}
	w.scanFile(r, u, &res, emit)
}

// scanFile scans a file of u's format (not a journal): line by line
// when it is JSONL or too big to read whole, else whole.
func (w *worker) scanFile(r io.Reader, u unit, res *fileResult, emit func(*Finding)) {
	if u.byLine() {
		w.scanLines(r, u, res, emit)
	} else {
		w.scanWhole(r, u, res, emit)
	}
}

// sized sets the size of u, a file a listing named (unit.ent), from
// st, the stamp of its open (ok: taken; worker.opened: what the open
// already asked), once: what the scan reads by, and Each's read again.
// (The entry's Info would be one more lstat a file.)
func (u *unit) sized(st model.FileStamp, ok bool) {
	if u.ent == nil {
		return
	}
	if ok {
		u.size = st.Size
	}
	u.ent = nil
}

// opened is the stamp of f, a file the worker just opened, without a
// head hash: what its open asked (model.HeldRead's, model.OpenedInfo).
func (w *worker) opened(f fs.File) (model.FileStamp, bool) {
	if q, ok := f.(*model.HeldRead); ok {
		return q.Stamp(), true
	}
	info, err := model.OpenedInfo(f)
	if err != nil {
		return model.FileStamp{}, false
	}
	return model.StampOf(info), true
}

// stampNow is the stamp of f, an open file, as it is now (no head
// hash): an fstat of its descriptor.
func stampNow(f fs.File) (model.FileStamp, error) {
	if q, ok := f.(*model.HeldRead); ok {
		return q.StampNow()
	}
	info, err := f.Stat()
	if err != nil {
		return model.FileStamp{}, err
	}
	return model.StampOf(info), nil
}

// byLine says whether u is scanned line by line (JSONL, or too big to
// read whole): its findings come in line order.
func (u unit) byLine() bool { return u.format == formatJSONL || u.size > maxTextBytes }

func isNotExist(err error) bool { return errors.Is(err, fs.ErrNotExist) }

// scanLines reads r one line at a time: lines without an anchor are
// skipped after one pass over their bytes; the others are decoded (JSON)
// or matched as text when they do not parse.
func (w *worker) scanLines(r io.Reader, u unit, res *fileResult, emit func(*Finding)) {
	// The line reader drops a byte order mark from the first line; the
	// line's offsets must still be the file's.
	br := bufio.NewReaderSize(r, 4<<10)
	bom := 0
	if p, _ := br.Peek(len(utf8BOM)); bytes.Equal(p, utf8BOM) {
		bom = len(utf8BOM)
	}
	if w.lr == nil {
		w.lr = model.NewLineReader(br)
	} else {
		w.lr.Reset(br)
	}
	lr := w.lr
	for {
		l, ok := lr.Next()
		if !ok {
			break
		}
		w.scanLine(u, res, l, bom, emit)
	}
	if err := lr.Err(); err != nil {
		res.problems = append(res.problems, model.Problem{File: u.file, Kind: model.ProblemUnreadable, Reason: err.Error()})
	}
}

// scanLine scans one line of a file read line by line (scanLines, and
// the shared pass's Feed); bom is the byte order mark's length the line
// reader dropped from the first line.
func (w *worker) scanLine(u unit, res *fileResult, l model.Line, bom int, emit func(*Finding)) {
	res.bytes += l.Size + 1
	if l.TooLong {
		res.problems = append(res.problems, l.TooLongProblem(u.file))
		return
	}
	w.hits = w.a.Find(l.Bytes, w.hits[:0])
	if len(w.hits) == 0 {
		return
	}
	var spans []scan.SecretSpan
	recType := ""
	if u.format != formatText {
		var err error
		spans, recType, err = w.a.ScanJSON(&w.sc, l.Bytes, w.hits)
		if err != nil {
			spans, recType = w.a.ScanText(l.Bytes, w.hits), ""
		}
	} else {
		spans = w.a.ScanText(l.Bytes, w.hits)
	}
	off := l.Offset
	if l.Number == 1 {
		off += int64(bom)
	}
	w.at, w.atOffset = l.Bytes, off
	for _, s := range spans {
		f := newFinding(u, s, l.Bytes, l.Number, off, recType)
		emit(&f)
	}
}

// scanWhole reads a text or JSON file whole: a secret may span lines
// (key blocks), and a JSON file's strings have paths.
func (w *worker) scanWhole(r io.Reader, u unit, res *fileResult, emit func(*Finding)) {
	data, _, err := w.readWhole(r, u.size, false)
	w.scanData(data, err, u, res, emit)
}

// scanData scans data, a text or JSON file read whole (err: the read's
// error).
func (w *worker) scanData(data []byte, err error, u unit, res *fileResult, emit func(*Finding)) {
	if err != nil {
		res.problems = append(res.problems, model.Problem{File: u.file, Kind: model.ProblemUnreadable, Reason: err.Error()})
		return
	}
	res.bytes = int64(len(data))
	w.hits = w.a.Find(data, w.hits[:0])
	if len(w.hits) == 0 || model.LooksBinary(data) {
		return
	}
	var spans []scan.SecretSpan
	if u.format == formatJSON {
		spans, _, err = w.a.ScanJSON(&w.sc, data, w.hits)
	}
	if u.format != formatJSON || err != nil {
		spans = w.a.ScanText(data, w.hits)
	}
	// Line numbers counted on from the last span's (spans come in
	// order; one that does not counts from the start): linear however
	// many secrets the file holds.
	at, line := 0, 1
	w.at, w.atOffset = data, 0
	for _, s := range spans {
		// Line and column from the offset.
		ls := bytes.LastIndexByte(data[:s.Start], '\n') + 1
		if ls < at {
			at, line = 0, 1
		}
		line += bytes.Count(data[at:ls], []byte("\n"))
		at = ls
		le := bytes.IndexByte(data[ls:], '\n')
		if le < 0 {
			le = len(data) - ls
		}
		s.Start, s.End = s.Start-ls, s.End-ls
		f := newFinding(u, s, data[ls:ls+le], line, int64(ls), "")
		emit(&f)
	}
}

// readWhole reads r to its end, at most maxTextBytes+1 bytes, into the
// worker's buffer (valid until the next call), sized for a file of size
// bytes that may have grown a little since it was listed: as
// io.ReadAll(io.LimitReader(r, maxTextBytes+1)) without its doublings,
// and one buffer for all the files a worker reads whole. With atSize (r
// is a regular file itself, whose reads come back short only at its
// end), a read that comes back short with size bytes read is the end (a
// file that grew fills the read further): one read a small file, not
// two (on W some 13 900 system calls of a cold start). eof says the end
// was met (not the limit).
func (w *worker) readWhole(r io.Reader, size int64, atSize bool) (data []byte, eof bool, err error) {
	if want := int(min(max(size, 0), maxTextBytes)) + bytes.MinRead; cap(w.whole) < want {
		w.whole = make([]byte, 0, want)
	}
	buf := w.whole[:0]
	limit := maxTextBytes + 1
	for {
		if len(buf) == cap(buf) {
			buf = slices.Grow(buf, min(cap(buf), limit-len(buf)))
		}
		asked := min(cap(buf), limit) - len(buf)
		n, err := r.Read(buf[len(buf) : len(buf)+asked])
		buf = buf[:len(buf)+n]
		w.whole = buf
		switch {
		case len(buf) == limit:
			return buf, false, nil
		case err == io.EOF:
			return buf, true, nil
		case err != nil:
			return buf, false, err
		case atSize && n > 0 && n < asked && size > 0 && int64(len(buf)) == size:
			return buf, true, nil
		}
	}
}

// scanJournal scans the files an undo journal keeps (each entry holds
// the bytes of every file it changed, as they were before): a secret
// removed from memory, or restored over, lives on there.
func (w *worker) scanJournal(r io.Reader, u unit, res *fileResult, emit func(*Finding)) {
	data, err := io.ReadAll(io.LimitReader(r, model.MaxJournalBytes))
	if err != nil {
		res.problems = append(res.problems, model.Problem{File: u.file, Kind: model.ProblemUnreadable, Reason: err.Error()})
		return
	}
	res.bytes = int64(len(data))
	entries, _ := journal.ParseEntries(u.file, data)
	for _, e := range entries {
		for i, jf := range e.Files {
			w.hits = w.a.Find(jf.Before, w.hits[:0])
			if len(w.hits) == 0 || model.LooksBinary(jf.Before) {
				continue
			}
			for _, s := range w.a.ScanText(jf.Before, w.hits) {
				line := bytes.Count(jf.Before[:s.Start], []byte("\n")) + 1
				f := Finding{Rule: s.Rule, Message: s.Message, Store: u.store, File: u.file, Line: line,
					Column: s.Start - bytes.LastIndexByte(jf.Before[:s.Start], '\n'), Offset: int64(s.Start), Length: s.End - s.Start,
					JSONPath: fmt.Sprintf("[%q].files[%d].before", e.ID, i), Part: "undo copy of " + jf.Path + " (" + string(e.Op) + ", " + e.ID + ")",
					Session: u.session, Project: u.project, Time: e.Time, Excerpt: s.Excerpt, secret: s.Secret}
				h := sha256.Sum256([]byte(f.File + "\x00" + e.ID + "\x00" + strconv.Itoa(i) + "\x00" + strconv.Itoa(s.Start) + "\x00" + string(f.Rule)))
				f.ID = "s" + hex.EncodeToString(h[:])[:9]
				emit(&f)
			}
		}
	}
}

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// newFinding makes the finding of span s of a line (s's offsets are in
// line, which starts at byte lineOff of the file).
func newFinding(u unit, s scan.SecretSpan, line []byte, lineNo int, lineOff int64, recType string) Finding {
	f := Finding{Rule: s.Rule, Message: s.Message, Store: u.store, File: u.file, Outside: u.outside,
		Line: lineNo, Column: s.Start + 1, Offset: lineOff + int64(s.Start), Length: s.End - s.Start,
		JSONPath: s.Path, RecordType: recType, Session: u.session, Agent: u.agent, Project: u.project,
		Excerpt: s.Excerpt, secret: s.Secret}
	f.Part = partOf(u.store, recType, s.Path)
	h := sha256.Sum256([]byte(f.File + "\x00" + strconv.FormatInt(f.Offset, 10) + "\x00" + string(f.Rule)))
	f.ID = "s" + hex.EncodeToString(h[:])[:9]
	if u.store == StoreHistory {
		if e, err := model.ParseHistoryLine(line, lineNo); err == nil {
			f.Session, f.Project, f.Time = e.SessionID, e.Project, e.Timestamp
		}
	}
	return f
}

// partOf says in words what held a secret.
func partOf(st Store, recType, p string) string {
	switch st {
	case StoreHistory:
		if strings.HasPrefix(p, "pastedContents") {
			return "inline paste"
		}
		return "prompt"
	case StoreToolResult:
		return "tool result (saved in full)"
	case StoreFileHistory:
		return "file backup (/rewind)"
	case StorePaste:
		return "pasted text"
	case StoreTranscript, StoreSubagent:
	default:
		return ""
	}
	switch {
	case recType == "api-request-blob":
		return "request body"
	case strings.HasPrefix(p, "toolUseResult"):
		return "tool result (client copy)"
	case recType == "user" && (p == "message.content" || strings.HasSuffix(p, ".text")):
		return "user prompt"
	case recType == "user" && strings.HasPrefix(p, "message.content["):
		return "tool result"
	case recType == "assistant" && strings.Contains(p, ".input"):
		return "tool input"
	case recType == "assistant" && strings.HasSuffix(p, ".thinking"):
		return "thinking"
	case recType == "assistant":
		return "assistant reply"
	case recType == "attachment":
		return "attachment"
	case recType == "system":
		return "system message"
	case recType == "queue-operation":
		return "queued prompt"
	case recType == "":
		return "unparsed line"
	}
	return recType + " record"
}

// lineTurns are the turn and time of transcript lines that hold
// findings, by line (ascending).
type lineTurns []lineTurn

type lineTurn struct {
	line, turn int
	time       time.Time
}

// set gives a finding its line's turn and time (when the line has one).
func (t lineTurns) set(f *Finding) {
	i, ok := slices.BinarySearchFunc(t, f.Line, func(lt lineTurn, line int) int { return lt.line - line })
	if !ok {
		return
	}
	f.Turn = t[i].turn
	if !t[i].time.IsZero() {
		f.Time = t[i].time
	}
}

// turnsOf finds the turn of the transcript lines with findings (lines,
// ascending): a second pass, over the files that have findings only, up
// to the last one's line.
func turnsOf(u unit, lines []int) (lineTurns, error) {
	slices.Sort(lines)
	lines = slices.Compact(lines)
	last := lines[len(lines)-1]
	f, err := model.OpenRegular(u.fsys, u.name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := make(lineTurns, len(lines))
	for i, l := range lines {
		out[i].line = l
	}
	seen := map[string]bool{}
	turns, next := 0, 0
	_, err = model.ScanTranscript(f, u.name, model.ScanOptions{}, func(r *model.Record) error {
		if r.Line > last {
			return model.ErrStopScan
		}
		turn := 0 // turns completed before the line, or its own turn
		if timeline.IsTurn(r) {
			key, keyed := timeline.TurnKey(r)
			if !keyed || !seen[key] {
				seen[key] = true
				turns++
			}
			turn = turns
		} else if !r.IsSidechain {
			turn = turns + 1
		}
		for next < len(out) && out[next].line < r.Line {
			next++
		}
		if next < len(out) && out[next].line == r.Line {
			out[next].turn, out[next].time = turn, r.Timestamp
		}
		return nil
	})
	return out, err
}

// lazyHistory maps pastes to the history lines that name them, so a
// paste's finding says whose it is; and filters history findings by
// project. The history is read once, when a paste first needs it (by
// any of the scan's workers).
type lazyHistory struct {
	fsys   fs.FS
	once   sync.Once
	byHash map[string]*model.HistoryEntry
}

func (x *lazyHistory) load() {
	x.byHash = map[string]*model.HistoryEntry{}
	h, err := model.ReadHistory(x.fsys, model.HistoryPath)
	if err != nil || h == nil {
		return
	}
	for i := range h.Entries {
		e := &h.Entries[i]
		for _, p := range e.PastedContents {
			if p.Hash != "" {
				if _, ok := x.byHash[string(p.Hash)]; !ok {
					x.byHash[string(p.Hash)] = e
				}
			}
		}
	}
}

// attach fills in what only the history knows, and says whether the
// finding belongs to project (all do when it is "").
func (x *lazyHistory) attach(f *Finding, u unit, project string) bool {
	switch u.store {
	case StorePaste:
		x.once.Do(x.load)
		base := u.name[strings.LastIndexByte(u.name, '/')+1:]
		if e := x.byHash[strings.TrimSuffix(base, ".txt")]; e != nil {
			f.Session, f.Project, f.Time = e.SessionID, e.Project, e.Timestamp
		}
		return project == "" || f.Project == project
	case StoreHistory:
		return project == "" || f.Project == project
	}
	return true
}

// Distinct counts the different secrets found.
func (r Report) Distinct() int {
	n := 0
	for _, f := range r.Findings {
		if f.SameAs == "" {
			n++
		}
	}
	return n
}

// RevealedFinding is a finding with its secret, for --show.
type RevealedFinding struct {
	Finding
	SecretText string `json:"secret"`
}

// Where says where a finding is, for people: file:line, the JSON path,
// session and turn.
func (f Finding) Where() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s:%d", f.File, f.Line)
	if f.JSONPath != "" {
		b.WriteString(" " + f.JSONPath)
	}
	return b.String()
}

// Context says in words what held the finding and when: its part, its
// session and turn, its time (each when known).
func (f Finding) Context() []string {
	var ctx []string
	if f.Part != "" {
		ctx = append(ctx, f.Part)
	}
	if f.Session != "" {
		s := "session " + format.ShortID(string(f.Session))
		if f.Turn > 0 {
			s += fmt.Sprintf(" turn %d", f.Turn)
		}
		ctx = append(ctx, s)
	}
	if !f.Time.IsZero() {
		ctx = append(ctx, format.Timestamp(f.Time))
	}
	return ctx
}

// matchesAny reports whether f is selected by --only: its ID, or its rule.
func (f Finding) matchesAny(only []string) bool {
	return len(only) == 0 || slices.Contains(only, f.ID) || slices.Contains(only, string(f.Rule))
}

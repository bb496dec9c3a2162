package secrets

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
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
// first), and reports every secret with where it is.
func Scan(o Options) Report {
	units, probs := listUnits(o)
	order := make([]int, len(units))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return units[order[a]].size > units[order[b]].size })
	workers := o.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	results := make([]fileResult, len(units))
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range min(workers, max(len(units), 1)) {
		wg.Go(func() {
			w := newWorker()
			for i := range jobs {
				results[i] = w.scanUnit(units[i])
			}
		})
	}
	for _, i := range order {
		jobs <- i
	}
	close(jobs)
	wg.Wait()

	r := Report{Home: o.Home.Dir, Project: o.Project, Findings: []Finding{}, Problems: []model.Problem{}}
	counts := map[Store]*StoreCount{}
	for _, s := range Stores() {
		counts[s] = &StoreCount{Store: s}
	}
	var hist historyIndex
	for i, u := range units {
		res := results[i]
		probs = append(probs, res.problems...)
		if !res.read {
			continue
		}
		c := counts[u.store]
		c.Files++
		c.Bytes += res.bytes
		r.Bytes += res.bytes
		for _, f := range res.findings {
			if u.store == StorePaste && !hist.loaded {
				hist = readHistoryIndex(o.Home.FS)
			}
			if keep := hist.attach(&f, u, o.Project); !keep {
				continue
			}
			c.Findings++
			r.Findings = append(r.Findings, f)
		}
	}
	for _, s := range Stores() {
		r.Stores = append(r.Stores, *counts[s])
	}
	markSame(r.Findings)
	r.Copies, probs = listCopies(o.Home, probs)
	r.Problems = append(r.Problems, probs...)
	return r
}

// fileResult is what scanning one file gave.
type fileResult struct {
	read     bool
	bytes    int64
	findings []Finding
	problems []model.Problem
}

// worker scans files one after another, reusing its buffers.
type worker struct {
	a    *scan.Anchors
	lr   *model.LineReader
	sc   jsonscan.Scanner
	hits []scan.AnchorHit
}

func newWorker() *worker { return &worker{a: scan.SecretAnchors()} }

// maxTextBytes bounds a text or JSON file read whole (so a key block
// spanning lines is found, and a JSON file's strings have paths); bigger
// ones are read line by line like JSONL, each line bounded, so memory
// stays flat whatever a hostile home holds.
const maxTextBytes = 4 << 20

func (w *worker) scanUnit(u unit) fileResult {
	var res fileResult
	f, err := model.OpenRegular(u.fsys, u.name)
	if err != nil {
		if !isNotExist(err) {
			res.problems = append(res.problems, model.Problem{File: u.file, Kind: model.ProblemUnreadable, Reason: err.Error()})
		}
		return res
	}
	defer f.Close()
	res.read = true
	if u.format == formatJournal {
		w.scanJournal(f, u, &res)
		return res
	}
	w.scanFile(f, u, &res)
	if len(res.findings) > 0 && u.store.IsTranscript() {
		if err := addTurns(u, res.findings); err != nil {
			res.problems = append(res.problems, model.Problem{File: u.file, Kind: model.ProblemUnreadable, Reason: err.Error()})
		}
	}
	return res
}

// scanFile scans a file of u's format (not a journal): line by line
// when it is JSONL or too big to read whole, else whole.
func (w *worker) scanFile(r io.Reader, u unit, res *fileResult) {
	if u.format == formatJSONL || u.size > maxTextBytes {
		w.scanLines(r, u, res)
	} else {
		w.scanWhole(r, u, res)
	}
}

func isNotExist(err error) bool { return errors.Is(err, fs.ErrNotExist) }

// scanLines reads r one line at a time: lines without an anchor are
// skipped after one pass over their bytes; the others are decoded (JSON)
// or matched as text when they do not parse.
func (w *worker) scanLines(r io.Reader, u unit, res *fileResult) {
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
		res.bytes += l.Size + 1
		if l.TooLong {
			res.problems = append(res.problems, l.TooLongProblem(u.file))
			continue
		}
		w.hits = w.a.Find(l.Bytes, w.hits[:0])
		if len(w.hits) == 0 {
			continue
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
		for _, s := range spans {
			res.findings = append(res.findings, newFinding(u, s, l.Bytes, l.Number, off, recType))
		}
	}
	if err := lr.Err(); err != nil {
		res.problems = append(res.problems, model.Problem{File: u.file, Kind: model.ProblemUnreadable, Reason: err.Error()})
	}
}

// scanWhole reads a text or JSON file whole: a secret may span lines
// (key blocks), and a JSON file's strings have paths.
func (w *worker) scanWhole(r io.Reader, u unit, res *fileResult) {
	data, err := io.ReadAll(io.LimitReader(r, maxTextBytes+1))
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
		res.findings = append(res.findings, newFinding(u, s, data[ls:ls+le], line, int64(ls), ""))
	}
}

// scanJournal scans the files an undo journal keeps (each entry holds
// the bytes of every file it changed, as they were before): a secret
// removed from memory, or restored over, lives on there.
func (w *worker) scanJournal(r io.Reader, u unit, res *fileResult) {
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
				res.findings = append(res.findings, f)
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

// addTurns sets the turn of transcript findings: a second pass, over
// the files that have findings only, up to the last one's line.
func addTurns(u unit, fs []Finding) error {
	last := 0
	for _, f := range fs {
		last = max(last, f.Line)
	}
	f, err := model.OpenRegular(u.fsys, u.name)
	if err != nil {
		return err
	}
	defer f.Close()
	turnAt := map[int]int{} // line → turns completed before it, or its own turn
	seen := map[string]bool{}
	turns := 0
	_, err = model.ScanTranscript(f, u.name, model.ScanOptions{}, func(r *model.Record) error {
		if r.Line > last {
			return model.ErrStopScan
		}
		if timeline.IsTurn(r) {
			key, keyed := timeline.TurnKey(r)
			if !keyed || !seen[key] {
				seen[key] = true
				turns++
			}
			turnAt[r.Line] = turns
		} else if !r.IsSidechain {
			turnAt[r.Line] = turns + 1
		}
		if r.Timestamp.IsZero() {
			return nil
		}
		for i := range fs {
			if fs[i].Line == r.Line {
				fs[i].Time = r.Timestamp
			}
		}
		return nil
	})
	for i := range fs {
		fs[i].Turn = turnAt[fs[i].Line]
	}
	return err
}

// markSame points every finding of a secret seen before at the first.
func markSame(fs []Finding) {
	first := map[string]string{}
	for i := range fs {
		k := string(fs[i].Rule) + "\x00" + fs[i].secret
		if id, ok := first[k]; ok {
			fs[i].SameAs = id
			continue
		}
		first[k] = fs[i].ID
	}
}

// historyIndex maps pastes to the history lines that name them, so a
// paste's finding says whose it is; and filters history findings by
// project.
type historyIndex struct {
	loaded bool
	byHash map[string]*model.HistoryEntry
}

func readHistoryIndex(fsys fs.FS) historyIndex {
	x := historyIndex{loaded: true, byHash: map[string]*model.HistoryEntry{}}
	h, err := model.ReadHistory(fsys, model.HistoryPath)
	if err != nil || h == nil {
		return x
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
	return x
}

// attach fills in what only the history knows, and says whether the
// finding belongs to project (all do when it is "").
func (x historyIndex) attach(f *Finding, u unit, project string) bool {
	switch u.store {
	case StorePaste:
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

// Reveal returns the findings with their secrets, for --show.
func (r Report) Reveal() []RevealedFinding {
	out := make([]RevealedFinding, len(r.Findings))
	for i, f := range r.Findings {
		out[i] = RevealedFinding{Finding: f, SecretText: f.secret}
	}
	return out
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

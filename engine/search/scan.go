package search

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"time"
	"unsafe"

	"github.com/memscope/memscope/model"
)

// maxCount bounds the matches counted in one field or line.
const maxCount = 1000

// unitKind says how a unit is read.
type unitKind int

const (
	unitTranscript unitKind = iota
	unitHistory
	unitText
)

// unit is one file to search.
type unit struct {
	kind  unitKind
	store Store
	fsys  fs.FS
	// name is the file's name in fsys; file the path a hit shows.
	name, file string
	mod        time.Time
	size       int64
	project    string
	session    string
	agent      string
	label      string
	// memory splits a memory file into frontmatter and body.
	memory bool
	// listed says a listing found the file regular, of size bytes.
	listed bool
	// paste is the hash of a paste file.
	paste model.PasteHash
	// backup is a file-history backup's name ("<h16>@v<N>") and
	// transcript its session's main transcript ("" when not found),
	// whose snapshots say which file it backs up.
	backup, transcript string
}

// result is what searching one unit found.
type result struct {
	hits     []Hit
	problems []model.Problem
	bytes    int64
}

// worker searches units one after another, reusing its buffers.
type worker struct {
	q       *Query
	o       *Options
	refs    *pasteRefs
	backups *backupPaths
	buf     []byte
	scratch []byte
	// spans is verify's buffer.
	spans [][2]int
	// fast reads the lines that can match; keepBuf is its buffer.
	fast    fastReader
	keepBuf []byte
	// walked counts the lines mayHold walked, walkedHeld those it let
	// through; verified and verifiedHeld the same for verify (wanted).
	walked, walkedHeld     int
	verified, verifiedHeld int
	// pending are the lines of a transcript that may be compact
	// boundaries, their bytes in pendingBuf (transcript).
	pending    []pendingBoundary
	pendingBuf []byte
	// countBuf is lineCount's buffer for reading a stretch again, text
	// the one text files are read into.
	countBuf, textBuf []byte
	// rec is the record of the line transcript reads, and hits the hits
	// of its file: reused, so that a line read costs no record on the
	// heap (the reader's walk keeps a pointer to it) and a file's hits
	// are copied once, at their number, instead of each doubling of
	// the slice (a tenth of a many-hit search's allocation, a third of
	// `queue branch`'s).
	rec  record
	hits []Hit
}

// maxKeptHits bounds the hits worker.hits keeps room for after a file.
const maxKeptHits = 4096

func (w *worker) search(ctx context.Context, u *unit) result {
	switch u.kind {
	case unitTranscript:
		return w.transcript(ctx, u)
	case unitHistory:
		return w.history(ctx, u)
	}
	return w.text(ctx, u)
}

// openProblem reports a file that could not be opened: not a regular
// file, a link that leaves the home, or unreadable.
func openProblem(file string, err error) model.Problem {
	kind := model.ProblemUnreadable
	if model.IsNotRegular(err) || model.IsLinkNotFollowed(err) {
		kind = model.ProblemMalformed
	}
	return model.Problem{File: file, Kind: kind, Reason: "not read: " + err.Error()}
}

// queryScan is how the query's lines are found: by the anchors, or
// lines with a \u escape that hold one once decoded; every line when the
// query has no anchor (fn then asks the relaxed expression).
func (w *worker) queryScan() lineScan {
	pre := &w.q.pre
	if len(pre.anchors) == 0 {
		return lineScan{count: true}
	}
	ls := lineScan{specials: pre.specials, count: true,
		check: func(line []byte) bool { return pre.candidate(line, &w.scratch) }}
	for _, a := range pre.anchors {
		ls.finds = append(ls.finds, a)
	}
	return ls
}

// wanted reports whether a line handed over by queryScan can match:
// without anchors, the relaxed expression matches it; with them (a
// regular expression), it matches near one (prefilter.verify). Only
// wanted lines are decoded. verify is given up once it has ruled out
// less than an eighth of the lines (and walkTrial looked at): five
// digits in a row are near nearly every anchor of [0-9]{5}, so it cost
// an unescaped copy of each line and ruled out none. It costs less than
// the walk and the read, so it stays while it rules out a few
// (`(?m)worker$` lets a third through). It only narrows the lines down
// (the fields read are matched whole), so whether it runs changes no
// hit.
func (w *worker) wanted(line []byte) bool {
	if w.q.pre.whole != nil {
		return w.q.pre.whole.candidate(line, &w.scratch)
	}
	if len(w.q.pre.anchors) == 0 {
		return w.q.pre.candidate(line, &w.scratch)
	}
	if w.verified > walkTrial && 8*(w.verified-w.verifiedHeld) < w.verified {
		return true // verify rules out too few: the walk and the read decide
	}
	w.verified++
	if w.q.pre.verify(line, &w.scratch, &w.spans) {
		w.verifiedHeld++
		return true
	}
	return false
}

// mayHold reports whether a wanted transcript line can give a field to
// match (fastReader.mayHold, which walks the line without validating
// it), while that rules out most lines: a search whose wanted lines
// often have a hit (parser|reader|writer, release parser) would walk
// them twice.
// The walk's answer is exact, so whether it is asked changes no hit.
func (w *worker) mayHold(line []byte) bool {
	if 8*w.walkedHeld > w.walked+walkTrial {
		return true // the walk rules out too few: read every wanted line
	}
	w.walked++
	if w.fast.mayHold(line) {
		w.walkedHeld++
		return true
	}
	return false
}

// The walk is given up when it has let through more than an eighth of
// the lines it walked (and walkTrial more): it costs about 0.8 of a
// read (BenchmarkHomeTranscripts, [0-9]{5} on W/4), so it pays only
// where it rules out most lines.
const walkTrial = 64

// pendingBoundary is a line that may be a compact boundary: its number
// and its bytes in worker.pendingBuf.
type pendingBoundary struct {
	line, start, end int
}

// maxPending bounds the bytes of the lines kept as pending boundaries
// (4 MiB: a boundary line is about a kilobyte).
const maxPending = 4 << 20

// boundaryFinder finds the lines that may be compact boundaries. Its
// pair is the underscore and the y, eight apart: the table's b and y
// agree at seven apart about once in 600 bytes of transcript (b is a hex
// digit of every id), which cost as much as the query's own scan once a
// file had a hit; "_" with a "y" eight on, almost only here.
var boundaryFinder = newFinderPair([]byte("compact_boundary"), false, 7, 15)

// transcript searches one transcript.
func (w *worker) transcript(ctx context.Context, u *unit) result {
	var res result
	if w.fast.keep == nil {
		pre := &w.q.pre
		w.fast.keep = func(raw []byte) bool { return pre.holds(raw, &w.keepBuf) }
	}
	// The compact boundaries: from the first hit on, the first pass
	// looks for them too (more); last is the last found, preserved the
	// messages it kept. Only the last matters, so the lines that may be
	// one are kept (pending) and decoded when the pass ends, last first,
	// until one is; a line that is one gives no hit (it is not of a
	// searched kind), so it is searched like any other meanwhile.
	last := 0
	var preserved map[string]bool
	w.pending = w.pending[:0]
	w.pendingBuf = w.pendingBuf[:0]
	w.hits = w.hits[:0]
	resolve := func() {
		for i := len(w.pending) - 1; i >= 0; i-- {
			pb := w.pending[i]
			if p, ok := compactBoundary(w.pendingBuf[pb.start:pb.end]); ok {
				last, preserved = pb.line, p
				break
			}
		}
		w.pending, w.pendingBuf = w.pending[:0], w.pendingBuf[:0]
	}
	more := &moreFind{find: boundaryFinder}
	moreFrom := int64(-1) // the offset the first pass looked for boundaries from
	ls := w.queryScan()
	ls.more = more
	w.scanLines(ctx, u, &res, ls, func(b []byte, n int) {
		typ := peekType(b)
		if more.on && (typ == nil || string(typ) == `"system"`) && boundaryFinder.index(b) >= 0 {
			if len(w.pendingBuf)+len(b) > maxPending {
				resolve() // the memory kept is bounded: decide now
			}
			start := len(w.pendingBuf)
			w.pendingBuf = append(w.pendingBuf, b...)
			w.pending = append(w.pending, pendingBoundary{line: n, start: start, end: len(w.pendingBuf)})
		}
		if typ != nil && !searchedType(typ) {
			return
		}
		if !w.wanted(b) || !w.mayHold(b) {
			return
		}
		rec := &w.rec
		*rec = record{}
		fields, ok, fallback := w.fast.read(b, rec)
		if fallback {
			*rec = record{}
			if json.Unmarshal(b, rec) != nil || !searchedTypes[rec.Type] || strings.HasSuffix(rec.Subtype, "_boundary") {
				return
			}
			fields, ok = rec.fields(), true
		}
		if !ok {
			return
		}
		at := rec.time()
		if !w.o.Since.IsZero() && !at.IsZero() && at.Before(w.o.Since) {
			return
		}
		for _, f := range fields {
			h, ok := w.match(f.text, u)
			if !ok {
				continue
			}
			h.Line, h.Where, h.UUID, h.Role, h.Time = n, f.where, rec.UUID, rec.role(), at
			w.hits = append(w.hits, h)
			if !more.on {
				more.on, moreFrom = true, more.end
			}
		}
	})
	resolve()
	if cap(w.pendingBuf) > maxPending {
		w.pendingBuf = nil // a long line grew it: give the memory back
	}
	if len(w.hits) == 0 {
		return res
	}
	res.hits = slices.Clone(w.hits)
	clear(w.hits) // the snippets are the result's now
	if cap(w.hits) > maxKeptHits {
		w.hits = nil
	}
	// Where the last compaction is: when the first pass found none after
	// its first hit, a second pass, over the files with a hit only and
	// up to where the first looked, for nothing but boundaries.
	if last == 0 && moreFrom > 0 {
		// Its problems are the first pass's again (a line too long,
		// say): not reported twice.
		var again result
		w.scanLines(ctx, u, &again, lineScan{finds: []anchor{boundaryFinder}, until: moreFrom}, func(b []byte, n int) {
			if typ := peekType(b); typ == nil || string(typ) == `"system"` {
				if p, ok := compactBoundary(b); ok {
					last, preserved = n, p
				}
			}
		})
	}
	for i := range res.hits {
		h := &res.hits[i]
		seen := true
		switch {
		case last == 0:
			h.Compaction = CompactionNone
		case h.Line > last:
			h.Compaction = CompactionAfter
		default:
			h.Compaction = CompactionBefore
			seen = preserved[h.UUID]
		}
		h.Seen = &seen
	}
	return res
}

// searchedType reports whether the raw type value is a searched type.
func searchedType(typ []byte) bool {
	switch string(typ) {
	case `"user"`, `"assistant"`, `"system"`, `"summary"`:
		return true
	}
	return false
}

// compactBoundary decodes a system line that names compact_boundary:
// whether it is a compaction's boundary, and the messages a partial one
// preserved.
func compactBoundary(b []byte) (map[string]bool, bool) {
	var rec struct {
		Subtype string                 `json:"subtype"`
		Meta    *model.CompactMetadata `json:"compactMetadata"`
	}
	if json.Unmarshal(b, &rec) != nil || rec.Subtype != model.SubtypeCompactBoundary {
		return nil, false
	}
	kept := map[string]bool{}
	if m := rec.Meta; m != nil {
		if pm := m.PreservedMessages; pm != nil {
			for _, id := range append(pm.UUIDs, pm.AllUUIDs...) {
				kept[id] = true
			}
		}
		if ps := m.PreservedSegment; ps != nil {
			kept[ps.HeadUUID], kept[ps.TailUUID] = true, true
		}
	}
	return kept, true
}

// match matches text; ok is false when it does not match. The hit has
// u's file and its snippet, count and offset.
func (w *worker) match(text string, u *unit) (Hit, bool) {
	ms := w.q.matches(text, maxCount)
	if len(ms) == 0 {
		return Hit{}, false
	}
	h := w.hit(u)
	h.Count, h.Offset = len(ms), ms[0][0]
	h.Snippet, h.Match = makeSnippet(text, ms[0][0], ms[0][1], w.secrets(text, 1))
	return h, true
}

// secrets is how the secrets of text's n snippets are found (nil when
// secrets are shown).
func (w *worker) secrets(text string, n int) *textSecrets {
	if w.o.ShowSecrets {
		return nil
	}
	s := &textSecrets{}
	s.index(text, n)
	return s
}

// hit is a hit in u, before what is known of the place in it.
func (w *worker) hit(u *unit) Hit {
	return Hit{Store: u.store, File: u.file, Project: u.project, SessionID: u.session, AgentID: u.agent, Label: u.label}
}

// history searches history.jsonl: each prompt as typed and its pastes
// kept inline (a paste kept in the paste cache is searched there).
func (w *worker) history(ctx context.Context, u *unit) result {
	var res result
	w.scanLines(ctx, u, &res, w.queryScan(), func(b []byte, n int) {
		if !w.wanted(b) {
			return
		}
		e, err := model.ParseHistoryLine(b, n)
		if err != nil || !w.o.wantsPrompt(&e) {
			return
		}
		add := func(where, text string) {
			h, ok := w.match(text, u)
			if !ok {
				return
			}
			h.Line, h.Where, h.Time, h.Project, h.SessionID = n, where, e.Timestamp, e.Project, string(e.SessionID)
			h.Role = "user"
			res.hits = append(res.hits, h)
		}
		add("prompt", e.Display)
		for _, p := range e.SortedPastes() {
			if p.Inline && p.Kind != model.PasteImage {
				add(fmt.Sprintf("paste #%d", p.ID), p.Content)
			}
		}
	})
	return res
}

// text searches a text file: one hit per line that matches. A file
// whose first bytes hold a NUL is binary (as grep decides): nothing a
// person would read, so it is not read further.
func (w *worker) text(ctx context.Context, u *unit) result {
	var res result
	data, err := readText(u, model.MaxDocumentBytes, &w.textBuf)
	defer func() {
		if cap(w.textBuf) > 4*chunkSize {
			w.textBuf = nil // a big file grew it: give the memory back
		}
	}()
	if err != nil {
		res.problems = append(res.problems, openProblem(u.file, err))
		return res
	}
	res.bytes = int64(len(data))
	if data == nil {
		return res
	}
	text := unsafe.String(unsafe.SliceData(data), len(data)) // data is kept until the next file; snippets are copies
	ms := w.q.matches(text, 1<<30)
	if len(ms) == 0 {
		return res
	}
	// A hit for each line with a match: room for as many as the matches
	// (a tool result with one on most lines grew the slice a dozen times).
	res.hits = make([]Hit, 0, min(len(ms), 1024))
	var refs []PromptRef
	if u.paste != "" && w.refs != nil {
		refs = w.refs.of(u.paste)
	}
	if u.backup != "" {
		if of := w.backupOf(ctx, u); of != "" {
			u.label = strings.Replace(u.label, u.backup[:strings.IndexByte(u.backup, '@')], of, 1)
		}
	}
	sec := w.secrets(text, len(ms))
	front := frontmatterEnd(text, u.memory)
	line, pos := 1, 0
	for i := 0; i < len(ms); {
		m := ms[i]
		line += strings.Count(text[pos:m[0]], "\n")
		pos = m[0]
		eol := strings.IndexByte(text[m[0]:], '\n')
		if eol < 0 {
			eol = len(text)
		} else {
			eol += m[0]
		}
		n := 0
		for i < len(ms) && (ms[i][0] < eol || ms[i][0] == m[0]) {
			n++
			i++
		}
		h := w.hit(u)
		h.Line, h.Count, h.Offset, h.Time, h.Prompts = line, min(n, maxCount), m[0], u.mod, refs
		h.Where = "line"
		if u.memory {
			h.Where = "body"
			if m[0] < front {
				h.Where = "frontmatter"
			}
		}
		h.Snippet, h.Match = makeSnippet(text, m[0], m[1], sec)
		res.hits = append(res.hits, h)
	}
	return res
}

// readText reads u's regular file, at most max bytes, into *buf
// (model.ReadRegularInto, or ReadListedInto when a listing found it
// regular with its size: the buffer is kept for the next file; what
// is read is looked at and copied from, never kept); a binary file (a
// NUL in its first 8 KiB: model.LooksBinary) gives nil.
func readText(u *unit, max int64, buf *[]byte) ([]byte, error) {
	var data []byte
	var err error
	if u.listed {
		data, err = model.ReadListedInto(u.fsys, u.name, u.size, max, buf)
	} else {
		data, err = model.ReadRegularInto(u.fsys, u.name, max, buf)
	}
	if err != nil {
		return nil, err
	}
	if model.LooksBinary(data) {
		return nil, nil
	}
	return data, nil
}

// frontmatterEnd is the offset where a memory file's frontmatter ends
// (0 when it has none): past the line "---" that closes the block the
// file opens with.
func frontmatterEnd(text string, memory bool) int {
	if !memory || !(strings.HasPrefix(text, "---\n") || strings.HasPrefix(text, "---\r\n")) {
		return 0
	}
	first := strings.IndexByte(text, '\n') + 1
	for i := first; i < len(text); {
		eol := strings.IndexByte(text[i:], '\n')
		end := len(text)
		if eol >= 0 {
			end = i + eol
		}
		if strings.TrimRight(text[i:end], "\r ") == "---" {
			return end
		}
		i = end + 1
	}
	return 0
}

package export

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/memscope/memscope/engine/timeline"
	"github.com/memscope/memscope/model"
)

// entryLists gives the entries of an export's lists one at a time: part
// 0 is the conversation, 1 to len(Branches) the branches, then the
// sidechains. yield's error ends the list and is returned.
type entryLists func(part int, yield func(*Entry) error) error

// wholeEntries are the lists of an export held whole.
func wholeEntries(x *SessionExport) entryLists {
	return func(part int, yield func(*Entry) error) error {
		var es []Entry
		switch {
		case part == 0:
			es = x.Conversation
		case part <= len(x.Branches):
			es = x.Branches[part-1].Entries
		default:
			es = x.Sidechains[part-1-len(x.Branches)].Entries
		}
		for i := range es {
			if err := yield(&es[i]); err != nil {
				return err
			}
		}
		return nil
	}
}

// writeSession writes the export whose header is x and whose entries
// each gives to out in format f.
func writeSession(out io.Writer, x *SessionExport, f Format, each entryLists) error {
	switch f {
	case Markdown:
		return writeSessionMarkdown(out, x, each)
	case HTML:
		return writeSessionHTML(out, x, each)
	case JSON:
		return writeSessionJSON(out, x, each)
	}
	return fmt.Errorf("unknown export format %q", f)
}

// writeSessionJSON writes what marshalExport makes of the whole export,
// an entry at a time: the header is encoded with every list empty, and
// each "[]" of a list is filled with its entries, each encoded with the
// indent it has in the document. A newline followed by spaces and a key
// is the document's own structure (the encoder escapes newlines inside
// strings), so the lists are found by their key and indent, in order.
func writeSessionJSON(out io.Writer, x *SessionExport, each entryLists) error {
	skel := *x
	skel.Conversation = []Entry{}
	skel.Branches = make([]Branch, len(x.Branches))
	for i, br := range x.Branches {
		br.Entries = []Entry{}
		skel.Branches[i] = br
	}
	skel.Sidechains = make([]Sidechain, len(x.Sidechains))
	for i, sc := range x.Sidechains {
		sc.Entries = []Entry{}
		skel.Sidechains[i] = sc
	}
	doc, err := marshalExport(&skel)
	if err != nil {
		return err
	}
	var b, enc bytes.Buffer
	for part := range 1 + len(x.Branches) + len(x.Sidechains) {
		hole, indent := "\n  \"conversation\": []", "  "
		if part > 0 {
			hole, indent = "\n      \"entries\": []", "      "
		}
		k := bytes.Index(doc, []byte(hole))
		if k < 0 {
			return fmt.Errorf("encode export: entry list %d not found", part)
		}
		b.Write(doc[:k+len(hole)-1])
		doc = doc[k+len(hole)-1:] // "]…"
		e := exportEncoder(&enc, indent+"  ")
		n := 0
		err := each(part, func(en *Entry) error {
			enc.Reset()
			if err := e.Encode(en); err != nil {
				return fmt.Errorf("encode export: %w", err)
			}
			if n > 0 {
				b.WriteByte(',')
			}
			n++
			b.WriteString("\n" + indent + "  ")
			b.Write(bytes.TrimSuffix(enc.Bytes(), []byte("\n")))
			return flushTo(out, &b, flushAt)
		})
		if err != nil {
			return err
		}
		if n > 0 {
			b.WriteString("\n" + indent)
		}
	}
	b.Write(doc)
	return flushTo(out, &b, 0)
}

// SessionStream is a session's export read in two passes, so that its
// memory is the transcripts' indexes (timeline.Index, about 90 bytes a
// record) and one entry, not the transcripts: OpenSession indexes the
// transcript and its subagents' and works out everything but the
// entries (the header, and which records each list holds); Write makes
// the entries one at a time, reading each record again by its offset,
// and writes each as it is made.
type SessionStream struct {
	// x is the export with every list of entries empty.
	x    *SessionExport
	main *indexedFile
	// chain, branches and inline are the records of the conversation,
	// of each branch and of each inline sidechain.
	chain    []int32
	branches [][]int32
	inline   [][]int32
	subs     []*indexedFile
}

// indexedFile is one transcript of a session, indexed.
type indexedFile struct {
	fsys fs.FS
	name string
	ix   *timeline.Index
	b    *exportBuilder
	// results are the record of the first tool_result of each tool_use
	// id (by model.KeyHash); boundaries the record of each boundary, by
	// line.
	results    map[[16]byte]int32
	boundaries map[int]int32
	// rr reads the records exported, res the tool results folded into
	// their calls (each in file order mostly, so each its own window).
	rr, res *model.Rereader
}

// indexFile indexes transcript name of fsys, handing each kept record to
// each. Only a transcript that cannot be opened returns no file.
func indexFile(fsys fs.FS, name string, each func(r *model.Record)) (*indexedFile, error) {
	f := &indexedFile{fsys: fsys, name: name, b: newExportBuilder(nil), results: map[[16]byte]int32{}, boundaries: map[int]int32{}}
	ix, err := timeline.ReadIndexWith(fsys, name, func(i int32, r *model.Record) {
		if r.IsCompactBoundary() || r.IsMicrocompactBoundary() {
			f.boundaries[r.Line] = i
		}
		f.b.note(r, func(id string) {
			h := model.KeyHash([]byte(id))
			if _, ok := f.results[h]; !ok {
				f.results[h] = i
			}
		})
		each(r)
	})
	if ix == nil {
		return nil, err
	}
	f.ix = ix
	f.b.result = f.result
	f.b.compaction = func(r *model.Record) (timeline.CompactionKind, model.SummarizeDirection, *int) {
		return ix.Compaction(f.boundaries[r.Line])
	}
	return f, err
}

// read is record i read again whole.
func (f *indexedFile) read(i int32) (*model.Record, error) {
	if f.rr == nil {
		rr, err := model.OpenRereader(f.fsys, f.name, ScanOptions)
		if err != nil {
			return nil, err
		}
		f.rr = rr
	}
	return f.ix.ReadAgain(f.rr, i)
}

// result is the first tool_result of call id, read again.
func (f *indexedFile) result(id string) (*ToolResult, error) {
	i, ok := f.results[model.KeyHash([]byte(id))]
	if !ok {
		return nil, nil
	}
	if f.res == nil {
		rr, err := model.OpenRereader(f.fsys, f.name, ScanOptions)
		if err != nil {
			return nil, err
		}
		f.res = rr
	}
	r, err := f.ix.ReadAgain(f.res, i)
	if err != nil {
		return nil, err
	}
	return toolResultIn(r, id), nil
}

// close closes the file's readers.
func (f *indexedFile) close() {
	for _, rr := range []*model.Rereader{f.rr, f.res} {
		if rr != nil {
			rr.Close()
		}
	}
	f.rr, f.res = nil, nil
}

// emit makes the entries of records recs and gives them to yield.
func (f *indexedFile) emit(recs func(yield func(int32) bool), yield func(*Entry) error) error {
	var err error
	for i := range recs {
		var r *model.Record
		if r, err = f.read(i); err != nil {
			break
		}
		e, ok := f.b.entry(r)
		if f.b.err != nil {
			err = f.b.err
			break
		}
		if ok {
			if err = yield(&e); err != nil {
				break
			}
		}
	}
	return err
}

// bits is a set of record numbers.
type bits []uint64

func newBits(n int) bits                   { return make(bits, (n+63)/64) }
func (b bits) has(i int32) bool            { return b[i/64]&(1<<(i%64)) != 0 }
func (b bits) set(i int32)                 { b[i/64] |= 1 << (i % 64) }
func (b bits) hasAny(i int32, o bits) bool { return b.has(i) || o.has(i) }

// OpenSession reads a session's transcripts once and works out its
// export but the entries. Only a transcript that cannot be opened is an
// error; bad lines, a missing history or paste cache and unreadable
// subagent files are problems in the export. Close it when done.
func OpenSession(src SessionSource, now time.Time) (*SessionStream, error) {
	x := &SessionExport{Schema: SessionExportSchema, Path: src.Transcript, ExportedAt: now.UTC(),
		Conversation: []Entry{}, Branches: []Branch{}, Sidechains: []Sidechain{}}
	usage := newUsageCounter()
	client := false
	main, err := indexFile(src.FS, src.Transcript, func(r *model.Record) {
		if !client && (r.Version != "" || r.GitBranch != "") {
			x.Version, x.GitBranch, client = r.Version, r.GitBranch, true
		}
		usage.add(r)
		if r.Type == model.RecordSummary {
			x.LegacySummaries = append(x.LegacySummaries, r.Summary)
		}
	})
	if main == nil {
		return nil, err
	}
	s := &SessionStream{x: x, main: main}
	var probs []model.Problem
	if err != nil {
		probs = append(probs, model.Problem{File: src.Transcript, Kind: model.ProblemUnreadable, Reason: err.Error()})
	}
	ix := main.ix
	sum := ix.Summary
	x.SessionID, x.CWD, x.Started, x.LastActivity = sum.SessionID, sum.CWD, sum.First, sum.Last
	x.Problems = append([]model.Problem{}, sum.Problems...)
	if x.SessionID == "" {
		x.SessionID = strings.TrimSuffix(path.Base(src.Transcript), ".jsonl")
	}

	covered, inBranch := newBits(ix.Len()), newBits(ix.Len())
	leaf, from := ix.PickLeaf()
	x.Leaf.Source = from
	x.Leaf.ChainEnd = model.ChainNoLeaf
	if leaf >= 0 {
		chain, end := ix.Walk(leaf, true)
		x.Leaf = Leaf{UUID: ix.UUID(leaf), Line: ix.Line(leaf), Source: from, ChainEnd: end}
		for _, i := range chain {
			covered.set(i)
			if ix.Boundary(i) {
				x.Compactions++
			}
		}
		s.chain = chain
	}
	var newest []int32
	for _, rw := range ix.Rewinds() {
		for _, c := range rw.Children {
			if covered.hasAny(c, inBranch) {
				continue
			}
			if newest == nil {
				newest = ix.NewestChildren()
			}
			// From c down the newest child, to a leaf, a record already
			// exported or a cycle.
			var recs []int32
			for r := c; r >= 0 && !covered.hasAny(r, inBranch); r = newest[r] {
				inBranch.set(r)
				recs = append(recs, r)
			}
			s.branches = append(s.branches, recs)
			x.Branches = append(x.Branches, Branch{Parent: ix.UUID(rw.Parent), ParentLine: ix.Line(rw.Parent), From: ix.UUID(c), Entries: []Entry{}})
		}
	}
	x.Models = append(x.Models, usage.models...)
	for _, sc := range ix.SidechainTrees() {
		for _, i := range sc.Records {
			covered.set(i)
		}
		root, err := main.read(sc.Root)
		if err != nil {
			s.Close()
			return nil, err
		}
		s.inline = append(s.inline, sc.Records)
		x.Sidechains = append(x.Sidechains, Sidechain{AgentID: root.AgentID, Source: SidechainInline, Records: len(sc.Records),
			Models: []string{}, Entries: []Entry{}})
	}
	main.close()
	for i := range int32(ix.Len()) {
		if ix.Indexed(i) && !covered.hasAny(i, inBranch) {
			x.Unexported++
		}
	}

	probs = s.indexSubagents(src, usage, probs)
	if x.Models == nil {
		x.Models = []string{}
	}
	for _, m := range usage.models {
		if !containsString(x.Models, m) {
			x.Models = append(x.Models, m)
		}
	}
	x.Usage = usage.result()

	var history []*model.HistoryEntry
	var pastes PasteResolver
	if src.Home != nil {
		pastes = model.NewPasteCache(src.Home)
		history, probs = readSessionHistory(src.Home, x.SessionID, x.CWD, probs)
	}
	x.Problems = append(x.Problems, probs...)
	pm := newPasteMatcher(history, x.SessionID, x.CWD, pastes)
	for _, f := range append([]*indexedFile{main}, s.subs...) {
		f.b.pm = pm
	}
	return s, nil
}

// indexSubagents indexes <dir>/<session>/subagents/*.jsonl beside the
// transcript, sorted by name, and adds their usage and sidechains.
func (s *SessionStream) indexSubagents(src SessionSource, usage *usageCounter, probs []model.Problem) []model.Problem {
	dir := path.Join(path.Dir(src.Transcript), strings.TrimSuffix(path.Base(src.Transcript), ".jsonl"), "subagents")
	ents, err := fs.ReadDir(src.FS, dir)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			probs = append(probs, model.Problem{File: dir, Kind: model.ProblemUnreadable, Reason: err.Error()})
		}
		return probs
	}
	sort.Slice(ents, func(i, j int) bool { return ents[i].Name() < ents[j].Name() })
	var subProbs []model.Problem
	for _, e := range ents {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".jsonl") {
			continue
		}
		p := dir + "/" + e.Name()
		su := newUsageCounter()
		f, err := indexFile(src.FS, p, func(r *model.Record) {
			su.add(r)
			usage.add(r)
		})
		if err != nil {
			probs = append(probs, model.Problem{File: p, Kind: model.ProblemUnreadable, Reason: err.Error()})
			if f == nil {
				continue
			}
		}
		n := 0
		for i := range int32(f.ix.Len()) {
			if f.ix.Indexed(i) {
				n++
			}
		}
		agent := strings.TrimPrefix(strings.TrimSuffix(e.Name(), ".jsonl"), "agent-")
		s.subs = append(s.subs, f)
		s.x.Sidechains = append(s.x.Sidechains, Sidechain{AgentID: agent, Source: p, Records: n,
			Models: su.models, Usage: su.result(), Entries: []Entry{}})
		subProbs = append(subProbs, f.ix.Summary.Problems...)
	}
	s.x.Problems = append(s.x.Problems, subProbs...)
	return probs
}

// Header is the export without its entries (every list of entries
// empty): what OpenSession worked out.
func (s *SessionStream) Header() *SessionExport { return s.x }

// each gives the entries of list part, made from the records read again.
func (s *SessionStream) each(part int, yield func(*Entry) error) error {
	list := func(recs []int32) func(func(int32) bool) {
		return func(y func(int32) bool) {
			for _, i := range recs {
				if !y(i) {
					return
				}
			}
		}
	}
	nb, ni := len(s.branches), len(s.inline)
	switch {
	case part == 0:
		return s.main.emit(list(s.chain), yield)
	case part <= nb:
		return s.main.emit(list(s.branches[part-1]), yield)
	case part <= nb+ni:
		return s.main.emit(list(s.inline[part-1-nb]), yield)
	}
	s.main.close()
	f := s.subs[part-1-nb-ni]
	defer f.close()
	return f.emit(func(y func(int32) bool) {
		for i := range int32(f.ix.Len()) {
			if f.ix.Indexed(i) && !y(i) {
				return
			}
		}
	}, yield)
}

// begin readies the builders for a pass over the entries: each pass
// shows a response's usage on its first entry again.
func (s *SessionStream) begin() {
	for _, f := range append([]*indexedFile{s.main}, s.subs...) {
		f.b.responses, f.b.err = map[[16]byte]struct{}{}, nil
	}
}

// Write writes the export to w in format f, an entry at a time. It can
// be called again (a retried write).
func (s *SessionStream) Write(w io.Writer, f Format) error {
	s.begin()
	defer s.main.close()
	return writeSession(w, s.x, f, s.each)
}

// Whole is the export with its entries in memory.
func (s *SessionStream) Whole() (*SessionExport, error) {
	s.begin()
	defer s.main.close()
	x := *s.x
	x.Branches = append([]Branch{}, s.x.Branches...)
	x.Sidechains = append([]Sidechain{}, s.x.Sidechains...)
	for part := range 1 + len(x.Branches) + len(x.Sidechains) {
		es := []Entry{}
		if err := s.each(part, func(e *Entry) error {
			es = append(es, *e)
			return nil
		}); err != nil {
			return nil, err
		}
		switch {
		case part == 0:
			x.Conversation = es
		case part <= len(x.Branches):
			x.Branches[part-1].Entries = es
		default:
			x.Sidechains[part-1-len(x.Branches)].Entries = es
		}
	}
	return &x, nil
}

// Close closes the transcripts.
func (s *SessionStream) Close() {
	s.main.close()
	for _, f := range s.subs {
		f.close()
	}
}

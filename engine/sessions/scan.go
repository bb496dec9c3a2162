package sessions

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"strconv"
	"unicode/utf8"

	"github.com/memscope/memscope/engine/pricing"
	"github.com/memscope/memscope/model"
)

// FileScan is what one streaming pass over one transcript finds: the
// summary model.ScanTranscript would give, and the usage lines ccusage
// would count.
type FileScan struct {
	Sum model.TranscriptSummary
	// usage packs the lines ccusage counts, in file order, with repeats
	// of an id pair already seen in this file left out (they could never
	// count: the first one always comes first).
	usage usagePack
	// problems are ccusage usage lines whose counts memscope will not
	// round (when the model's reader did not already report the line).
	problems []model.Problem
	// clientCost is the client's own cost-state figure: the last
	// totalCostUSD of each process (by its startTime) that wrote here.
	clientCost map[string]float64
}

// scanWorker scans files one after another, reusing its buffers.
type scanWorker struct {
	ls   *lineScanner
	lr   *model.LineReader
	cr   byteCounter
	z    *model.Summarizer
	hash hash.Hash // SHA-256, reused
	sum  [sha256.Size]byte
	seen map[[2]uint64]struct{}
	// name is the file being scanned.
	name string
	// rec is the record of the line being scanned.
	rec model.SummaryRecord
	// read is how the line scanned last was counted (Summarizing.Record).
	read lineRead
	// ccusage says whether to collect ccusage's usage lines too.
	ccusage bool
	// models interns model names, so a usage line costs no allocation.
	models map[string]string
	// keys and data are the pack's buffers while a file is read, reused
	// from file to file: the pack kept is a copy at its size.
	keys, data []byte
}

func newScanWorker(ccusage bool) *scanWorker {
	ls := newLineScanner()
	ls.summaryOnly = !ccusage
	return &scanWorker{ls: ls, z: model.NewSummarizer(), hash: sha256.New(), seen: map[[2]uint64]struct{}{}, ccusage: ccusage, models: map[string]string{}}
}

// lineRead is how scanWorker.line counted a line.
type lineRead uint8

const (
	// readByModel: handed whole to the transcript reader (a line that is
	// no record as read here, or one it reports a problem on).
	readByModel lineRead = iota
	// readBlank: blank, or too long to keep (no record).
	readBlank
	// readRecord: a record read here (scanWorker.rec).
	readRecord
)

// byteCounter counts the bytes read through it.
type byteCounter struct {
	r io.Reader
	n int64
}

// scanFile reads the transcript at name in fsys once. Like
// model.SummarizeTranscript, an open error is returned with an empty
// summary; a read error with what was read before it.
// With stamp set, the file is stamped from that open before it is read
// (model.StampOpened) and the stamp handed to stamp; a file that cannot
// be stamped is not (it is read all the same).
func (w *scanWorker) scanFile(fsys fs.FS, name string, stamp func(model.FileStamp)) (FileScan, error) {
	f, err := model.OpenRegular(fsys, name)
	if err != nil {
		return FileScan{Sum: model.TranscriptSummary{Path: name}}, fmt.Errorf("open transcript %s: %w", name, err)
	}
	defer f.Close()
	if stamp != nil {
		if st, err := model.StampOpened(f, name); err == nil {
			stamp(st)
		}
	}
	return w.scan(f, name)
}

// scan reads one transcript from r in one pass.
func (w *scanWorker) scan(r io.Reader, name string) (FileScan, error) {
	var out FileScan
	out.usage.keys, out.usage.data = w.keys[:0], w.data[:0]
	clear(w.seen)
	z := w.z
	z.Reset(name)
	w.name = name
	w.cr = byteCounter{r: r}
	if w.lr == nil {
		w.lr = model.NewLineReader(&w.cr)
	} else {
		w.lr.Reset(&w.cr)
	}
	lr, cr := w.lr, &w.cr
	for {
		line, ok := lr.Next()
		if !ok {
			break
		}
		w.line(&out, line)
	}
	out.Sum = z.Summary(cr.n)
	w.keys, w.data = out.usage.keys, out.usage.data
	out.usage.keys, out.usage.data = bytes.Clone(w.keys), bytes.Clone(w.data)
	if err := lr.Err(); err != nil {
		return out, fmt.Errorf("read %s: %w", name, err)
	}
	return out, nil
}

// line adds one line to the summary (and to out's usage lines when
// collecting ccusage's). valid says the line is one valid JSON object
// (jsonscan's rule; false for a blank line or one too long to read).
func (w *scanWorker) line(out *FileScan, line model.Line) (valid bool) {
	z, ls := w.z, w.ls
	if z.Blank(line) {
		w.read = readBlank
		return false
	}
	w.read = readByModel
	if err := ls.line(line.Bytes); err != nil {
		z.Line(line)
		return false
	}
	problems := z.Problems()
	if !ls.js.ASCII() && !utf8.Valid(line.Bytes) || !ls.record(z, &w.rec) {
		z.Line(line)
	} else {
		z.Add(&w.rec)
		w.read = readRecord
	}
	if w.ccusage {
		w.ccusageLine(out, line.Number, z.Problems() > problems)
		w.costState(out)
	}
	return true
}

// ccusageLine notes the usage ccusage would count on the line just
// scanned (which was valid JSON); reported says the model's reader
// already reported a problem on it.
func (w *scanWorker) ccusageLine(out *FileScan, lineNo int, reported bool) {
	ls := w.ls
	u, verdict, why := ls.lineUsage()
	switch verdict {
	case usageNone:
		return
	case usageNotWhole:
		if !reported {
			out.problems = append(out.problems, model.Problem{File: w.name, Line: lineNo, Kind: model.ProblemBadField, Reason: why})
		}
		return
	}
	// The key hashes message.id and requestId (128 bits, so a collision
	// among even billions of responses is not a practical concern); a
	// line missing either is not keyed and always counts.
	var key [2]uint64
	keyed := false
	if f := &ls.f; f.msgID.present() && f.requestID.present() {
		keyed = true
		key = w.key(f.msgID, f.requestID)
		if _, dup := w.seen[key]; dup {
			return
		}
		w.seen[key] = struct{}{}
	}
	out.usage.add(key, keyed, w.price(u))
}

// costState notes the client's running cost when the line just scanned
// is a cost-state record.
func (w *scanWorker) costState(out *FileScan) {
	f, d := &w.ls.f, w.ls.js.Bytes()
	if !isKind(d, f.totalCost, 'n') || !bytes.Equal(w.ls.textBytes(f.typ), []byte("cost-state")) {
		return
	}
	c, err := strconv.ParseFloat(string(d[f.totalCost.start:f.totalCost.end]), 64)
	if err != nil {
		return
	}
	if out.clientCost == nil {
		out.clientCost = map[string]float64{}
	}
	start := ""
	if f.startTime.present() {
		start = string(d[f.startTime.start:f.startTime.end])
	}
	out.clientCost[start] = c
}

// price reads what pricing needs of the usage line just scanned.
func (w *scanWorker) price(u model.Usage) pricing.Response {
	f, d := &w.ls.f, w.ls.js.Bytes()
	r := pricing.Response{Usage: u}
	if f.msgModel.present() && isKind(d, f.msgModel, '"') {
		name := w.ls.textBytes(f.msgModel)
		m, ok := w.models[string(name)]
		if !ok {
			m = string(name)
			w.models[m] = m
		}
		r.Model = m
	}
	if isKind(d, f.cache1h, 'n') {
		r.CacheWrite1h, _ = wholeNumber(d[f.cache1h.start:f.cache1h.end])
	}
	if sp, ok := w.ls.text(f.speed); ok && sp == "fast" {
		r.Fast = true
	}
	if isKind(d, f.costUSD, 'n') {
		if c, err := strconv.ParseFloat(string(d[f.costUSD.start:f.costUSD.end]), 64); err == nil {
			r.Recorded, r.HasRecorded = c, true
		}
	}
	return r
}

// key hashes message.id and requestId as ccusage joins them ("id:req"),
// decoding them first when they hold escapes: the first 128 bits of
// their SHA-256, the same in every run, so a scan kept in the cache
// (Options.Cache) dedupes against this run's.
func (w *scanWorker) key(id, req span) [2]uint64 {
	h := w.hash
	h.Reset()
	h.Write(w.ls.textBytes(id))
	h.Write(colon)
	h.Write(w.ls.textBytes(req))
	sum := h.Sum(w.sum[:0])
	return [2]uint64{binary.LittleEndian.Uint64(sum), binary.LittleEndian.Uint64(sum[8:])}
}

var colon = []byte{':'}

func (c *byteCounter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

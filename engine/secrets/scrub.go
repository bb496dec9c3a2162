package secrets

import (
	"bufio"
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"math"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/memscope/memscope/engine/journal"
	"github.com/memscope/memscope/engine/scan"
	"github.com/memscope/memscope/engine/store"
	"github.com/memscope/memscope/internal/format"
	"github.com/memscope/memscope/internal/jsonscan"
	"github.com/memscope/memscope/model"
)

// maxScrubBytes bounds a file a scrub reads (a transcript of a long
// session is tens of megabytes; it is read as a stream, not held).
const maxScrubBytes = 1 << 30

// Edit is one secret a scrub replaces.
type Edit struct {
	Finding  string      `json:"finding"`
	Rule     scan.RuleID `json:"rule"`
	Line     int         `json:"line"`
	JSONPath string      `json:"jsonPath,omitempty"`
	Part     string      `json:"part,omitempty"`
	// Offset and Length are the bytes replaced, in the file as it is.
	Offset  int64  `json:"offset"`
	Length  int    `json:"length"`
	Marker  string `json:"marker"`
	Excerpt string `json:"excerpt"`
}

// PlanFile is one file of a scrub: as it is, as it will be, and why it
// will not be touched when Refused is set.
type PlanFile struct {
	File    string          `json:"file"`
	Store   Store           `json:"store"`
	Session model.SessionID `json:"session,omitempty"`
	Current store.FileStamp `json:"current"`
	Mode    fs.FileMode     `json:"mode"`
	After   store.FileStamp `json:"after"`
	Edits   Edits           `json:"edits"`
	// Diff shows each changed line around its secrets, secrets masked.
	Diff    string `json:"diff"`
	Refused string `json:"refused,omitempty"`
}

// Skipped is a selected finding the plan leaves alone, and why.
type Skipped struct {
	Finding string `json:"finding"`
	File    string `json:"file"`
	Why     string `json:"why"`
}

// Plan is a scrub: the files it writes, the findings it leaves.
type Plan struct {
	Home    string     `json:"home"`
	Files   []PlanFile `json:"files"`
	Skipped []Skipped  `json:"skipped"`
}

// Selection says which findings a scrub takes: IDs or rule names (any
// match); empty takes them all.
type Selection []string

// PlanScrub plans the scrub of the report's selected findings. Each file
// is read again and scanned again (a finding's ID names the same secret
// while the file only grows); files outside the home, files Claude Code
// may be writing (see BusyOptions) and files that are not plain regular
// files are left alone and say why.
func PlanScrub(o Options, r Report, sel Selection, busy BusyOptions) Plan {
	return PlanScrubEach(o, func(fn func(*Finding)) {
		for i := range r.Findings {
			fn(&r.Findings[i])
		}
	}, sel, busy)
}

// PlanScrubEach is PlanScrub over findings handed out one at a time
// (Scanning.Each): it keeps of each only its id, so a plan holds its
// edits, not the scan.
func PlanScrubEach(o Options, each func(func(*Finding)), sel Selection, busy BusyOptions) Plan {
	p := Plan{Home: o.Home.Dir, Files: []PlanFile{}, Skipped: []Skipped{}}
	byFile := map[string]*fileSel{}
	var files []string
	each(func(f *Finding) {
		if !f.matchesAny(sel) {
			return
		}
		if f.Outside {
			p.Skipped = append(p.Skipped, Skipped{Finding: f.ID, File: f.File,
				Why: "outside the Claude home, where memscope writes nothing: edit it yourself (in a git repository, its history may keep the secret too)"})
			return
		}
		if f.Store == StoreUndoCopy {
			p.Skipped = append(p.Skipped, Skipped{Finding: f.ID, File: f.File,
				Why: "memscope's undo copy of a file as it was before a change: it stays until that change leaves the journal (memscope undo --list, memscope files SESSION)"})
			return
		}
		if f.Store == StoreLeftover {
			p.Skipped = append(p.Skipped, Skipped{Finding: f.ID, File: f.File,
				Why: "a hidden copy an interrupted memscope write left: memscope lint --remove-leftovers deletes it"})
			return
		}
		if f.Store == StoreSettings && !slices.Contains(sel, f.ID) {
			// A settings file is configuration Claude Code reads (an env
			// value, an MCP server's key): a marker there breaks what uses
			// it, so only a scrub that names the finding touches it.
			p.Skipped = append(p.Skipped, Skipped{Finding: f.ID, File: f.File,
				Why: "configuration Claude Code reads: scrubbing breaks what uses it; name the finding (--only " + f.ID + ") to scrub it anyway"})
			return
		}
		fs := byFile[f.File]
		if fs == nil {
			fs = &fileSel{first: *f, ids: map[idKey]struct{}{}}
			fs.first.secret = ""
			byFile[f.File] = fs
			files = append(files, f.File)
		}
		fs.ids[keyOf(f.ID)] = struct{}{}
	})
	bc := newBusyChecker(busy, o.Home)
	w := newWorker()
	for _, name := range files {
		p.Files = append(p.Files, planFile(o.Home, w, bc, byFile[name]))
		delete(byFile, name)
	}
	return p
}

// fileSel is what a plan takes of one file: its first finding (where the
// file is, whose it is) and the ids of the findings asked for.
type fileSel struct {
	first Finding
	ids   map[idKey]struct{}
}

func planFile(h *model.Home, w *worker, bc *busyChecker, sel *fileSel) PlanFile {
	f0 := sel.first
	pf := PlanFile{File: f0.File, Store: f0.Store, Session: f0.Session, Edits: EditsOf()}
	abs := h.Abs(f0.File)
	st, err := os.Lstat(abs)
	switch {
	case err != nil:
		pf.Refused = err.Error()
		return pf
	case st.Mode()&fs.ModeSymlink != 0:
		pf.Refused = "a symbolic link: memscope does not write through links"
		return pf
	case !st.Mode().IsRegular():
		pf.Refused = model.NotRegularReason(st.Mode())
		return pf
	}
	if r := folderRefusal(h.Dir, filepath.Dir(abs)); r != "" {
		pf.Refused = r
		return pf
	}
	// The file is read as a stream, not held: hashed and scanned as it
	// is read, then read again for the scrubbed stamp and the diff.
	file, err := model.OpenRegularFile(abs)
	if err != nil {
		pf.Refused = err.Error()
		return pf
	}
	defer file.Close()
	size := int64(0)
	if fi, err := file.Stat(); err == nil {
		size = fi.Size()
	}
	if size > maxScrubBytes {
		pf.Refused = (&fs.PathError{Op: "read", Path: abs, Err: &model.TooLargeError{Size: size, Max: maxScrubBytes}}).Error()
		return pf
	}
	pf.Mode = st.Mode().Perm()
	pf.Refused = bc.why(abs, st.ModTime(), f0.Session, f0.Store.IsTranscript())
	// Scan again what is on disk now; keep the findings asked for, and
	// those the diff may show: a file read line by line may hold a
	// million, and the diff shows the first maxDiffLines lines with edits.
	u := unit{store: f0.Store, fsys: h.FS, name: f0.File, file: f0.File, format: formatOf(f0.Store, f0.File),
		session: f0.Session, agent: f0.Agent, project: f0.Project, size: size}
	var near []Finding
	shown := map[int]bool{}
	// The edits are held compact: a file may hold a million.
	pf.Edits = newEdits(len(sel.ids))
	notHeld := ""
	var res fileResult
	raw := sha256.New()
	in := &model.CountingReader{R: io.LimitReader(file, size)}
	w.scanFile(io.TeeReader(in, raw), u, &res, func(f *Finding) {
		if !u.byLine() || len(shown) < maxDiffLines || shown[f.Line] {
			near = append(near, *f)
		}
		if _, ok := sel.ids[keyOf(f.ID)]; !ok || notHeld != "" {
			return
		}
		if !spanHolds(w.at, w.atOffset, *f) {
			notHeld = fmt.Sprintf("line %d: the bytes at the secret's place are not the secret (nothing is written when memscope is not sure)", f.Line)
			return
		}
		if len(shown) < maxDiffLines {
			shown[f.Line] = true
		}
		pf.Edits.add(f)
	})
	w.at = nil
	// What the scan did not read (a text file's tail past a bad line) is
	// hashed too: the stamp is the file's.
	if _, err := io.Copy(raw, in); err != nil && in.Err == nil {
		in.Err = err
	}
	if in.Err != nil {
		pf.Refused = in.Err.Error()
		return pf
	}
	pf.Current = store.FileStamp{Exists: true, Size: in.N, ModTime: st.ModTime(), SHA256: hex.EncodeToString(raw.Sum(nil))}
	if notHeld != "" {
		pf.Refused = notHeld
		return pf
	}
	if pf.Edits.Len() == 0 && pf.Refused == "" {
		pf.Refused = "the secrets are no longer there (the file changed since the scan)"
	}
	pf.Diff, err = maskedDiff(pf.File, file, in.N, &pf.Edits, near)
	if err == nil {
		pf.After, err = stampEditedFrom(io.NewSectionReader(file, 0, in.N), &pf.Edits, pf.Current)
	}
	if err != nil {
		pf.Refused, pf.Diff = err.Error(), ""
	}
	return pf
}

// spanHolds checks a finding's span before it is replaced: its bytes are
// the secret, as written (decoded, inside a JSON string). data holds the
// file's bytes from offset at (the line the scan found it in).
func spanHolds(data []byte, at int64, f Finding) bool {
	start, end := f.Offset-at, f.Offset-at+int64(f.Length)
	if start < 0 || end > int64(len(data)) {
		return false
	}
	raw := data[start:end]
	if string(raw) == f.secret {
		return true
	}
	if f.JSONPath == "" {
		return false
	}
	s, ok := jsonscan.Unquote([]byte(`"` + string(raw) + `"`))
	return ok && s == f.secret
}

// folderRefusal refuses a file whose folder inside the home is reached
// through a symbolic link: a write would land elsewhere.
func folderRefusal(home, dir string) string {
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return err.Error()
	}
	realHome, err := filepath.EvalSymlinks(home)
	if err != nil {
		return err.Error()
	}
	rel, err := filepath.Rel(realHome, real)
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") || filepath.Join(home, rel) != dir {
		return "its folder is reached through a symbolic link"
	}
	return ""
}

// spans are edits as a write needs them: each one's offset, length and
// marker (Edits, or a list of Edit).
type spans interface {
	Len() int
	span(i int) (offset int64, length int, marker string)
}

// editList is a list of Edit as spans.
type editList []Edit

func (l editList) Len() int { return len(l) }

func (l editList) span(i int) (int64, int, string) { return l[i].Offset, l[i].Length, l[i].Marker }

// byOffset is the order of the edits by offset (nil when they are in
// that order already: a plan's are).
func byOffset(edits spans) []int {
	offset := func(i int) int64 {
		off, _, _ := edits.span(i)
		return off
	}
	n := edits.Len()
	for i := 1; i < n; i++ {
		if offset(i) < offset(i-1) {
			order := make([]int, n)
			for k := range order {
				order[k] = k
			}
			slices.SortStableFunc(order, func(x, y int) int { return cmp.Compare(offset(x), offset(y)) })
			return order
		}
	}
	return nil
}

// applyEdits returns data with every edit's bytes replaced by its marker.
func applyEdits(data []byte, edits spans) []byte {
	var b bytes.Buffer
	b.Grow(len(data))
	writeEdited(&b, data, edits)
	return b.Bytes()
}

// writeEdited writes data with every edit's bytes replaced by its
// marker.
func writeEdited(w io.Writer, data []byte, edits spans) error {
	ew := newEditWriter(w, edits)
	if _, err := ew.Write(data); err != nil {
		return err
	}
	return ew.finish()
}

// editWriter writes to dst the file written to it (from its first byte,
// in any pieces) with each edit's span replaced by its marker: a scrub
// streams a file of any size through it.
type editWriter struct {
	dst   io.Writer
	edits spans
	order []int
	// k is the next edit, pos the file's offset of the next byte written,
	// skip what is left of the span being replaced; n counts the bytes
	// written to dst.
	k         int
	pos, skip int64
	n         int64
	// onSpan, when set, gets each edit (its index) with the bytes it
	// replaces, once they are all written (cur holds them meanwhile).
	onSpan func(i int, replaced []byte) error
	cur    []byte
}

func newEditWriter(dst io.Writer, edits spans) *editWriter {
	return &editWriter{dst: dst, edits: edits, order: byOffset(edits)}
}

// errEditsOverlap says a plan's edits overlap or run past the file:
// nothing is written when memscope is not sure.
var errEditsOverlap = errors.New("the scrubbed file differs from the plan")

func (e *editWriter) index(k int) int {
	if e.order != nil {
		return e.order[k]
	}
	return k
}

func (e *editWriter) span(k int) (int64, int, string) { return e.edits.span(e.index(k)) }

func (e *editWriter) out(p []byte) error {
	n, err := e.dst.Write(p)
	e.n += int64(n)
	return err
}

func (e *editWriter) Write(p []byte) (int, error) {
	total := len(p)
	for {
		if e.skip > 0 {
			c := min(int64(len(p)), e.skip)
			if e.onSpan != nil {
				e.cur = append(e.cur, p[:c]...)
			}
			p, e.pos, e.skip = p[c:], e.pos+c, e.skip-c
			if e.skip > 0 {
				return total, nil
			}
			if err := e.spanDone(); err != nil {
				return 0, err
			}
		}
		next := int64(math.MaxInt64)
		if e.k < e.edits.Len() {
			if next, _, _ = e.span(e.k); next < e.pos {
				return 0, errEditsOverlap
			}
		}
		c := min(int64(len(p)), next-e.pos)
		if err := e.out(p[:c]); err != nil {
			return 0, err
		}
		p, e.pos = p[c:], e.pos+c
		if e.pos < next {
			return total, nil
		}
		_, length, marker := e.span(e.k)
		if err := e.out([]byte(marker)); err != nil {
			return 0, err
		}
		e.k, e.skip = e.k+1, int64(length)
		if e.skip == 0 {
			if err := e.spanDone(); err != nil {
				return 0, err
			}
		}
		if len(p) == 0 && e.skip > 0 {
			return total, nil
		}
	}
}

// spanDone hands the span just replaced (edit k-1) to onSpan.
func (e *editWriter) spanDone() error {
	if e.onSpan == nil {
		return nil
	}
	err := e.onSpan(e.index(e.k-1), e.cur)
	e.cur = e.cur[:0]
	return err
}

// finish ends the file: an edit not reached is past its end.
func (e *editWriter) finish() error {
	if _, err := e.Write(nil); err != nil {
		return err
	}
	if e.k < e.edits.Len() || e.skip > 0 {
		return errEditsOverlap
	}
	return nil
}

// stampEdited is the stamp of data with the edits applied
// (store.StampOf of applyEdits' result), without a copy of the file.
func stampEdited(data []byte, edits spans) store.FileStamp {
	st, _ := stampEditedFrom(bytes.NewReader(data), edits, store.FileStamp{})
	return st
}

// errChangedWhilePlanned refuses a file whose bytes changed between the
// plan's two readings of it.
var errChangedWhilePlanned = errors.New("the file changed while memscope planned its scrub (nothing is written when memscope is not sure)")

// stampEditedFrom reads a file's bytes from r and returns their stamp
// with the edits applied; when current is set, the bytes must be the
// ones it stamps (else errChangedWhilePlanned).
func stampEditedFrom(r io.Reader, edits spans, current store.FileStamp) (store.FileStamp, error) {
	raw, edited := sha256.New(), sha256.New()
	ew := newEditWriter(edited, edits)
	n, err := io.Copy(io.MultiWriter(raw, ew), r)
	if err == nil {
		err = ew.finish()
	}
	if err != nil {
		return store.FileStamp{}, err
	}
	if current.Exists && (n != current.Size || hex.EncodeToString(raw.Sum(nil)) != current.SHA256) {
		return store.FileStamp{}, errChangedWhilePlanned
	}
	return store.FileStamp{Exists: true, Size: ew.n, SHA256: hex.EncodeToString(edited.Sum(nil))}, nil
}

// diffContext is how many bytes of a line a diff shows around a secret.
const diffContext = 32

// maxDiffLines bounds the lines a plan's diff shows: a transcript may
// hold a million secrets, and the plan is held (and shown) whole.
const maxDiffLines = 1000

// maskedDiff shows each changed line near its secrets: "-" with every
// secret of the line masked, "+" with the markers in place (and secrets
// not scrubbed still masked). Nothing secret is printed.
//
// The file is src (size bytes): each changed line's bytes around its
// secrets are read from it, not the whole file.
func maskedDiff(file string, src io.ReaderAt, size int64, edits *Edits, all []Finding) (string, error) {
	n := edits.Len()
	if n == 0 {
		return "", nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "--- %s\n+++ %s (scrubbed)\n", file, file)
	// The changed lines in the order of their first edit; the edits of
	// the first maxDiffLines of them are made (the others are counted).
	inOrder := true
	for i := 1; i < n && inOrder; i++ {
		inOrder = edits.line(i) >= edits.line(i-1)
	}
	byLine := map[int][]Edit{}
	var lines []int
	more, last := 0, 0
	var counted map[int]bool
	for i := range n {
		ln := edits.line(i)
		if es, ok := byLine[ln]; ok {
			byLine[ln] = append(es, edits.At(i))
			continue
		}
		if len(lines) < maxDiffLines {
			lines = append(lines, ln)
			byLine[ln] = []Edit{edits.At(i)}
			continue
		}
		switch {
		case inOrder && ln != last:
			more++
		case !inOrder && !counted[ln]:
			if counted == nil {
				counted = map[int]bool{}
			}
			counted[ln] = true
			more++
		}
		last = ln
	}
	// The findings by offset, so each line looks at the few near it
	// (a file may hold a million secrets: no line scans them all).
	byOffset := slices.Clone(all)
	sort.Slice(byOffset, func(i, j int) bool { return byOffset[i].Offset < byOffset[j].Offset })
	longest := 0
	for _, f := range byOffset {
		longest = max(longest, f.Length)
	}
	for _, ln := range lines {
		es := byLine[ln]
		lo, hi := es[0].Offset, es[0].Offset+int64(es[0].Length)
		for _, e := range es {
			lo, hi = min(lo, e.Offset), max(hi, e.Offset+int64(e.Length))
		}
		// The bytes shown and one more each side: where the line starts
		// and ends when that is near; else it starts before wlo and
		// ends after whi, which is all the diff needs to know.
		wlo, whi := max(0, lo-diffContext-1), min(size, hi+diffContext+1)
		if lo < wlo || hi > whi {
			return "", fmt.Errorf("a secret's place (%d) is past the file's end (%d bytes)", hi, size)
		}
		win := make([]byte, whi-wlo)
		if _, err := src.ReadAt(win, wlo); err != nil {
			return "", fmt.Errorf("read %s: %w", file, err)
		}
		ls, le := wlo, whi
		if i := bytes.LastIndexByte(win[:lo-wlo], '\n'); i >= 0 {
			ls = wlo + int64(i) + 1
		}
		if i := bytes.IndexByte(win[hi-wlo:], '\n'); i >= 0 {
			le = hi + int64(i)
		}
		from, to := max(ls, lo-diffContext), min(le, hi+diffContext)
		var masked, marked []Edit
		first := sort.Search(len(byOffset), func(i int) bool { return byOffset[i].Offset+int64(longest) > from })
		for _, f := range byOffset[first:] {
			if f.Offset >= to {
				break
			}
			// Every secret the context shows any of is masked, one that
			// runs over its edge too (only the part shown is replaced).
			if s, e := max(f.Offset, from), min(f.Offset+int64(f.Length), to); s < e {
				m := Edit{Offset: s, Length: int(e - s), Marker: "‹" + f.Excerpt + "›"}
				masked = append(masked, m)
				if !slices.ContainsFunc(es, func(e Edit) bool { return e.Finding == f.ID }) {
					marked = append(marked, m)
				}
			}
		}
		marked = append(marked, es...)
		seg := func(edits []Edit) string {
			var shifted []Edit
			for _, e := range edits {
				e.Offset -= from
				shifted = append(shifted, e)
			}
			s := string(applyEdits(win[from-wlo:to-wlo], editList(shifted)))
			s = model.SanitizeForTerminal(strings.ToValidUTF8(s, "\uFFFD"))
			if from > ls {
				s = "…" + s
			}
			if to < le {
				s += "…"
			}
			return s
		}
		fmt.Fprintf(&b, "@@ line %d @@\n-%s\n+%s\n", ln, seg(masked), seg(marked))
	}
	if more > 0 {
		fmt.Fprintf(&b, "@@ and %s @@\n", format.Count(more, "more line", "more lines"))
	}
	return b.String(), nil
}

// Fingerprint names the plan and the state it was made in: every file's
// content now and after, its edits and whether it is refused. A plan made
// again gives the same fingerprint only when nothing changed, so a plan
// shown once is applied only as it was shown (secrets --yes --plan FP),
// as memscope files does for restores.
func (p Plan) Fingerprint() string {
	h := sha256.New()
	for _, f := range p.Files {
		// Whether a file is left alone, not why: the reason may name how
		// long ago it changed, which moves while the plan is read.
		fmt.Fprintf(h, "%s\x00%s\x00%s\x00%v\n", f.File, f.Current.SHA256, f.After.SHA256, f.Refused != "")
		for i := range f.Edits.Len() {
			off, length, marker := f.Edits.span(i)
			fmt.Fprintf(h, "%d\x00%d\x00%s\n", off, length, marker)
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// Writes counts the files applying writes.
func (p Plan) Writes() int {
	n := 0
	for _, f := range p.Files {
		if f.Refused == "" && f.Edits.Len() > 0 {
			n++
		}
	}
	return n
}

// Secrets counts the secrets applying replaces.
func (p Plan) Secrets() int {
	n := 0
	for _, f := range p.Files {
		if f.Refused == "" {
			n += f.Edits.Len()
		}
	}
	return n
}

// CopyDir is where scrubs keep what they replaced, inside the home.
const CopyDir = model.ScrubCopyDir

// manifest is what a scrub replaced: enough to put back every byte, mode
// and mtime.
type manifest struct {
	ID    string         `json:"id"`
	Time  time.Time      `json:"time"`
	Files []manifestFile `json:"files"`
}

type manifestFile struct {
	File    string          `json:"file"`
	Mode    fs.FileMode     `json:"mode"`
	ModTime time.Time       `json:"mtime"`
	Before  store.FileStamp `json:"before"`
	After   store.FileStamp `json:"after"`
	Edits   []savedEdit     `json:"edits"`
	// listed counts the edits of a manifest read without them (a
	// listing).
	listed int
}

// savedEdit is one replaced secret: where its marker is in the scrubbed
// file, and the bytes it replaced (base64 in JSON).
type savedEdit struct {
	Rule        scan.RuleID `json:"rule"`
	Offset      int64       `json:"offset"`
	AfterOffset int64       `json:"afterOffset"`
	Marker      string      `json:"marker"`
	Bytes       []byte      `json:"bytes"`
}

// Result is what Apply or Restore did.
type Result struct {
	ID      string   `json:"id"`
	Files   []string `json:"files"`
	Secrets int      `json:"secrets"`
	// Copy is the folder that holds the replaced secrets ("" once gone).
	Copy string `json:"copy,omitempty"`
	// Notes say what else the user should know (appended lines kept).
	Notes []string `json:"notes,omitempty"`
}

// ApplyOptions say how to write a scrub.
type ApplyOptions struct {
	Home *model.Home
	// Write is the writer (model.OSWriteFS when nil); tests inject faults.
	Write model.WriteFS
	Busy  BusyOptions
	Now   time.Time
}

func (o ApplyOptions) writer() model.WriteFS {
	if o.Write == nil {
		return model.OSWriteFS{}
	}
	return o.Write
}

// lock takes the scrub folder's lock, so two memscope processes do not
// scrub or restore at once.
func lock(home *model.Home) func() {
	return journal.LockFile(home.Abs(model.ScrubJournal))
}

// Apply carries out the plan's files that are not refused. Each file is
// checked again (the same bytes as planned, still not busy), the bytes it
// replaces are saved first in <home>/.memscope/scrub/<id>/ (mode 0600),
// then each file is replaced atomically, checked against the disk at the
// rename, with its mode and mtime kept, and read back: every line that
// parsed still parses and only the planned bytes differ. A failure puts
// back the files already written and removes the copy: nothing is left
// half done, and the error names the file. No file is held in memory:
// each reading of one streams through the edit writer (a transcript may
// be hundreds of megabytes); the plan's compact edits are.
func Apply(o ApplyOptions, p Plan) (Result, error) {
	wfs := o.writer()
	defer lock(o.Home)()
	bc := newBusyChecker(o.Busy, o.Home)
	var todo []*PlanFile
	m := manifest{ID: copyID(o.Now, p.Fingerprint()), Time: o.Now.UTC()}
	for i := range p.Files {
		f := &p.Files[i]
		if f.Refused != "" || f.Edits.Len() == 0 {
			continue
		}
		file, st, err := openPlanned(o.Home, f)
		if err != nil {
			return Result{}, err
		}
		abs := o.Home.Abs(f.File)
		after, bad, err := checkPlanned(file, st, abs, f)
		file.Close()
		if err != nil {
			return Result{}, err
		}
		if why := bc.why(abs, st.ModTime(), f.Session, f.Store.IsTranscript()); why != "" {
			return Result{}, fmt.Errorf("scrub refused, nothing was written: %s: %s", abs, why)
		}
		f.Mode, f.Current.ModTime = st.Mode().Perm(), st.ModTime()
		if bad != nil {
			return Result{}, fmt.Errorf("scrub refused, nothing was written: %s: %w", abs, bad)
		}
		mf := manifestFile{File: f.File, Mode: f.Mode, ModTime: f.Current.ModTime, Before: f.Current, After: after,
			listed: f.Edits.Len()}
		mf.Before.ModTime = time.Time{}
		m.Files = append(m.Files, mf)
		todo = append(todo, f)
	}
	if len(todo) == 0 {
		return Result{}, nil
	}
	dir := o.Home.Abs(path.Join(CopyDir, m.ID))
	res := Result{ID: m.ID, Copy: dir}
	// The bytes each edit replaces go into the copy as it is written,
	// read from their file again as a stream.
	saved := func(i int, put func(savedEdit) error) error {
		f := todo[i]
		file, st, err := openPlanned(o.Home, f)
		if err != nil {
			return err
		}
		defer file.Close()
		return savedEdits(newPlannedReader(file, st, o.Home.Abs(f.File), f.Current), &f.Edits, put)
	}
	if err := saveManifest(wfs, dir, m, saved); err != nil {
		return Result{}, fmt.Errorf("save the secrets' copy before scrubbing (nothing was scrubbed): %w", err)
	}
	for k, f := range todo {
		abs := o.Home.Abs(f.File)
		err := writeScrubbed(wfs, o.Home, f, m.Files[k].After)
		if err != nil {
			return Result{}, rollback(wfs, o.Home, dir, m.ID, k, fmt.Errorf("scrub %s: %w", abs, err))
		}
		res.Files = append(res.Files, f.File)
		res.Secrets += f.Edits.Len()
	}
	return res, nil
}

// savedEdits hands put what each edit replaces in the file read from r,
// in the order of the file: where its marker will be, and the bytes it
// replaces (put must not keep them).
func savedEdits(r io.Reader, edits *Edits, put func(savedEdit) error) error {
	ew := newEditWriter(io.Discard, edits)
	shift := int64(0)
	ew.onSpan = func(i int, replaced []byte) error {
		off, length, marker := edits.span(i)
		err := put(savedEdit{Rule: edits.rule(i), Offset: off, AfterOffset: off + shift, Marker: marker, Bytes: replaced})
		shift += int64(len(marker) - length)
		return err
	}
	if _, err := io.Copy(ew, r); err != nil {
		return err
	}
	return ew.finish()
}

// openPlanned opens a planned file again, for one of a scrub's readings
// of it (newPlannedReader).
func openPlanned(h *model.Home, f *PlanFile) (*os.File, fs.FileInfo, error) {
	abs := h.Abs(f.File)
	st, err := os.Lstat(abs)
	if err != nil {
		return nil, nil, fmt.Errorf("scrub refused, nothing was written: %s: %w", abs, err)
	}
	file, err := model.OpenRegularFile(abs)
	if err != nil {
		return nil, nil, fmt.Errorf("scrub refused, nothing was written: %w", err)
	}
	if fi, err := file.Stat(); err == nil && fi.Size() > maxScrubBytes {
		file.Close()
		return nil, nil, fmt.Errorf("scrub refused, nothing was written: %w", &fs.PathError{Op: "read", Path: abs, Err: &model.TooLargeError{Size: fi.Size(), Max: maxScrubBytes}})
	}
	return file, st, nil
}

// plannedReader streams the bytes a plan was made from, out of a file
// that may have grown since (a client appends to a transcript while it
// runs); at their end, when they are not the planned ones, it fails with
// a *store.ConflictError. Nothing is held: a scrub reads a file of any
// size this way.
type plannedReader struct {
	r     io.Reader
	hash  hash.Hash
	n     int64
	want  store.FileStamp
	abs   string
	mtime time.Time
}

func newPlannedReader(file *os.File, st fs.FileInfo, abs string, want store.FileStamp) *plannedReader {
	return &plannedReader{r: io.NewSectionReader(file, 0, want.Size), hash: sha256.New(), want: want, abs: abs, mtime: st.ModTime()}
}

func (p *plannedReader) Read(b []byte) (int, error) {
	n, err := p.r.Read(b)
	p.hash.Write(b[:n])
	p.n += int64(n)
	if err == io.EOF {
		now := store.FileStamp{Exists: true, Size: p.n, ModTime: p.mtime, SHA256: hex.EncodeToString(p.hash.Sum(nil))}
		if !now.SameContent(p.want) {
			return n, &store.ConflictError{Path: p.abs, Read: p.want, Now: now, During: "scrub"}
		}
	}
	return n, err
}

// checkPlanned reads a planned file once more: err when its bytes are no
// longer the planned ones (or cannot be read); bad when the scrub would
// break it (verifyScrub's checks); else the stamp of the file scrubbed.
func checkPlanned(file *os.File, st fs.FileInfo, abs string, f *PlanFile) (after store.FileStamp, bad, err error) {
	for i := range f.Edits.Len() {
		if _, length, marker := f.Edits.span(i); length == 0 || strings.ContainsRune(marker, '\n') {
			// Not a plan's edits: checked on a copy of the file.
			data, err := io.ReadAll(newPlannedReader(file, st, abs, f.Current))
			if err != nil {
				return after, nil, err
			}
			return stampEdited(data, &f.Edits), verifyScrub(data, &f.Edits), nil
		}
	}
	edited := sha256.New()
	c := &lineCheck{edits: &f.Edits, ew: newEditWriter(edited, &f.Edits), line: 1}
	c.order = c.ew.order
	if _, err := io.Copy(c, newPlannedReader(file, st, abs, f.Current)); err != nil {
		if errors.Is(err, errEditsOverlap) {
			return after, err, nil
		}
		return after, nil, err
	}
	if bad = c.finish(); bad != nil {
		return after, bad, nil
	}
	after = store.FileStamp{Exists: true, Size: c.ew.n, SHA256: hex.EncodeToString(edited.Sum(nil))}
	// The file as one JSON value (rarely: a JSONL file is not one) must
	// stay one.
	if validJSON(io.NewSectionReader(file, 0, f.Current.Size)) {
		pr, pw := io.Pipe()
		done := make(chan struct{})
		go func() {
			defer close(done)
			ew := newEditWriter(pw, &f.Edits)
			_, err := io.Copy(ew, io.NewSectionReader(file, 0, f.Current.Size))
			if err == nil {
				err = ew.finish()
			}
			pw.CloseWithError(err)
		}()
		ok := validJSON(pr)
		pr.Close()
		<-done
		if !ok {
			return after, errors.New("the file would no longer be valid JSON"), nil
		}
	}
	return after, nil, nil
}

// lineCheck is verifyScrub over a stream (the file's bytes written to it
// in order; edits with no empty span and no line break in a marker): it
// holds the line being read, and checks each line with edits as it will
// be.
type lineCheck struct {
	edits spans
	order []int
	ew    *editWriter
	// k is the first edit not in a line read yet; ls the offset of the
	// line being read, pos of the next byte, line its number; buf holds
	// it.
	k           int
	ls, pos     int64
	line        int
	buf, edited []byte
	// crossing says a span holds a line break; bad is the first line
	// that would no longer be valid JSON.
	crossing bool
	bad      error
}

func (c *lineCheck) Write(p []byte) (int, error) {
	if _, err := c.ew.Write(p); err != nil {
		return 0, err
	}
	total := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			c.buf = append(c.buf, p...)
			c.pos += int64(len(p))
			break
		}
		c.buf = append(c.buf, p[:i]...)
		c.pos += int64(i)
		c.endLine()
		c.pos++
		c.ls, c.line, c.buf, p = c.pos, c.line+1, c.buf[:0], p[i+1:]
	}
	return total, nil
}

// endLine checks the line read (buf, from ls to pos).
func (c *lineCheck) endLine() {
	next, edits := c.ls, 0
	c.edited = c.edited[:0]
	for ; c.k < c.edits.Len(); c.k++ {
		i := c.k
		if c.order != nil {
			i = c.order[i]
		}
		off, length, marker := c.edits.span(i)
		if off >= c.pos {
			break
		}
		if off+int64(length) > c.pos || off < next {
			c.crossing = true
		}
		if c.crossing {
			continue
		}
		c.edited = append(append(c.edited, c.buf[next-c.ls:off-c.ls]...), marker...)
		next, edits = off+int64(length), edits+1
	}
	if edits == 0 || c.crossing || c.bad != nil {
		return
	}
	c.edited = append(c.edited, c.buf[next-c.ls:]...)
	if !bytes.Equal(c.buf, c.edited) && json.Valid(c.buf) && !json.Valid(c.edited) {
		c.bad = fmt.Errorf("line %d would no longer be valid JSON", c.line)
	}
}

// finish checks the last line and says what is wrong, as verifyScrub.
func (c *lineCheck) finish() error {
	c.endLine()
	if err := c.ew.finish(); err != nil {
		return err
	}
	if c.crossing {
		return errors.New("the scrub would change the number of lines")
	}
	return c.bad
}

// validJSON says whether r holds one JSON value (json.Valid, read as a
// stream: a JSONL file stops it at its second line).
func validJSON(r io.Reader) bool {
	dec := json.NewDecoder(r)
	dec.UseNumber()
	depth := 0
	for {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
		if depth == 0 {
			break
		}
	}
	_, err := dec.Token()
	return err == io.EOF
}

// writeScrubbed reads a file once more (it must still be as planned, or
// that and more appended), writes it scrubbed with whatever was appended
// kept (store.ReplaceGrowingFrom: the scrubbed bytes are streamed as the
// file is read), and reads it back: it must start with the bytes after
// stamps.
func writeScrubbed(wfs model.WriteFS, h *model.Home, f *PlanFile, after store.FileStamp) error {
	abs := h.Abs(f.File)
	// The file is open only while the scrubbed copy is staged: the
	// replacement's lease on it is granted only when no descriptor of it
	// is open, memscope's own included.
	write := func(w io.Writer) error {
		file, st, err := openPlanned(h, f)
		if err != nil {
			return err
		}
		defer file.Close()
		bw := bufio.NewWriterSize(w, 1<<20)
		ew := newEditWriter(bw, &f.Edits)
		if _, err := io.Copy(ew, newPlannedReader(file, st, abs, f.Current)); err != nil {
			return err
		}
		if err := ew.finish(); err != nil {
			return err
		}
		return bw.Flush()
	}
	if err := store.ReplaceGrowingFrom(wfs, abs, f.Current, write, f.Mode, f.Current.ModTime); err != nil {
		return err
	}
	got, err := model.OpenRegularFile(abs)
	if err != nil {
		return fmt.Errorf("read back: %w", err)
	}
	defer got.Close()
	hash := sha256.New()
	n, err := io.Copy(hash, io.LimitReader(got, after.Size))
	if err != nil {
		return fmt.Errorf("read back: %w", err)
	}
	if n != after.Size || hex.EncodeToString(hash.Sum(nil)) != after.SHA256 {
		return errors.New("read back: the file does not hold what was written")
	}
	return nil
}

// rollback puts back the files a failed scrub wrote (the first done of
// the copy's, from the copy's saved bytes) and removes its copy; when it
// cannot, the error says that --restore finishes the job.
func rollback(wfs model.WriteFS, h *model.Home, dir, id string, done int, cause error) error {
	if done > 0 {
		m, err := readManifest(h, id, true)
		if err != nil {
			return fmt.Errorf("%w; putting back what was scrubbed failed too (%v): memscope secrets --restore %s puts it back", cause, err, id)
		}
		for _, mf := range m.Files[:done] {
			abs := h.Abs(mf.File)
			after, err := model.ReadRegularFile(abs, maxScrubBytes)
			var before []byte
			if err == nil {
				before, err = unscrub(after, mf.Edits)
			}
			if err == nil {
				err = store.ReplaceGrowing(wfs, abs, after, before, mf.Mode, mf.ModTime)
			}
			if err != nil {
				return fmt.Errorf("%w; putting back %s failed too (%v): memscope secrets --restore %s puts back what was scrubbed", cause, abs, err, id)
			}
		}
	}
	if err := removeCopy(wfs, dir); err != nil {
		return fmt.Errorf("%w; every file is as it was, but the copy %s could not be removed (%v): memscope secrets --forget %s deletes it", cause, dir, err, id)
	}
	return fmt.Errorf("%w (nothing was scrubbed: every file is as it was)", cause)
}

// verifyScrub checks a scrub's result on a copy of the file scrubbed:
// the number of lines does not change, and every line that was valid
// JSON still is. A plan's edits are checked as the file streams
// (lineCheck); this is for others (an empty span, a marker holding a line
// break).
func verifyScrub(before []byte, edits spans) error {
	after := applyEdits(before, edits)
	if bytes.Count(before, []byte("\n")) != bytes.Count(after, []byte("\n")) {
		return errors.New("the scrub would change the number of lines")
	}
	bl, al := bytes.Split(before, []byte("\n")), bytes.Split(after, []byte("\n"))
	for i := range bl {
		if !bytes.Equal(bl[i], al[i]) && json.Valid(bl[i]) && !json.Valid(al[i]) {
			return fmt.Errorf("line %d would no longer be valid JSON", i+1)
		}
	}
	if json.Valid(before) && !json.Valid(after) {
		return errors.New("the file would no longer be valid JSON")
	}
	return nil
}

// copyID names a scrub's copy: its time, and a few hex digits of its plan.
func copyID(now time.Time, fp string) string {
	return now.UTC().Format("20060102-150405") + "-" + fp[:6]
}

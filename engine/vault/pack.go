package vault

import (
	"bufio"
	"bytes"
	"compress/flate"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/memscope/memscope/model"
)

// packHeader starts every pack: the format and the codec of its chunks
// (flate, the standard library's; docs/VAULT.md says why).
const packHeader = "memscope pack 1 flate\n"

// packLimit is the size at which a sync closes its pack and starts the
// next: a sync holds at most one pack in memory.
const packLimit = 32 << 20

// packGrowAt is the pack size past which its buffer grows to packLimit
// at once (packWriter.work).
const packGrowAt = 1 << 20

// maxIndexLine bounds an index line when it is read back.
const maxIndexLine = 1 << 10

// key is a chunk's SHA-256.
type key [sha256.Size]byte

// keyOf parses a chunk's hex hash.
func keyOf(h string) (key, bool) {
	var k key
	if len(h) != 2*sha256.Size {
		return k, false
	}
	if _, err := hex.Decode(k[:], []byte(h)); err != nil {
		return k, false
	}
	return k, true
}

// String is the hex hash.
func (k key) String() string { return hex.EncodeToString(k[:]) }

// loc is where a chunk is stored.
type loc struct {
	pack string
	off  int64
	// stored and raw are the compressed and the chunk's own lengths.
	stored, raw int32
}

// index maps every stored chunk to its place, from the packs' index
// files.
type index struct {
	m map[key]loc
	// packs are the indexed packs and their sizes; orphans are packs
	// without an index file (a sync killed before it wrote one).
	packs   map[string]int64
	orphans []string
	// load, when set, reads the index on first use (a sync that finds
	// nothing new never reads it).
	load func() (*index, error)
	err  error
}

// ready reads a lazy index; false when it cannot be read (ix.err).
func (ix *index) ready() bool {
	if ix.load != nil {
		full, err := ix.load()
		ix.load = nil
		if err != nil {
			ix.err = err
			return false
		}
		ix.m, ix.packs, ix.orphans = full.m, full.packs, full.orphans
	}
	return ix.err == nil
}

// loadIndex reads every pack index of the vault.
func (v *Vault) loadIndex() (*index, error) {
	ix := &index{m: map[key]loc{}, packs: map[string]int64{}}
	ents, err := fs.ReadDir(v.root, v.name(packsDir))
	if errors.Is(err, fs.ErrNotExist) {
		return ix, nil
	}
	if err != nil {
		return nil, fmt.Errorf("vault %s: %w", v.Dir, err)
	}
	idx := map[string]bool{}
	packs := map[string]int64{}
	for _, e := range ents {
		n := e.Name()
		if strings.HasPrefix(n, ".") || !e.Type().IsRegular() {
			continue
		}
		switch {
		case strings.HasSuffix(n, ".idx"):
			idx[strings.TrimSuffix(n, ".idx")] = true
		case strings.HasSuffix(n, ".pack"):
			info, err := e.Info()
			if err != nil {
				return nil, fmt.Errorf("vault %s: %w", v.Dir, err)
			}
			packs[strings.TrimSuffix(n, ".pack")] = info.Size()
		}
	}
	names := make([]string, 0, len(packs))
	for p := range packs {
		names = append(names, p)
	}
	sort.Strings(names)
	for _, p := range names {
		if !idx[p] {
			ix.orphans = append(ix.orphans, path.Join(packsDir, p+".pack"))
			continue
		}
		ix.packs[p] = packs[p]
		if err := v.readIndexFile(p, packs[p], ix); err != nil {
			return nil, err
		}
	}
	return ix, nil
}

// readIndexFile reads the index of pack p (size bytes) into ix.
func (v *Vault) readIndexFile(p string, size int64, ix *index) error {
	rel := path.Join(packsDir, p+".idx")
	f, err := model.OpenRegular(v.root, v.name(rel))
	if err != nil {
		return fmt.Errorf("vault %s: %w", v.Dir, err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 4<<10), maxIndexLine)
	line := 0
	for sc.Scan() {
		line++
		k, l, err := parseIndexBytes(sc.Bytes())
		if err == nil && (l.off < int64(len(packHeader)) || l.off+int64(l.stored) > size) {
			err = fmt.Errorf("chunk at %d+%d is past the pack's end (%d bytes)", l.off, l.stored, size)
		}
		if err != nil {
			return fmt.Errorf("vault %s line %d: %w", filepath.Join(v.Dir, rel), line, err)
		}
		l.pack = p
		if _, ok := ix.m[k]; !ok {
			ix.m[k] = l
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("vault %s line %d: %w", filepath.Join(v.Dir, rel), line+1, err)
	}
	return nil
}

// parseIndexBytes is parseIndexLine without its copies: a sync that
// stores anything reads every pack's index, a line per chunk, so the
// form the vault writes (a hash, three numbers, one space between) is
// read in place; any other form goes to parseIndexLine, which gives the
// same value or the error.
func parseIndexBytes(b []byte) (key, loc, error) {
	var k key
	if len(b) > 2*sha256.Size && b[2*sha256.Size] == ' ' {
		if _, err := hex.Decode(k[:], b[:2*sha256.Size]); err == nil {
			rest := b[2*sha256.Size+1:]
			var n [3]int64
			ok := true
			for i := range n {
				j := 0
				for j < len(rest) && rest[j] >= '0' && rest[j] <= '9' && j < 18 {
					n[i] = n[i]*10 + int64(rest[j]-'0')
					j++
				}
				ok = ok && j > 0 && (i > 0 || j < 18) && (i == 0 || n[i] <= maxChunk*2)
				if i < 2 {
					ok = ok && j < len(rest) && rest[j] == ' '
					j++
				} else {
					ok = ok && j == len(rest)
				}
				if !ok {
					break
				}
				rest = rest[j:]
			}
			if ok {
				return k, loc{off: n[0], stored: int32(n[1]), raw: int32(n[2])}, nil
			}
		}
	}
	return parseIndexLine(string(b))
}

// parseIndexLine reads "hash offset stored raw".
func parseIndexLine(s string) (key, loc, error) {
	f := strings.Fields(s)
	if len(f) != 4 {
		return key{}, loc{}, fmt.Errorf("want 4 fields (hash offset stored raw), have %d", len(f))
	}
	k, ok := keyOf(f[0])
	if !ok {
		return key{}, loc{}, fmt.Errorf("%q is not a SHA-256", f[0])
	}
	var n [3]int64
	for i := range n {
		x, err := strconv.ParseInt(f[i+1], 10, 64)
		if err != nil || x < 0 || i > 0 && x > maxChunk*2 {
			return key{}, loc{}, fmt.Errorf("field %d: %q is not a length", i+2, f[i+1])
		}
		n[i] = x
	}
	return k, loc{off: n[0], stored: int32(n[1]), raw: int32(n[2])}, nil
}

// packWriter gathers new chunks into a pack in memory and writes it,
// with its index, when it is full or the sync ends. Chunks are
// compressed by a pool of workers (one per CPU), so a first sync's
// compression, most of its cost, runs on every core.
type packWriter struct {
	v   *Vault
	ix  *index
	now func() time.Time

	mu    sync.Mutex
	buf   bytes.Buffer
	lines bytes.Buffer
	// pending are the chunks handed to the workers or in buf, not yet
	// in a written pack; a chunk's loc is set once it is in buf.
	pending map[key]loc
	jobs    chan packJob
	wg      sync.WaitGroup // chunks being compressed
	workers sync.WaitGroup
	err     error
	// written counts the bytes of packs written.
	written int64
	chunks  int
}

// packJob is one chunk to compress.
type packJob struct {
	k    key
	data []byte
}

func newPackWriter(v *Vault, ix *index, now func() time.Time) *packWriter {
	p := &packWriter{v: v, ix: ix, now: now, pending: map[key]loc{}}
	n := max(runtime.GOMAXPROCS(0), 1)
	p.jobs = make(chan packJob, 2*n)
	for range n {
		p.workers.Add(1)
		go p.work()
	}
	return p
}

// work compresses chunks and appends them to the pack.
func (p *packWriter) work() {
	defer p.workers.Done()
	fw, _ := flate.NewWriter(nil, flate.BestSpeed)
	var out bytes.Buffer
	for j := range p.jobs {
		out.Reset()
		fw.Reset(&out)
		_, err := fw.Write(j.data)
		if err == nil {
			err = fw.Close()
		}
		p.mu.Lock()
		if err != nil && p.err == nil {
			p.err = err
		}
		if p.buf.Len() == 0 {
			p.buf.WriteString(packHeader)
		}
		if p.buf.Cap() < packLimit && p.buf.Len()+out.Len() > packGrowAt {
			// A pack this big is a large sync's: one allocation for the
			// whole pack instead of a copy at each doubling. Not sooner:
			// Grow clears the whole buffer (a page fault for each of its
			// pages wherever the heap reuses memory), 34 MiB for a sync
			// that may store a few chunks.
			p.buf.Grow(packLimit + 2*maxChunk - p.buf.Len())
		}
		l := loc{off: int64(p.buf.Len()), stored: int32(out.Len()), raw: int32(len(j.data))}
		p.buf.Write(out.Bytes())
		p.pending[j.k] = l
		fmt.Fprintf(&p.lines, "%s %d %d %d\n", j.k, l.off, l.stored, l.raw)
		p.mu.Unlock()
		p.wg.Done()
	}
}

// close stops the workers (after a flush, or on an error).
func (p *packWriter) close() {
	close(p.jobs)
	p.workers.Wait()
}

// has reports whether the chunk k is stored or pending.
func (p *packWriter) has(k key) bool {
	if !p.ix.ready() {
		return false
	}
	if _, ok := p.ix.m[k]; ok {
		return true
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	_, ok := p.pending[k]
	return ok
}

// add stores the chunk data (hash k) unless it is there already; data
// is copied.
func (p *packWriter) add(k key, data []byte) error {
	if p.has(k) {
		return nil
	}
	p.mu.Lock()
	p.pending[k] = loc{stored: -1}
	full := p.buf.Len() >= packLimit
	p.mu.Unlock()
	p.wg.Add(1)
	p.jobs <- packJob{k: k, data: bytes.Clone(data)}
	if full {
		return p.flush()
	}
	return nil
}

// flush waits for the chunks being compressed, then writes the pending
// pack and then its index, both synced; only then are its chunks in the
// index.
func (p *packWriter) flush() error {
	p.wg.Wait()
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.err != nil {
		return p.err
	}
	if len(p.pending) == 0 {
		// Nothing new: a sync that stored nothing never reads the index.
		return nil
	}
	if !p.ix.ready() {
		return p.ix.err
	}
	var rnd [4]byte
	_, _ = rand.Read(rnd[:])
	name := fmt.Sprintf("%d-%x", p.now().UnixMilli(), rnd)
	base := filepath.Join(p.v.Dir, packsDir, name)
	if err := model.CreateFileAtomicWith(p.v.w, base+".pack", 0o600, time.Time{}, func(w io.Writer) error {
		_, err := w.Write(p.buf.Bytes())
		return err
	}); err != nil {
		return fmt.Errorf("vault: %w", err)
	}
	if err := model.CreateFileAtomicWith(p.v.w, base+".idx", 0o600, time.Time{}, func(w io.Writer) error {
		_, err := w.Write(p.lines.Bytes())
		return err
	}); err != nil {
		return fmt.Errorf("vault: %w", err)
	}
	for k, l := range p.pending {
		l.pack = name
		p.ix.m[k] = l
	}
	p.ix.packs[name] = int64(p.buf.Len())
	p.written += int64(p.buf.Len())
	p.chunks += len(p.pending)
	p.pending = map[key]loc{}
	p.buf.Reset()
	p.lines.Reset()
	return nil
}

// chunkReader reads stored chunks back, keeping packs open.
type chunkReader struct {
	v     *Vault
	ix    *index
	open  map[string]fs.File
	fr    io.ReadCloser
	raw   []byte
	store []byte
}

func newChunkReader(v *Vault, ix *index) *chunkReader {
	return &chunkReader{v: v, ix: ix, open: map[string]fs.File{}}
}

// close closes the open packs.
func (r *chunkReader) close() {
	for _, f := range r.open {
		f.Close()
	}
	r.open = map[string]fs.File{}
}

// ErrMissingChunk is a chunk a record names that no pack holds.
var ErrMissingChunk = errors.New("chunk not in any pack")

// read returns chunk k's bytes, checked against its hash. The slice is
// reused by the next call.
func (r *chunkReader) read(k key) ([]byte, error) {
	l, ok := r.ix.m[k]
	if !ok {
		return nil, fmt.Errorf("%s: %w", k, ErrMissingChunk)
	}
	f, ok := r.open[l.pack]
	if !ok {
		var err error
		f, err = model.OpenRegular(r.v.root, r.v.name(path.Join(packsDir, l.pack+".pack")))
		if err != nil {
			return nil, fmt.Errorf("vault: %w", err)
		}
		r.open[l.pack] = f
	}
	ra, ok := f.(io.ReaderAt)
	if !ok {
		return nil, fmt.Errorf("vault: pack %s cannot be read at an offset", l.pack)
	}
	// The buffers grow by doubling at least: a reader of many chunks
	// of growing sizes allocates about twice the largest, not each size.
	if cap(r.store) < int(l.stored) {
		r.store = make([]byte, l.stored, max(int(l.stored), 2*cap(r.store)))
	}
	r.store = r.store[:l.stored]
	if _, err := ra.ReadAt(r.store, l.off); err != nil {
		return nil, fmt.Errorf("vault: pack %s at %d: %w", l.pack, l.off, err)
	}
	if r.fr == nil {
		r.fr = flate.NewReader(bytes.NewReader(r.store))
	} else {
		r.fr.(flate.Resetter).Reset(bytes.NewReader(r.store), nil)
	}
	if cap(r.raw) < int(l.raw) {
		r.raw = make([]byte, l.raw, max(int(l.raw), 2*cap(r.raw)))
	}
	r.raw = r.raw[:l.raw]
	if _, err := io.ReadFull(r.fr, r.raw); err != nil {
		return nil, fmt.Errorf("vault: pack %s at %d: chunk %s: %w", l.pack, l.off, k, err)
	}
	if sha256.Sum256(r.raw) != k {
		return nil, fmt.Errorf("vault: pack %s at %d: chunk %s does not hash to its name (corrupt)", l.pack, l.off, k)
	}
	return r.raw, nil
}

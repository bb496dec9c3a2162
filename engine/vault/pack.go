package vault

import (
	"bufio"
	"bytes"
	"compress/flate"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/klauspost/compress/s2"
	"github.com/klauspost/compress/zstd"
	"github.com/minio/minlz"

	"github.com/memscope/memscope/model"
)

// A pack starts with a line naming its format and the codec of its
// chunks. Packs written now (format 4) are frames of MinLZ (minio/minlz,
// its fastest level), each frame the chunks a sync stored one after
// another up to frameTarget bytes: compressing a few MB of a home's
// chunks together stores less than zstd's fastest level on each chunk
// alone, at twice its speed (docs/VAULT.md, "i31v"); a chunk is read by
// decoding its frame. MinLZ, s2's successor by its author, stores the
// frames in about 8 % fewer bytes than s2 and at a few per cent less of
// a first sync's CPU (docs/VAULT.md, "i31v6"); packs of format 3 (s2
// frames, klauspost/compress), 2 (zstd, a chunk alone) and 1 (flate, the
// standard library's) are read as before, and a vault whose chunks are
// named by SHA-256 (vault formats 1-3) keeps writing s2 frames (a
// memscope of vault format 3 reads its packs).
const (
	packHeaderFlate = "memscope pack 1 flate\n"
	packHeaderZstd  = "memscope pack 2 zstd\n"
	packHeaderS2    = "memscope pack 3 s2 frames\n"
	packHeaderMinLZ = "memscope pack 4 minlz frames\n"
	// minPackHeader is the shortest header: no chunk starts before it,
	// and the headers differ within it.
	minPackHeader = len(packHeaderZstd)
)

// frameTarget: a pack of format 3 closes a frame once it holds this many
// bytes of chunks (the last frame of a sync holds what is left), so a
// frame holds less than frameTarget + maxChunk bytes; maxFrame bounds a
// frame when it is read back. 4 MiB: 1 MiB frames store a fifth more
// (docs/VAULT.md), and a chunk read alone decodes at most one frame.
// (frameTarget is a variable: a test lowers it.)
var frameTarget = 4 << 20

const maxFrame = 8 << 20

// codec is a pack's chunk compression.
type codec uint8

const (
	codecFlate codec = iota + 1
	codecZstd
	codecS2
	codecMinLZ
)

// writeCodec is the codec new packs are written with (codecS2 in a
// vault that names its chunks by SHA-256: packCodec); a test sets it to
// codecFlate, codecZstd or codecS2 to write a vault as an older format
// did.
var writeCodec = codecMinLZ

// packCodec is the codec v's new packs are written with: writeCodec,
// but s2 frames where MinLZ's are not the vault's format (formats 1-3:
// a memscope of format 3 reads the packs of such a vault).
func (v *Vault) packCodec() codec {
	if writeCodec == codecMinLZ && !v.minlz {
		return codecS2
	}
	return writeCodec
}

// header is the first line of a pack written with c.
func (c codec) header() string {
	switch c {
	case codecFlate:
		return packHeaderFlate
	case codecZstd:
		return packHeaderZstd
	case codecMinLZ:
		return packHeaderMinLZ
	}
	return packHeaderS2
}

// framed reports whether c's packs hold frames of several chunks.
func (c codec) framed() bool { return c == codecS2 || c == codecMinLZ }

// codecOf reads a pack's codec from its first bytes.
func codecOf(head []byte) (codec, error) {
	switch {
	case bytes.HasPrefix(head, []byte(packHeaderZstd)):
		return codecZstd, nil
	case bytes.HasPrefix(head, []byte(packHeaderFlate[:minPackHeader])):
		return codecFlate, nil
	case bytes.HasPrefix(head, []byte(packHeaderS2[:minPackHeader])):
		return codecS2, nil
	case bytes.HasPrefix(head, []byte(packHeaderMinLZ[:minPackHeader])):
		return codecMinLZ, nil
	}
	line := head
	if i := bytes.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	return 0, fmt.Errorf("not a pack this memscope reads (its first line is %q)", line)
}

// packLimit is the size at which a sync closes its pack and starts the
// next: a sync holds at most three packs in memory (packWrites being
// written, one filling). The last pack of a sync is written and synced after the
// home is read, while nothing else is left to do: 8 MiB (it was 32 MiB,
// and a first sync's last pack took 60-80 ms to write and sync on the
// bench machine; the packs before it are written while the sync goes
// on). A test lowers it to write many packs.
var packLimit = 8 << 20

// packWrites is how many full packs a sync writes at once. With one, a
// pack's write and fsync that took longer than the next pack took to
// fill (10-160 ms on the bench machine, its disk shared) stopped every
// worker of the sync, both cores idle, until it ended; with two the next
// full pack is written beside it.
const packWrites = 2

// maxIndexLine bounds an index line when it is read back.
const maxIndexLine = 1 << 10

// maxIndexFile bounds an index file when it is read back (a full pack's
// is under 1 MB: 32 MiB of chunks of a few KiB at least).
const maxIndexFile = 256 << 20

// key is a chunk's name: its SHA-256 or its BLAKE3 (chunkHash).
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
	// A framed chunk (format 3) is raw bytes at at in the frame that
	// starts at off and is stored bytes long.
	stored, raw int32
	at          int32
	framed      bool
}

// frameID names a chunk's frame (or the chunk, unframed).
type frameID struct {
	pack string
	off  int64
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
	// nothing new never reads it); once guards it, so a prefetch and a
	// first use read it once.
	load    func() (*index, error)
	once    sync.Once
	started atomic.Bool
	err     error
}

// ready reads a lazy index (or waits for its prefetch); false when it
// cannot be read (ix.err).
func (ix *index) ready() bool {
	ix.once.Do(func() {
		if ix.load == nil {
			return
		}
		full, err := ix.load()
		if err != nil {
			ix.err = err
			return
		}
		ix.m, ix.packs, ix.orphans = full.m, full.packs, full.orphans
	})
	return ix.err == nil
}

// prefetch starts reading a lazy index in the background: a sync that
// is about to cut a file will look its chunks up, and the index is read
// while the file is.
func (ix *index) prefetch() {
	if ix.load != nil && ix.started.CompareAndSwap(false, true) {
		go ix.ready()
	}
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
	var idxBytes int64
	for _, e := range ents {
		n := e.Name()
		if strings.HasPrefix(n, ".") || !e.Type().IsRegular() {
			continue
		}
		switch {
		case strings.HasSuffix(n, ".idx"):
			idx[strings.TrimSuffix(n, ".idx")] = true
			if info, err := e.Info(); err == nil {
				idxBytes += info.Size()
			}
		case strings.HasSuffix(n, ".pack"):
			info, err := e.Info()
			if err != nil {
				return nil, fmt.Errorf("vault %s: %w", v.Dir, err)
			}
			packs[strings.TrimSuffix(n, ".pack")] = info.Size()
		}
	}
	// The map is made at the size the index files say (a line is about
	// 90 bytes), not grown and rehashed line by line.
	ix.m = make(map[key]loc, min(idxBytes/80, 1<<24))
	names := make([]string, 0, len(packs))
	for p := range packs {
		names = append(names, p)
	}
	sort.Strings(names)
	var read []string
	for _, p := range names {
		if !idx[p] {
			ix.orphans = append(ix.orphans, path.Join(packsDir, p+".pack"))
			continue
		}
		ix.packs[p] = packs[p]
		read = append(read, p)
	}
	// The index files are read and parsed on every CPU, then entered in
	// the packs' order (the first pack holding a chunk names it).
	lines := make([][]indexEntry, len(read))
	errs := make([]error, len(read))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(max(runtime.GOMAXPROCS(0), 1), len(read)) {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < len(read); i = int(next.Add(1) - 1) {
				lines[i], errs[i] = v.readIndexFile(read[i], packs[read[i]])
			}
		})
	}
	wg.Wait()
	for i, p := range read {
		if errs[i] != nil {
			return nil, errs[i]
		}
		for _, e := range lines[i] {
			if _, ok := ix.m[e.k]; !ok {
				e.l.pack = p
				ix.m[e.k] = e.l
			}
		}
	}
	return ix, nil
}

// indexEntry is an index line, read.
type indexEntry struct {
	k key
	l loc
}

// readIndexFile reads the index of pack p (size bytes).
func (v *Vault) readIndexFile(p string, size int64) ([]indexEntry, error) {
	rel := path.Join(packsDir, p+".idx")
	data, err := model.ReadFileBounded(v.root, v.name(rel), maxIndexFile)
	if err != nil {
		return nil, fmt.Errorf("vault %s: %w", v.Dir, err)
	}
	out := make([]indexEntry, 0, len(data)/80)
	for line := 1; len(data) > 0; line++ {
		b, rest, _ := bytes.Cut(data, []byte{'\n'})
		data = rest
		if len(b) > maxIndexLine {
			return nil, fmt.Errorf("vault %s line %d: %w", filepath.Join(v.Dir, rel), line, bufio.ErrTooLong)
		}
		k, l, err := parseIndexBytes(b)
		if err == nil && (l.off < int64(minPackHeader) || l.off+int64(l.stored) > size) {
			err = fmt.Errorf("chunk at %d+%d is past the pack's end (%d bytes)", l.off, l.stored, size)
		}
		if err == nil && l.framed && int64(l.at)+int64(l.raw) > maxFrame {
			err = fmt.Errorf("chunk at %d+%d of its frame is past a frame's bound (%d bytes)", l.at, l.raw, maxFrame)
		}
		if err != nil {
			return nil, fmt.Errorf("vault %s line %d: %w", filepath.Join(v.Dir, rel), line, err)
		}
		out = append(out, indexEntry{k, l})
	}
	return out, nil
}

// parseIndexBytes is parseIndexLine without its copies: a sync that
// stores anything reads every pack's index, a line per chunk, so the
// form the vault writes (a hash, three or four numbers, one space
// between) is read in place; any other form goes to parseIndexLine,
// which gives the same value or the error.
func parseIndexBytes(b []byte) (key, loc, error) {
	var k key
	if len(b) > 2*sha256.Size && b[2*sha256.Size] == ' ' {
		if _, err := hex.Decode(k[:], b[:2*sha256.Size]); err == nil {
			rest := b[2*sha256.Size+1:]
			var n [4]int64
			ok, fields := true, 0
			for i := range n {
				j := 0
				for j < len(rest) && rest[j] >= '0' && rest[j] <= '9' && j < 18 {
					n[i] = n[i]*10 + int64(rest[j]-'0')
					j++
				}
				ok = ok && j > 0 && (i > 0 || j < 18)
				fields = i + 1
				if !ok || j == len(rest) {
					rest = rest[j:]
					break
				}
				ok = rest[j] == ' ' && i < 3
				rest = rest[j+1:]
			}
			if ok && len(rest) == 0 && fields >= 3 {
				if l, err := indexLoc(n[:fields]); err == nil {
					return k, l, nil
				}
			}
		}
	}
	return parseIndexLine(string(b))
}

// parseIndexLine reads "hash offset stored raw" (a chunk alone) or
// "hash offset stored raw at" (a chunk in a frame, format 3).
func parseIndexLine(s string) (key, loc, error) {
	f := strings.Fields(s)
	if len(f) != 4 && len(f) != 5 {
		return key{}, loc{}, fmt.Errorf("want 4 or 5 fields (hash offset stored raw [at]), have %d", len(f))
	}
	k, ok := keyOf(f[0])
	if !ok {
		return key{}, loc{}, fmt.Errorf("%q is not a SHA-256", f[0])
	}
	n := make([]int64, len(f)-1)
	for i := range n {
		x, err := strconv.ParseInt(f[i+1], 10, 64)
		if err != nil || x < 0 {
			return key{}, loc{}, fmt.Errorf("field %d: %q is not a length", i+2, f[i+1])
		}
		n[i] = x
	}
	l, err := indexLoc(n)
	return k, l, err
}

// indexLoc is the place an index line's numbers give (offset, stored,
// raw, and at for a framed chunk), each length within its bound: a
// chunk's raw length maxChunk's (twice, as stored), a frame's maxFrame's.
func indexLoc(n []int64) (loc, error) {
	l := loc{off: n[0], framed: len(n) == 4}
	bound := [3]int64{-1, maxChunk * 2, maxChunk * 2}
	if l.framed {
		bound[1] = maxFrame * 2
		l.at = int32(min(n[3], maxFrame+1))
		if n[3] > maxFrame {
			return loc{}, fmt.Errorf("field 5: %d is past a frame's bound", n[3])
		}
	}
	for i := 1; i < 3; i++ {
		if n[i] > bound[i] {
			return loc{}, fmt.Errorf("field %d: %d is not a length", i+2, n[i])
		}
	}
	l.stored, l.raw = int32(n[1]), int32(n[2])
	return l, nil
}

// packWriter gathers new chunks into a pack in memory and writes it,
// with its index, when it is full or the sync ends. Chunks are
// compressed by a pool of workers (one per CPU), so a first sync's
// compression, most of its cost, runs on every core.
type packWriter struct {
	v   *Vault
	ix  *index
	now func() time.Time
	// codec compresses this writer's packs (writeCodec when it began).
	codec codec

	// gate is held shared while a chunk is added and exclusively while a
	// pack is written (several files are synced at once).
	gate sync.RWMutex
	mu   sync.Mutex
	// sealing: one full pack is sealed at a time (flushFull); sealers
	// are the seals a compressor started when its frame filled the pack,
	// sealPending says one is on its way.
	sealing     sync.Mutex
	sealers     sync.WaitGroup
	sealPending atomic.Bool
	// stream is the pack being filled, written to its temporary file
	// part by part as they come (its header, then each compressed chunk
	// or frame), size their length: a sync that stores a few chunks
	// holds a few chunks, not a buffer the size of a full pack, and a
	// sealed pack has little left to write and sync.
	stream *packStream
	size   int
	lines  bytes.Buffer
	// pending are the chunks handed to the workers or in buf, not yet
	// in a written pack; a chunk's loc is set once it is in buf.
	pending map[key]loc
	// sealed are the packs being written (flushFull, flush), their
	// chunks found by add until they are in the index; writing are
	// those writes, writeSlots holds a place for each of flushFull's
	// (packWrites at most).
	sealed     []*sealedPack
	writing    sync.WaitGroup
	writeSlots chan struct{}
	jobs       chan packJob
	wg         sync.WaitGroup // chunks being compressed
	workers    sync.WaitGroup
	err        error
	// frame is the frame being filled (framed codecs): its chunks' bytes,
	// one after another, in a buffer of chunkBufs, and where each is;
	// fmu guards them.
	fmu     sync.Mutex
	frame   *[]byte
	members []frameMember
	// parked are the sync workers' frames left partly filled when their
	// workers ended (frameFill), under fmu.
	parked []*frameFill
	// written counts the bytes of packs written.
	written int64
	chunks  int
	// frameBufs and partBufs keep the frames' buffers once compressed
	// and the compressed frames' once written to their pack's file, for the
	// next frames: a first sync fills and compresses a hundred frames of
	// 4 MiB, and allocated each (the frames' from a sync.Pool, emptied at
	// every collection) and a copy of each compressed (bytes.Clone):
	// half the sync's allocated bytes, and pages the kernel faulted in
	// and cleared, a few per cent of its CPU (docs/VAULT.md, "i31v2").
	frameBufs, partBufs bufList
	// lineBufs keep the index lines' buffers of the packs written.
	lineBufs bufList
}

// bufList is a packWriter's free buffers (at most max). Safe for
// concurrent use.
type bufList struct {
	mu   sync.Mutex
	bufs [][]byte
	max  int
}

// get is an empty buffer with room for n bytes: the last put back that
// has the room, else a new one with room for n and slack more (and the
// last put back is dropped, so the list does not keep buffers too small
// for what is asked). Before, the last put back was taken, and dropped
// when too small: a small frame's part taken by a full frame's.
func (l *bufList) get(n, slack int) []byte {
	l.mu.Lock()
	var b []byte
	if k := len(l.bufs); k > 0 {
		i := k - 1
		for j := k - 1; j >= 0; j-- {
			if cap(l.bufs[j]) >= n {
				i = j
				break
			}
		}
		b = l.bufs[i]
		l.bufs[i] = l.bufs[k-1]
		l.bufs[k-1] = nil
		l.bufs = l.bufs[:k-1]
	}
	l.mu.Unlock()
	if cap(b) < n {
		b = make([]byte, 0, n+slack)
	}
	return b[:0]
}

// put gives b back for a later get (dropped when max are kept).
func (l *bufList) put(b []byte) {
	l.mu.Lock()
	if len(l.bufs) < l.max {
		l.bufs = append(l.bufs, b)
	}
	l.mu.Unlock()
}

// packJob is one chunk, or a frame of chunks, to compress: a copy of
// its bytes in a buffer of chunkBufs, which the worker puts back once it
// is compressed; members are a frame's chunks (nil: one chunk, k).
type packJob struct {
	k       key
	buf     *[]byte
	members []frameMember
	// keep: the sender keeps the buffer (flush's halves of a frame).
	keep bool
}

// frameMember is a chunk in a frame: its hash, and where its bytes are
// in the frame's.
type frameMember struct {
	k       key
	at, raw int32
}

// chunkBufs holds the buffers chunks are copied into for the workers:
// a first sync hands hundreds of MB of chunks over, which a new buffer
// each (bytes.Clone) allocated and cleared again.
var chunkBufs sync.Pool

// chunkCopy is data copied into a buffer of chunkBufs.
func chunkCopy(data []byte) *[]byte {
	b, _ := chunkBufs.Get().(*[]byte)
	if b == nil {
		b = new([]byte)
	}
	*b = append((*b)[:0], data...)
	return b
}

func newPackWriter(v *Vault, ix *index, now func() time.Time) *packWriter {
	p := &packWriter{v: v, ix: ix, now: now, pending: map[key]loc{}, codec: v.packCodec(),
		writeSlots: make(chan struct{}, packWrites)}
	n := max(runtime.GOMAXPROCS(0), 1)
	// Frames: one for each sync worker (packWriter.fill: n, the workers
	// shared by a sync's early and later files, syncer.workers), which
	// compresses it itself once full and fills it again (compressFill),
	// and add's, a parked one or flush's halves at the compressors; more
	// are kept (3n + 1, from when a full frame was queued for the
	// compressors and its worker took a new one), dropped past that.
	// Parts: the packs' worth a sync holds (packWrites being written,
	// one filling) of frames stored in about a quarter of their bytes, at
	// most (a part is written by the goroutine that compressed it,
	// packStream.pump: a first sync of the bench home makes 2-3).
	p.frameBufs.max = 3*n + 1
	p.lineBufs.max = packWrites + 1
	p.partBufs.max = (packWrites + 1) * (packLimit/max(p.frameTarget()/4, 1) + 1)
	// A frame is a few MB and keeps a worker busy for ms: one waiting a
	// worker is enough (a chunk alone, two).
	queue := 2 * n
	if p.codec.framed() {
		queue = n
	}
	p.jobs = make(chan packJob, queue)
	for range n {
		p.workers.Add(1)
		go p.work()
	}
	return p
}

// compressHook, when set, is called by a compressor before each job: a
// test's seam.
var compressHook func()

// work compresses the chunks and frames handed to the workers and
// appends them to the pack.
func (p *packWriter) work() {
	defer p.workers.Done()
	var c compressor
	for j := range p.jobs {
		p.compress(&c, j, !j.keep)
	}
}

// compressor is the state of one goroutine that compresses: a worker's,
// or a sync worker's that compresses the frames it fills (frameFill).
// Its flate and zstd encoders are made on first use (a pack of frames
// uses neither).
type compressor struct {
	fw        *flate.Writer
	zw        *zstd.Encoder
	out       bytes.Buffer
	dst, line []byte
}

// compress compresses j (p.wg counts it; compress says Done) and appends
// it to the pack, then seals the pack when it is full. giveBack: j's
// buffer is put back for the next (frameBufs, chunkBufs) once
// compressed; else the caller keeps it.
func (p *packWriter) compress(cs *compressor, j packJob, giveBack bool) {
	defer p.wg.Done()
	if compressHook != nil {
		compressHook()
	}
	c := p.codec
	var err error
	var part, dst []byte
	data := *j.buf
	switch {
	case c.framed():
		// A frame is compressed straight into its part (a buffer
		// of partBufs with room for the frame's bound), not into
		// dst and then copied.
		n := minlz.MaxEncodedLen(len(data))
		if c == codecS2 {
			n = s2.MaxEncodedLen(len(data))
		}
		dst, err = encodeFrame(c, p.partBufs.get(n, n/8), data)
		part = dst
	case c == codecZstd:
		if cs.zw == nil {
			cs.zw = newZstdEncoder()
		}
		cs.dst = cs.zw.EncodeAll(data, cs.dst[:0])
		dst = cs.dst
	default:
		if cs.fw == nil {
			cs.fw, _ = flate.NewWriter(nil, flate.BestSpeed)
		}
		cs.out.Reset()
		cs.fw.Reset(&cs.out)
		_, err = cs.fw.Write(data)
		if err == nil {
			err = cs.fw.Close()
		}
		dst = cs.out.Bytes()
	}
	raw := len(data)
	if giveBack {
		if j.members != nil {
			p.frameBufs.put(data)
		} else {
			chunkBufs.Put(j.buf)
		}
	}
	if part == nil {
		part = append(p.partBufs.get(len(dst), len(dst)/4), dst...)
	}
	p.mu.Lock()
	if err != nil && p.err == nil {
		p.err = err
	}
	if p.err == nil && p.stream == nil {
		p.stream = p.startStream()
		p.stream.push([]byte(c.header()))
		p.size = len(c.header())
	}
	l := loc{off: int64(p.size), stored: int32(len(dst)), raw: int32(raw)}
	st := p.stream
	if st != nil {
		st.push(part)
	}
	p.size += len(dst)
	if j.members == nil {
		p.pending[j.k] = l
		cs.line = indexLine(cs.line[:0], j.k, l)
		p.lines.Write(cs.line)
	}
	for _, m := range j.members {
		ml := loc{off: l.off, stored: l.stored, raw: m.raw, at: m.at, framed: true}
		p.pending[m.k] = ml
		cs.line = indexLine(cs.line[:0], m.k, ml)
		p.lines.Write(cs.line)
	}
	full := p.size >= packLimit && p.err == nil
	p.mu.Unlock()
	if st != nil {
		st.pump()
	}
	if full && p.sealPending.CompareAndSwap(false, true) {
		// The pack is full: it is sealed and written now, not at
		// the next chunk added (the sync's last chunks may all be
		// added before their frames are compressed, and the last
		// pack, written once the home is read, would hold them all).
		p.sealers.Add(1)
		go func() {
			defer p.sealers.Done()
			defer p.sealPending.Store(false)
			_ = p.flushFull() // its error is p.err: the next add or flush returns it
		}()
	}
}

// indexLine appends k's index line for l to b: "hash offset stored raw",
// and " at" for a chunk in a frame.
func indexLine(b []byte, k key, l loc) []byte {
	b = hex.AppendEncode(b, k[:])
	for _, n := range []int64{l.off, int64(l.stored), int64(l.raw)} {
		b = strconv.AppendInt(append(b, ' '), n, 10)
	}
	if l.framed {
		b = strconv.AppendInt(append(b, ' '), int64(l.at), 10)
	}
	return append(b, '\n')
}

// close stops the workers (after a flush, or on an error) and waits
// for a pack being written.
func (p *packWriter) close() {
	close(p.jobs)
	p.workers.Wait()
	p.sealers.Wait()
	p.writing.Wait()
	p.mu.Lock()
	s := p.stream
	p.stream = nil
	p.mu.Unlock()
	if s != nil {
		s.abort() // an error stopped the sync before the pack was sealed
	}
}

// add stores the chunk data (hash k) unless it is there already, and
// says whether it was new; data is copied. Safe from several
// goroutines: the look-up and the claim of a new chunk are one step, so
// two files that hold the same chunk store it once.
func (p *packWriter) add(k key, data []byte) (bool, error) {
	p.gate.RLock()
	fresh, full, err := p.claim(k)
	if !fresh {
		p.gate.RUnlock()
		return false, err
	}
	job := packJob{k: k}
	if p.codec.framed() {
		// The chunk joins the frame being filled, which goes to the
		// workers once it holds frameTarget bytes. It is copied under
		// fmu, not mu: the other workers' look-ups do not wait for the
		// copy (of up to 1 MiB).
		p.fmu.Lock()
		target := p.frameTarget()
		if p.frame == nil {
			b := p.frameBufs.get(target+softMax, 0)
			p.frame = &b
		}
		p.members = append(p.members, frameMember{k: k, at: int32(len(*p.frame)), raw: int32(len(data))})
		*p.frame = append(*p.frame, data...)
		if len(*p.frame) >= target {
			job = p.takeFrame()
		} else {
			job.buf = nil
		}
		p.fmu.Unlock()
	} else {
		job.buf = chunkCopy(data)
	}
	if job.buf != nil {
		p.wg.Add(1)
		p.jobs <- job
	}
	p.gate.RUnlock()
	if full {
		return true, p.flushFull()
	}
	return true, nil
}

// claim looks k up and, when no pack holds it or is being written
// with it, claims it for the caller to store (fresh): the look-up and
// the claim are one step under mu. full says the pack being filled is
// full; err is the index's or a background pack write's (the sync
// stops). The caller holds gate shared.
func (p *packWriter) claim(k key) (fresh, full bool, err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.ix.ready() {
		return false, false, p.ix.err
	}
	if p.err != nil {
		// A pack written in the background failed: the sync stops.
		return false, false, p.err
	}
	_, stored := p.ix.m[k]
	_, pending := p.pending[k]
	sealed := false
	for _, pk := range p.sealed {
		if _, ok := pk.pending[k]; ok {
			sealed = true
			break
		}
	}
	if stored || pending || sealed {
		return false, false, nil
	}
	p.pending[k] = loc{stored: -1}
	return true, p.size >= packLimit, nil
}

// frameFill is a frame one sync worker fills on its own (framed codecs):
// its cutter writes a chunk's stored bytes (session ids out) straight
// after the frame's bytes (tail), and addFilled keeps them there when the
// chunk is new. Before, every frame was shared by the workers: the
// normalizer wrote each chunk into a buffer of its own and add copied a
// new chunk from there into the frame, a second copy of most of a first
// sync's bytes (memmove was 5-7 % of its CPU, docs/VAULT.md, "i31v6").
// A worker's frame goes to the compressors once it holds frameTarget
// bytes; one partly filled when its worker ends is parked in the writer
// (another worker takes it up, and flush sends it).
type frameFill struct {
	buf     []byte
	members []frameMember
	// comp compresses the frame once it is full, on the sync worker
	// that filled it (compressFill).
	comp compressor
}

// fill is a frame for a sync worker: a parked one, else a new one.
func (p *packWriter) fill() *frameFill {
	p.fmu.Lock()
	defer p.fmu.Unlock()
	if n := len(p.parked); n > 0 {
		f := p.parked[n-1]
		p.parked = p.parked[:n-1]
		return f
	}
	return &frameFill{}
}

// park takes back a worker's frame once the worker ends: flush sends
// it, unless another worker takes it up before. One frame at most is
// parked: a second one's chunks join it (a copy of a partly filled frame
// a worker, a few times a sync), or the fuller of the two goes to the
// compressors when they do not fit; so a sync ends with one partly
// filled frame to compress, as when the workers shared one.
func (p *packWriter) park(f *frameFill) {
	if f == nil {
		return
	}
	var send *frameFill
	p.fmu.Lock()
	switch {
	case len(f.members) == 0:
		if f.buf != nil {
			p.frameBufs.put(f.buf)
		}
	case len(p.parked) == 0:
		p.parked = append(p.parked, f)
	default:
		g := p.parked[0]
		if len(g.buf) < len(f.buf) {
			g, f = f, g
			p.parked[0] = g
		}
		if cap(g.buf)-len(g.buf) >= len(f.buf) && len(g.buf) < p.frameTarget() {
			for _, m := range f.members {
				m.at += int32(len(g.buf))
				g.members = append(g.members, m)
			}
			g.buf = append(g.buf, f.buf...)
			p.frameBufs.put(f.buf)
		} else {
			// g, the fuller, is sent; f waits for the next.
			send = g
			p.parked[0] = f
		}
	}
	p.fmu.Unlock()
	if send != nil {
		p.sendFill(send)
	}
}

// sendFill hands a worker's frame to the compressors: its worker adds
// nothing more to it (the frame is full, or the worker ended before
// flush).
func (p *packWriter) sendFill(f *frameFill) {
	b := f.buf
	p.wg.Add(1)
	p.jobs <- packJob{buf: &b, members: f.members}
}

// compressFill compresses f's frame on the calling sync worker, which
// filled it, and empties f, its buffer kept for the worker's next frame
// (gate held shared). Before, a full frame went to the compressors'
// queue and the worker took a new buffer: a sync held a frame filling,
// one queued and one being compressed for each CPU, 4 MiB each, their
// pages faulted in (docs/VAULT.md, "i31m").
func (p *packWriter) compressFill(f *frameFill) {
	p.wg.Add(1)
	b := f.buf
	p.compress(&f.comp, packJob{buf: &b, members: f.members}, false)
	f.buf, f.members = f.buf[:0], f.members[:0]
}

// tail is the room after f's bytes, empty, of at least n bytes; nil
// when f has not that much left (a chunk's stored bytes are never
// longer than the file's bytes it holds: n is those).
func (p *packWriter) tail(f *frameFill, n int) []byte {
	if f.buf == nil {
		f.buf = p.frameBufs.get(p.frameTarget()+softMax, 0)
	}
	if cap(f.buf)-len(f.buf) < n {
		return nil
	}
	return f.buf[len(f.buf):len(f.buf)]
}

// fillHook, when set, is called by addFilled with each new chunk's
// stored bytes and whether they were in place (not copied): a test's
// seam.
var fillHook func(data []byte, inPlace bool)

// addFilled is add for a sync worker that fills f: data, when it is in
// f's tail (written there since the last call), is kept there if the
// chunk is new, not copied; any other data is copied into f.
func (p *packWriter) addFilled(f *frameFill, k key, data []byte) (bool, error) {
	if !p.codec.framed() {
		return p.add(k, data)
	}
	p.gate.RLock()
	fresh, full, err := p.claim(k)
	if !fresh {
		p.gate.RUnlock()
		return false, err
	}
	inPlace := false
	if t := p.tail(f, 1); t != nil && len(data) > 0 && len(data) <= cap(t) && &t[:1][0] == &data[0] {
		f.buf = f.buf[:len(f.buf)+len(data)]
		inPlace = true
	} else {
		if cap(f.buf)-len(f.buf) < len(data) && len(f.members) > 0 {
			// data does not fit in f's room: f goes to the compressors
			// as it is and data starts the next frame. Before, append
			// moved f into a new buffer a quarter larger (a frame of
			// 4 MiB cleared and copied, a few times a first sync,
			// docs/VAULT.md, "i31v7").
			p.compressFill(f)
		}
		f.buf = append(f.buf, data...)
	}
	at := len(f.buf) - len(data)
	if fillHook != nil {
		fillHook(data, inPlace)
	}
	f.members = append(f.members, frameMember{k: k, at: int32(at), raw: int32(len(data))})
	if len(f.buf) >= p.frameTarget() {
		p.compressFill(f)
	}
	p.gate.RUnlock()
	if full {
		return true, p.flushFull()
	}
	return true, nil
}

// frameTarget is the size at which a frame closes: frameTarget, or half
// a pack when packs are smaller (a test's), so a pack still fills frame
// by frame (a frame of s2 is stored in about a quarter of its bytes)
// and is seen full soon after it is.
func (p *packWriter) frameTarget() int {
	return min(frameTarget, packLimit/2)
}

// takeFrame takes the frame being filled out of the writer as a job (fmu
// held); its buf is nil when no frame is being filled.
func (p *packWriter) takeFrame() packJob {
	j := packJob{buf: p.frame, members: p.members}
	p.frame, p.members = nil, nil
	return j
}

// sendFrame hands the frame being filled, if any, to the workers, and
// the parked frames (gate held exclusively: no chunk is being added),
// a large one in two halves, one compressed here (splitLast); it returns
// the buffers to put back once every compression is done.
func (p *packWriter) sendFrame() (kept [][]byte) {
	p.fmu.Lock()
	j := p.takeFrame()
	parked := p.parked
	p.parked = nil
	p.fmu.Unlock()
	if j.buf != nil {
		p.wg.Add(1)
		p.jobs <- j
	}
	for _, f := range parked {
		if b := p.splitLast(f); b != nil {
			kept = append(kept, b)
			continue
		}
		p.sendFill(f)
	}
	return kept
}

// splitMin is the smallest frame flush splits in two.
const splitMin = 1 << 20

// splitLast compresses f, a parked frame flush sends (the sync's last,
// what its workers left partly filled), in two halves at once when it
// holds splitMin bytes or more: the half from the first chunk at or past
// its middle goes to the compressors, the other is compressed here; f's
// buffer, which both read, is returned (nil when f is not split), to be
// put back once both are done. Before, the last frame (up to 4 MiB) was
// compressed on one core while the other waited, a few ms at the end of
// a first sync (docs/VAULT.md, "i31m").
func (p *packWriter) splitLast(f *frameFill) []byte {
	if len(f.buf) < splitMin || !p.codec.framed() {
		return nil
	}
	mid := len(f.buf) / 2
	i := slices.IndexFunc(f.members, func(m frameMember) bool { return int(m.at) >= mid })
	if i <= 0 {
		return nil
	}
	at := int(f.members[i].at)
	second := make([]frameMember, 0, len(f.members)-i)
	for _, m := range f.members[i:] {
		m.at -= int32(at)
		second = append(second, m)
	}
	b1, b2 := f.buf[:at:at], f.buf[at:]
	p.wg.Add(2)
	p.jobs <- packJob{buf: &b2, members: second, keep: true}
	p.compress(&f.comp, packJob{buf: &b1, members: f.members[:i]}, false)
	return f.buf
}

// flush waits for the chunks being compressed, then writes the pending
// pack and its index, both synced, beside a full pack still being
// written in the background (before, after it: two packs written and
// synced one after the other at the end of a first sync), and returns
// once both are written: only then are their chunks in the index.
func (p *packWriter) flush() error {
	p.gate.Lock()
	defer p.gate.Unlock()
	kept := p.sendFrame()
	p.wg.Wait()
	for _, b := range kept {
		p.frameBufs.put(b)
	}
	p.sealers.Wait()
	pk, err := p.take()
	if err == nil && pk != nil {
		err = p.write(pk)
	}
	p.writing.Wait()
	if err != nil {
		return err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.err
}

// flushFull seals the pack if it is still full (several adders may find
// it full at once: the first seals it, the others find it emptied) and
// writes it in the background while the next pack fills: a first sync's
// reading, cutting and compressing go on while a full pack is written
// and synced. The pack is sealed as it is: the chunks being compressed
// and the frame being filled go into the next pack (the sync's workers
// went on adding chunks; before, every one of them waited while the
// compressors drained). Up to packWrites packs are written at once (a
// full pack waits for one of them), so a sync holds at most packWrites
// + 1 packs in memory, and the adders wait with it.
func (p *packWriter) flushFull() error {
	p.sealing.Lock()
	defer p.sealing.Unlock()
	p.writeSlots <- struct{}{}
	pk, err := p.takeFull()
	if err != nil || pk == nil {
		<-p.writeSlots
		return err
	}
	p.writing.Add(1)
	go func() {
		defer p.writing.Done()
		defer func() { <-p.writeSlots }()
		_ = p.write(pk) // its error is p.err: the next add or flush returns it
	}()
	return nil
}

// sealedPack is a pack taken out of the writer to be written: its
// stream (its parts, written or queued), its index lines, its chunks'
// places and its size.
type sealedPack struct {
	stream  *packStream
	lines   []byte
	pending map[key]loc
	size    int
}

// take seals the pending pack under mu (seal), when it is full or all is
// to be flushed (wait: no chunk is being compressed).
func (p *packWriter) take() (*sealedPack, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.seal()
}

// takeFull seals the pending pack under mu when it is full: the chunks
// compressed so far (sealFull).
func (p *packWriter) takeFull() (*sealedPack, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.size < packLimit {
		return nil, p.err
	}
	return p.seal()
}

// seal takes the pending pack out of the writer (mu held): its parts
// and the chunks they hold; nil when none is (a sync that stored nothing
// never reads the index). Chunks still being compressed stay pending:
// they go into the next pack's parts. The sealed chunks stay found by
// add (p.sealed) until they are in the index.
func (p *packWriter) seal() (*sealedPack, error) {
	if p.err != nil {
		return nil, p.err
	}
	if len(p.pending) == 0 || p.stream == nil {
		return nil, nil
	}
	if !p.ix.ready() {
		return nil, p.ix.err
	}
	// The next pack's chunks are about as many as this one's: its
	// map is made at that size, not grown and rehashed chunk by chunk
	// (page faults of a first sync, docs/VAULT.md, "i31m").
	placed, later := p.pending, make(map[key]loc, len(p.pending))
	for k, l := range p.pending {
		if l.stored < 0 {
			later[k] = l
		}
	}
	if len(later) > 0 {
		placed = make(map[key]loc, len(p.pending)-len(later))
		for k, l := range p.pending {
			if l.stored >= 0 {
				placed[k] = l
			}
		}
	}
	pk := &sealedPack{stream: p.stream, lines: p.lines.Bytes(), pending: placed, size: p.size}
	pk.stream.seal()
	p.sealed = append(p.sealed, pk)
	p.pending = later
	p.stream, p.size = nil, 0
	// The next pack's index lines go into a buffer a pack written
	// gave back (lineBufs), with the room of this one's: before, each
	// pack's grew from nothing by doubling.
	n := len(pk.lines)
	p.lines = *bytes.NewBuffer(p.lineBufs.get(n, n/4))
	return pk, nil
}

// write finishes the sealed pack pk (its stream: the parts left,
// synced, named) and writes its index, synced, and then enters its
// chunks in the index. Its error is also kept in p.err.
func (p *packWriter) write(pk *sealedPack) error {
	name, base := pk.stream.name, pk.stream.base
	// The index is written and synced beside its pack, and renamed into
	// place only once the pack is (an index never names a pack that is
	// not there): one fsync's wait less a pack.
	packed := make(chan struct{})
	var packErr error
	idxDone := make(chan error, 1)
	go func() {
		idxDone <- model.CreateFileAtomicWith(syncOnce(p.v.w), base+".idx", 0o600, time.Time{}, func(w io.Writer) error {
			if _, err := w.Write(pk.lines); err != nil {
				return err
			}
			return syncThenWait(w, func() error {
				<-packed
				return packErr
			})
		})
	}()
	packErr = pk.stream.wait()
	close(packed)
	err := <-idxDone
	p.lineBufs.put(pk.lines) // written: the next pack's lines go there
	if packErr != nil {
		err = packErr
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if err != nil {
		err = fmt.Errorf("vault: %w", err)
		if p.err == nil {
			p.err = err
		}
		return err
	}
	for k, l := range pk.pending {
		l.pack = name
		p.ix.m[k] = l
	}
	p.ix.packs[name] = int64(pk.size)
	p.written += int64(pk.size)
	p.chunks += len(pk.pending)
	p.sealed = slices.DeleteFunc(p.sealed, func(s *sealedPack) bool { return s == pk })
	return nil
}

// chunkReader reads stored chunks back, keeping packs open.
type chunkReader struct {
	v    *Vault
	ix   *index
	open map[string]fs.File
	// codecs are the open packs' codecs, read from their headers.
	codecs map[string]codec
	fr     io.ReadCloser
	zr     *zstd.Decoder
	raw    []byte
	store  []byte
	// frames are the last frames decoded (format 3), the most recent
	// last: a file's chunks are mostly in a few frames one after another.
	frames []decodedFrame
}

// decodedFrame is a frame's bytes, decoded.
type decodedFrame struct {
	id   frameID
	data []byte
}

// framesKept is how many decoded frames a chunkReader keeps (each under
// maxFrame bytes).
const framesKept = 2

func newChunkReader(v *Vault, ix *index) *chunkReader {
	return &chunkReader{v: v, ix: ix, open: map[string]fs.File{}, codecs: map[string]codec{}}
}

// codecOf is pack p's codec, read from its header once.
func (r *chunkReader) codecOf(p string, f fs.File) (codec, error) {
	if c, ok := r.codecs[p]; ok {
		return c, nil
	}
	ra, ok := f.(io.ReaderAt)
	if !ok {
		return 0, fmt.Errorf("vault: pack %s cannot be read at an offset", p)
	}
	// Both headers are told apart by their first minPackHeader bytes,
	// and nothing more is read (a chunk may start right after).
	var head [minPackHeader]byte
	n, err := ra.ReadAt(head[:], 0)
	if n == 0 && err != nil {
		return 0, fmt.Errorf("vault: pack %s: %w", p, err)
	}
	c, err := codecOf(head[:n])
	if err != nil {
		return 0, fmt.Errorf("vault: pack %s: %w", p, err)
	}
	r.codecs[p] = c
	return c, nil
}

// newZstdEncoder is a chunk compressor for one worker: zstd's fastest
// level, one goroutine (the pack writer runs one worker per CPU), no
// frame checksum (every chunk is checked against its SHA-256 when read).
func newZstdEncoder() *zstd.Encoder {
	e, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedFastest),
		zstd.WithEncoderConcurrency(1), zstd.WithEncoderCRC(false),
		zstd.WithLowerEncoderMem(true))
	if err != nil {
		panic(err) // fixed options: an error is a programming error
	}
	return e
}

// newZstdDecoder is a chunk decompressor that holds no goroutine and no
// more memory than a chunk asks for (the window is bounded by maxChunk's
// size).
func newZstdDecoder() *zstd.Decoder {
	d, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1),
		zstd.WithDecoderMaxWindow(4*maxChunk), zstd.WithDecodeAllCapLimit(true),
		zstd.WithDecoderLowmem(true))
	if err != nil {
		panic(err)
	}
	return d
}

// close closes the open packs.
func (r *chunkReader) close() {
	for _, f := range r.open {
		f.Close()
	}
	r.open = map[string]fs.File{}
	r.codecs = map[string]codec{}
	if r.zr != nil {
		r.zr.Close()
		r.zr = nil
	}
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
	c, err := r.codecOf(l.pack, f)
	if err != nil {
		return nil, err
	}
	if c.framed() != l.framed {
		return nil, fmt.Errorf("vault: pack %s at %d: chunk %s: its index line does not fit the pack's codec", l.pack, l.off, k)
	}
	if l.framed {
		return r.readFramed(k, l, ra, c)
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
	if c == codecZstd {
		if r.zr == nil {
			r.zr = newZstdDecoder()
		}
		if cap(r.raw) < int(l.raw) {
			r.raw = make([]byte, 0, max(int(l.raw), 2*cap(r.raw)))
		}
		// The decoder writes into raw's room and no further (the cap
		// limit): a chunk whose frame says more than its index line is
		// an error, never an allocation the pack chooses.
		out, err := r.zr.DecodeAll(r.store, r.raw[:0:l.raw])
		if err == nil && len(out) != int(l.raw) {
			err = fmt.Errorf("%d bytes where its index says %d", len(out), l.raw)
		}
		if err != nil {
			return nil, fmt.Errorf("vault: pack %s at %d: chunk %s: %w", l.pack, l.off, k, err)
		}
		// out is raw's own room (the cap limit keeps the decoder in it).
		r.raw = r.raw[:len(out)]
	} else {
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
	}
	if r.v.hash.sum(r.raw) != k {
		return nil, fmt.Errorf("vault: pack %s at %d: chunk %s does not hash to its name (corrupt)", l.pack, l.off, k)
	}
	return r.raw, nil
}

// readFramed returns chunk k's bytes from its frame (format 3), decoding
// the frame unless it is one of the last decoded, checked against its
// hash. The slice is valid until the next call.
func (r *chunkReader) readFramed(k key, l loc, ra io.ReaderAt, c codec) ([]byte, error) {
	id := frameID{l.pack, l.off}
	var data []byte
	for i := len(r.frames) - 1; i >= 0; i-- {
		if r.frames[i].id == id {
			data = r.frames[i].data
			break
		}
	}
	if data == nil {
		if cap(r.store) < int(l.stored) {
			r.store = make([]byte, l.stored, max(int(l.stored), 2*cap(r.store)))
		}
		r.store = r.store[:l.stored]
		if _, err := ra.ReadAt(r.store, l.off); err != nil {
			return nil, fmt.Errorf("vault: pack %s at %d: %w", l.pack, l.off, err)
		}
		// The frame is decoded into a buffer of the length its header
		// says, bounded by maxFrame: never an allocation the pack chooses.
		n, err := frameLen(c, r.store)
		if err == nil && n > maxFrame {
			err = fmt.Errorf("a frame of %d bytes, past the bound of %d", n, maxFrame)
		}
		var buf []byte
		if err == nil {
			if len(r.frames) == framesKept {
				buf = r.frames[0].data
				r.frames = append(r.frames[:0], r.frames[1:]...)
			}
			// Frames are about frameTarget bytes each: a quarter more
			// room lets the next ones reuse the buffer.
			if cap(buf) < n {
				buf = make([]byte, n, n+n/4)
			}
			data, err = decodeFrame(c, buf[:n], r.store)
		}
		if err == nil && len(data) != n {
			err = fmt.Errorf("a frame of %d bytes where its header says %d", len(data), n)
		}
		if err != nil {
			return nil, fmt.Errorf("vault: pack %s at %d: chunk %s: %w", l.pack, l.off, k, err)
		}
		r.frames = append(r.frames, decodedFrame{id: id, data: data})
	}
	if int(l.at)+int(l.raw) > len(data) {
		return nil, fmt.Errorf("vault: pack %s at %d: chunk %s: at %d+%d, past its frame's %d bytes", l.pack, l.off, k, l.at, l.raw, len(data))
	}
	out := data[l.at : l.at+l.raw]
	if r.v.hash.sum(out) != k {
		return nil, fmt.Errorf("vault: pack %s at %d: chunk %s does not hash to its name (corrupt)", l.pack, l.off, k)
	}
	return out, nil
}

// encodeFrame is the frame data compressed by codec c (s2 or MinLZ),
// in dst's room when it has enough, else in a new buffer with room for
// the frames after this one, a little larger.
func encodeFrame(c codec, dst, data []byte) ([]byte, error) {
	n := s2.MaxEncodedLen(len(data))
	if c == codecMinLZ {
		n = minlz.MaxEncodedLen(len(data))
	}
	if cap(dst) < n && n > 0 {
		dst = make([]byte, n+n/4)
	}
	if c == codecMinLZ {
		// A frame is under maxFrame bytes, MinLZ's block bound.
		return minlz.Encode(dst[:cap(dst)], data, minlz.LevelFastest)
	}
	return s2.Encode(dst[:cap(dst)], data), nil
}

// frameLen is the length a frame of codec c says it decodes to. A
// frame of a MinLZ pack must be MinLZ's (its decoder would take s2's
// too).
func frameLen(c codec, frame []byte) (int, error) {
	if c != codecMinLZ {
		return s2.DecodedLen(frame)
	}
	ok, n, err := minlz.IsMinLZ(frame)
	switch {
	case errors.Is(err, minlz.ErrTooLarge):
		err = fmt.Errorf("a frame past the bound of %d bytes (%w)", maxFrame, err)
	case err == nil && !ok:
		err = errors.New("a frame that is not MinLZ's")
	}
	return n, err
}

// decodeFrame decodes a frame of codec c into dst (its length the
// frame's, frameLen).
func decodeFrame(c codec, dst, frame []byte) ([]byte, error) {
	if c == codecMinLZ {
		return minlz.Decode(dst, frame)
	}
	return s2.Decode(dst, frame)
}

// sortByPlace sorts keys by where ix has them: pack, then offset (then
// place in the frame).
func sortByPlace(keys []key, ix *index) {
	sort.Slice(keys, func(i, j int) bool {
		a, b := ix.m[keys[i]], ix.m[keys[j]]
		if a.pack != b.pack {
			return a.pack < b.pack
		}
		if a.off != b.off {
			return a.off < b.off
		}
		return a.at < b.at
	})
}

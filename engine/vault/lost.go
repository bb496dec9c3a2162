package vault

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/memscope/memscope/model"
)

// LostFS is a read-only view of what the vault alone holds: the latest
// version of each session file (transcripts, subagents, tool results and
// the rest of a session's folder) whose path the home no longer has, at
// the path the home had it. Search and replay read it as they read a
// home, so a session the sweep deleted is found and replayed by the same
// code. A file's bytes are rebuilt from the packs when it is opened.
// Close closes the packs.
type LostFS struct {
	mu    sync.Mutex
	rd    *chunkReader
	files map[string]*Version
	// dirs are each folder's entries' names, sorted.
	dirs     map[string][]string
	sessions map[model.SessionID]bool
}

// lostKinds are the kinds a LostFS shows: a session's own files.
var lostKinds = []Kind{KindTranscript, KindSessionFile}

// Lost opens the view of the session files the vault holds and home
// (nil: none) does not.
func (v *Vault) Lost(home fs.FS) (*LostFS, error) {
	st, ix, err := v.read(true)
	if err != nil {
		return nil, err
	}
	l := &LostFS{rd: newChunkReader(v, ix), files: map[string]*Version{}, dirs: map[string][]string{".": nil},
		sessions: map[model.SessionID]bool{}}
	for _, p := range st.paths() {
		h := st.entries[p].head
		if !slices.Contains(lostKinds, h.Kind) || !fs.ValidPath(p) {
			continue
		}
		if home != nil {
			if _, err := fs.Stat(home, p); err == nil {
				continue
			}
		}
		r := st.get(p)
		if r == nil || r.Latest() == nil {
			continue
		}
		l.files[p] = r.Latest()
		if r.Kind == KindTranscript {
			l.sessions[r.Session] = true
		}
		l.addDirs(p)
	}
	for d := range l.dirs {
		sort.Strings(l.dirs[d])
	}
	return l, nil
}

// addDirs enters p in its folder, and each folder in its parent.
func (l *LostFS) addDirs(p string) {
	for p != "." {
		d := path.Dir(p)
		_, known := l.dirs[d]
		l.dirs[d] = append(l.dirs[d], path.Base(p))
		if known {
			return
		}
		p = d
	}
}

// Sessions are the sessions whose transcripts the view holds.
func (l *LostFS) Sessions() []model.SessionID {
	out := make([]model.SessionID, 0, len(l.sessions))
	for s := range l.sessions {
		out = append(out, s)
	}
	slices.Sort(out)
	return out
}

// Has reports whether the view holds session's transcript.
func (l *LostFS) Has(session model.SessionID) bool { return l.sessions[session] }

// Close closes the packs.
func (l *LostFS) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.rd.close()
	return nil
}

// Open opens a file or a folder. A file's bytes are rebuilt from the
// packs as they are read, a chunk at a time: reading a file of any size
// holds one chunk of it (maxChunk at most), not the whole file.
func (l *LostFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	if ver, ok := l.files[name]; ok {
		starts := make([]int64, len(ver.Chunks)+1)
		for i, c := range ver.Chunks {
			if _, ok := keyOf(c.H); !ok {
				return nil, &fs.PathError{Op: "open", Path: name, Err: fmt.Errorf("vault copy: chunk %q is not a SHA-256", c.H)}
			}
			starts[i+1] = starts[i] + c.N
		}
		if starts[len(ver.Chunks)] != ver.Size {
			return nil, &fs.PathError{Op: "open", Path: name, Err: fmt.Errorf("vault copy: its chunks hold %d bytes, the file had %d", starts[len(ver.Chunks)], ver.Size)}
		}
		return &lostFile{l: l, name: name, ver: ver, starts: starts, cur: -1, info: l.info(name)}, nil
	}
	if _, ok := l.dirs[name]; ok {
		return &lostDir{l: l, name: name}, nil
	}
	return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
}

// Stat says what a file or folder is, without rebuilding it.
func (l *LostFS) Stat(name string) (fs.FileInfo, error) {
	if _, ok := l.files[name]; ok {
		return l.info(name), nil
	}
	if _, ok := l.dirs[name]; ok {
		return l.info(name), nil
	}
	return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrNotExist}
}

// ReadDir lists a folder.
func (l *LostFS) ReadDir(name string) ([]fs.DirEntry, error) {
	names, ok := l.dirs[name]
	if !ok {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrNotExist}
	}
	out := make([]fs.DirEntry, len(names))
	for i, n := range names {
		out[i] = fs.FileInfoToDirEntry(l.info(path.Join(name, n)))
	}
	return out, nil
}

func (l *LostFS) info(name string) lostInfo {
	if ver, ok := l.files[name]; ok {
		mode := ver.Mode.Perm()
		if mode == 0 {
			mode = 0o600
		}
		return lostInfo{name: path.Base(name), size: ver.Size, mode: mode, mod: ver.ModTime}
	}
	return lostInfo{name: path.Base(name), mode: fs.ModeDir | 0o700}
}

type lostInfo struct {
	name string
	size int64
	mode fs.FileMode
	mod  time.Time
}

func (i lostInfo) Name() string       { return i.name }
func (i lostInfo) Size() int64        { return i.size }
func (i lostInfo) Mode() fs.FileMode  { return i.mode }
func (i lostInfo) ModTime() time.Time { return i.mod }
func (i lostInfo) IsDir() bool        { return i.mode.IsDir() }
func (i lostInfo) Sys() any           { return nil }

// lostFile is a file rebuilt as it is read: it holds the chunk the
// last read was in. It reads at offsets and seeks too (search counts
// lines that way).
type lostFile struct {
	l    *LostFS
	name string
	ver  *Version
	info lostInfo
	// starts[i] is where chunk i begins in the file; the last is its size.
	starts []int64
	mu     sync.Mutex
	off    int64
	// cur is the chunk buf holds (-1: none).
	cur int
	buf []byte
	n   normalizer
}

func (f *lostFile) Stat() (fs.FileInfo, error) { return f.info, nil }
func (f *lostFile) Close() error               { return nil }

// Read reads from the file's offset on.
func (f *lostFile) Read(p []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	n, err := f.readAt(p, f.off)
	f.off += int64(n)
	if err == io.EOF && n > 0 {
		err = nil
	}
	return n, err
}

// ReadAt reads len(p) bytes at off (fewer, with io.EOF, at the end).
func (f *lostFile) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, &fs.PathError{Op: "read", Path: f.name, Err: fs.ErrInvalid}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.readAt(p, off)
}

// Seek sets the offset of the next Read.
func (f *lostFile) Seek(offset int64, whence int) (int64, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	switch whence {
	case io.SeekCurrent:
		offset += f.off
	case io.SeekEnd:
		offset += f.ver.Size
	case io.SeekStart:
	default:
		return 0, &fs.PathError{Op: "seek", Path: f.name, Err: fs.ErrInvalid}
	}
	if offset < 0 {
		return 0, &fs.PathError{Op: "seek", Path: f.name, Err: fs.ErrInvalid}
	}
	f.off = offset
	return offset, nil
}

// readAt fills p from off on, chunk by chunk.
func (f *lostFile) readAt(p []byte, off int64) (int, error) {
	n := 0
	for n < len(p) {
		if off >= f.ver.Size {
			return n, io.EOF
		}
		// The chunk off is in: the last whose start is at or before it.
		i := sort.Search(len(f.ver.Chunks), func(i int) bool { return f.starts[i+1] > off })
		if err := f.load(i); err != nil {
			return n, &fs.PathError{Op: "read", Path: f.name, Err: errors.New("vault copy: " + err.Error())}
		}
		c := copy(p[n:], f.buf[off-f.starts[i]:])
		n += c
		off += int64(c)
	}
	return n, nil
}

// load puts chunk i's bytes in buf.
func (f *lostFile) load(i int) error {
	if f.cur == i {
		return nil
	}
	if f.buf == nil {
		// Room for the largest chunk at once: no growing by steps.
		var most int64
		for _, c := range f.ver.Chunks {
			most = max(most, c.N)
		}
		f.buf, f.n.out = make([]byte, 0, most), make([]byte, 0, most)
	}
	f.l.mu.Lock()
	out, err := decodeChunk(f.l.rd, &f.n, f.ver.Chunks[i])
	if err == nil {
		f.buf = append(f.buf[:0], out...)
	}
	f.l.mu.Unlock()
	if err != nil {
		f.cur = -1
		return err
	}
	f.cur = i
	return nil
}

type lostDir struct {
	l    *LostFS
	name string
	off  int
}

func (d *lostDir) Stat() (fs.FileInfo, error) { return d.l.info(d.name), nil }
func (d *lostDir) Read([]byte) (int, error) {
	return 0, &fs.PathError{Op: "read", Path: d.name, Err: errors.New("is a directory")}
}
func (d *lostDir) Close() error { return nil }

func (d *lostDir) ReadDir(n int) ([]fs.DirEntry, error) {
	all, _ := d.l.ReadDir(d.name)
	rest := all[d.off:]
	if n > 0 {
		if len(rest) == 0 {
			return nil, io.EOF
		}
		rest = rest[:min(n, len(rest))]
	}
	d.off += len(rest)
	return rest, nil
}

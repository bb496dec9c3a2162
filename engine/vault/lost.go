package vault

import (
	"bytes"
	"errors"
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

// Open opens a file (its bytes rebuilt now) or a folder.
func (l *LostFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	if ver, ok := l.files[name]; ok {
		var b bytes.Buffer
		b.Grow(int(ver.Size))
		l.mu.Lock()
		err := writeVersion(&b, l.rd, ver)
		l.mu.Unlock()
		if err != nil {
			return nil, &fs.PathError{Op: "open", Path: name, Err: errors.New("vault copy: " + err.Error())}
		}
		return &lostFile{Reader: bytes.NewReader(b.Bytes()), info: l.info(name)}, nil
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

// lostFile is a rebuilt file; it reads at offsets too (search counts
// lines that way).
type lostFile struct {
	*bytes.Reader
	info lostInfo
}

func (f *lostFile) Stat() (fs.FileInfo, error) { return f.info, nil }
func (f *lostFile) Close() error               { return nil }

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

package diskcache

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/gob"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"path"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/memscope/memscope/model"
)

// Bounds of the cache folder.
const (
	// MaxFile is the largest cache file written or read.
	MaxFile = 64 << 20
	// MaxTotal and MaxFiles bound the folder (Save trims it).
	MaxTotal = 256 << 20
	MaxFiles = 32
)

// Sub is the folder of Dir's answer the files live in: the memscope
// cache folder holds other things (the benchmarks' generated homes).
const Sub = "scan"

// magic starts every cache file; the format version follows it (2: the
// payload's checksum is a CRC-32C, was a SHA-256).
const magic = "memscope cache 2\n"

// castagnoli is the CRC-32C table (the instruction set computes it: some
// 25 GB/s here against SHA-256's 0.5 GB/s, for the 4-5 MB of caches a
// warm start of the app reads on W).
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// sumSize is the length of the payload's checksum in the header.
const sumSize = 4

// ErrInsideHome is Dir's error for a cache folder inside the Claude
// home: memscope never writes its own files there.
var ErrInsideHome = errors.New("the cache folder is inside the Claude home")

// Dir is the folder cache files go to: $XDG_CACHE_HOME/memscope/scan
// when XDG_CACHE_HOME is an absolute path (the XDG rule), else
// ~/.cache/memscope/scan. It refuses a folder inside homeDir, the Claude
// home being read (ErrInsideHome).
func Dir(getenv func(string) string, userHome func() (string, error), homeDir string) (string, error) {
	base, err := model.XDGCache.Memscope(getenv, userHome)
	if err != nil {
		return "", fmt.Errorf("cache folder: %w", err)
	}
	dir := filepath.Join(base, Sub)
	if homeDir != "" {
		home := filepath.Clean(homeDir)
		if rel, err := filepath.Rel(home, dir); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return "", fmt.Errorf("%s: %w %s", dir, ErrInsideHome, home)
		}
	}
	return dir, nil
}

// Store is one cache folder.
type Store struct {
	dir   string
	root  fs.FS
	w     model.WriteFS
	build string
	// shared are the decoded files LoadShared left for their next reader.
	shared *handOvers
}

// New returns the store in the OS folder dir (Dir's answer). Files are
// read through root, the machine from "/" (names as model.RootName
// gives them), and written through w.
func New(dir string, root fs.FS, w model.WriteFS) *Store {
	return &Store{dir: dir, root: root, w: w, build: buildID(), shared: &handOvers{m: map[string]handOver{}}}
}

// Dir is the store's folder.
func (s *Store) Dir() string { return s.dir }

// Name is the file name of the cache of kind (which callers version:
// "stat.3") for the home at homeDir.
func Name(kind, homeDir string) string {
	h := sha256.Sum256([]byte(filepath.Clean(homeDir)))
	return kind + "-" + hex.EncodeToString(h[:8]) + ".cache"
}

// buildID names the build that writes a cache: a cache written by
// another version of memscope is not read (what it summarized may be
// counted differently now).
func buildID() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	id := bi.GoVersion + " " + bi.Main.Path + "@" + bi.Main.Version
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision", "vcs.time", "vcs.modified":
			id += " " + s.Key + "=" + s.Value
		}
	}
	return id
}

// header is what precedes the payload: magic, the build, the kind, the
// payload's length and CRC-32C. The checksum is there to catch a torn or
// damaged file (a write cut short, a flipped bit), which a CRC-32C does:
// every burst of up to 32 bits, and any other damage but once in 2^32;
// the length is checked too, and the payload must then decode. It is no
// seal against a writer: whoever can write the cache folder can write a
// matching SHA-256 as easily, so a cryptographic hash bought nothing but
// its cost (every entry is still used only for a file whose stamp is
// the one kept).
func (s *Store) header(kind string, payload []byte) []byte {
	var b bytes.Buffer
	b.WriteString(magic)
	b.WriteString(s.build + "\n")
	b.WriteString(kind + "\n")
	var n [8]byte
	binary.LittleEndian.PutUint64(n[:], uint64(len(payload)))
	b.Write(n[:])
	var sum [sumSize]byte
	binary.LittleEndian.PutUint32(sum[:], crc32.Checksum(payload, castagnoli))
	b.Write(sum[:])
	return b.Bytes()
}

// Load reads the cache file name (see Name) written for kind. ok is
// false when there is none or it cannot be used: torn, too big, written
// by another build or for another kind, failing its checksum, or not
// decoding as a T.
func Load[T any](s *Store, kind, name string) (v T, ok bool) {
	if s == nil {
		return v, false
	}
	data, err := model.ReadFileBounded(s.root, rootName(filepath.Join(s.dir, name)), MaxFile+4096)
	if err != nil {
		return v, false
	}
	payload, ok := s.payload(kind, data)
	if !ok {
		return v, false
	}
	if u, packed := any(&v).(unpacked); packed {
		// A packed value is the payload itself: no gob message to copy
		// it into, no decoder to set up.
		if err := u.Unpack(payload); err != nil {
			var zero T
			return zero, false
		}
		return v, true
	}
	if err := gob.NewDecoder(bytes.NewReader(payload)).Decode(&v); err != nil {
		var zero T
		return zero, false
	}
	return v, true
}

// Packed is a cache value that writes its own form (Packer), kept as the
// cache file's payload as it is, not through encoding/gob; a pointer to
// it reads that form back (Unpack). The secrets counts' cache is one.
type Packed interface {
	Pack() []byte
}

// unpacked is a pointer to a Packed value.
type unpacked interface {
	Unpack(b []byte) error
}

// payload checks data's header and returns what follows it.
func (s *Store) payload(kind string, data []byte) ([]byte, bool) {
	want := s.header(kind, nil)
	// Everything up to the length: magic, build and kind.
	pre := len(want) - 8 - sumSize
	if len(data) < len(want) || !bytes.Equal(data[:pre], want[:pre]) {
		return nil, false
	}
	n := binary.LittleEndian.Uint64(data[pre:])
	sum := binary.LittleEndian.Uint32(data[pre+8:])
	payload := data[len(want):]
	if uint64(len(payload)) != n || crc32.Checksum(payload, castagnoli) != sum {
		return nil, false
	}
	return payload, true
}

// Save replaces the cache file name with v, then trims the folder to its
// bounds (the oldest files go first). A v that encodes larger than
// MaxFile is not written, and the old file is removed: it no longer says
// what the home holds.
func Save[T any](s *Store, kind, name string, v T) error {
	if s == nil {
		return nil
	}
	s.dropHandOver(name)
	var b bytes.Buffer
	if p, packed := any(v).(Packed); packed {
		b.Write(p.Pack())
	} else if err := gob.NewEncoder(&b).Encode(v); err != nil {
		return fmt.Errorf("cache %s: %w", name, err)
	}
	full := filepath.Join(s.dir, name)
	if b.Len() > MaxFile {
		if err := s.w.Remove(full); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("cache %s: %w", name, err)
		}
		return fmt.Errorf("cache %s: %d bytes, more than the %d a cache file may hold", name, b.Len(), MaxFile)
	}
	data := append(s.header(kind, b.Bytes()), b.Bytes()...)
	if err := model.WriteCacheFileWith(s.w, full, data); err != nil {
		return err
	}
	return s.trim(name)
}

// Remove deletes the cache file name, if any.
func (s *Store) Remove(name string) error {
	if s == nil {
		return nil
	}
	s.dropHandOver(name)
	if err := s.w.Remove(filepath.Join(s.dir, name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// trim removes the oldest cache files (never keep, just written) until
// the folder holds at most MaxFiles files and MaxTotal bytes. Files
// other than cache files (another process's temporary file) are left.
func (s *Store) trim(keep string) error {
	dir := rootName(s.dir)
	entries, err := fs.ReadDir(s.root, dir)
	if err != nil {
		return nil
	}
	type file struct {
		name  string
		size  int64
		mtime int64
	}
	var files []file
	var total int64
	for _, e := range entries {
		if !e.Type().IsRegular() || !strings.HasSuffix(e.Name(), ".cache") {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		files = append(files, file{e.Name(), info.Size(), info.ModTime().UnixNano()})
		total += info.Size()
	}
	// Newest first; the file just written stays whatever its mtime.
	slices.SortFunc(files, func(a, b file) int {
		switch {
		case a.name == keep:
			return -1
		case b.name == keep:
			return 1
		case a.mtime != b.mtime:
			if a.mtime > b.mtime {
				return -1
			}
			return 1
		}
		return strings.Compare(a.name, b.name)
	})
	var errs []error
	for len(files) > 1 && (len(files) > MaxFiles || total > MaxTotal) {
		last := files[len(files)-1]
		files = files[:len(files)-1]
		total -= last.size
		if err := s.w.Remove(filepath.Join(s.dir, last.name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// rootName is the name of the OS path p in the store's root.
func rootName(p string) string { return model.RootName(path.Clean(filepath.ToSlash(p))) }

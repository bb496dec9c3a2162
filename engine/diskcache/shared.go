package diskcache

import (
	"io/fs"
	"path/filepath"
	"sync"

	"github.com/memscope/memscope/model"
)

// handOver is a decoded cache file left for the next LoadShared of it:
// the value and the file's stamp (size, times, inode) when it was read.
type handOver struct {
	kind string
	st   model.FileStamp
	v    any
}

// handOvers are a Store's decoded files waiting for their next reader,
// by file name.
type handOvers struct {
	mu sync.Mutex
	m  map[string]handOver
}

// LoadShared is Load for the readers of one cache file that come in
// pairs within a process and only read the value: a shared pass's feed
// (engine/homepass) and the line that counts from the same file after
// it (the secrets, stat, doctor and ledger caches). The value one of them
// decodes is left in memory with the file's stamp; the next LoadShared
// of that file takes it, without reading or decoding the file again,
// while the file is unchanged (size, modification and change times,
// inode; a Save through s drops it at once). A value is handed over once:
// after that it is held by its readers only, and the next LoadShared
// reads the file again. The two readers share the value: neither may
// change it.
func LoadShared[T any](s *Store, kind, name string) (v T, ok bool) {
	if s == nil {
		return v, false
	}
	rn := rootName(filepath.Join(s.dir, name))
	info, err := fs.Stat(s.root, rn)
	if err != nil {
		s.dropHandOver(name)
		return v, false
	}
	st := model.StampOf(info)
	h, found := s.takeHandOver(name)
	if found && h.kind == kind && h.st.Same(st) {
		if hv, typed := h.v.(T); typed {
			return hv, true
		}
	}
	v, ok = Load[T](s, kind, name)
	if !ok || !model.Unchanged(s.root, rn, st) {
		// Written while it was read: what was decoded may be either
		// version, so it is not left for another reader.
		return v, ok
	}
	if s.shared != nil {
		s.shared.mu.Lock()
		s.shared.m[name] = handOver{kind: kind, st: st, v: v}
		s.shared.mu.Unlock()
	}
	return v, true
}

// takeHandOver removes and returns the value left for the next reader of
// name, if any.
func (s *Store) takeHandOver(name string) (handOver, bool) {
	if s.shared == nil {
		return handOver{}, false
	}
	s.shared.mu.Lock()
	defer s.shared.mu.Unlock()
	h, ok := s.shared.m[name]
	delete(s.shared.m, name)
	return h, ok
}

// dropHandOver forgets the value left for the next reader of name.
func (s *Store) dropHandOver(name string) { s.takeHandOver(name) }

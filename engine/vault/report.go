package vault

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"sort"
	"time"

	"github.com/memscope/memscope/model"
)

// SessionEntry is one session the vault holds.
type SessionEntry struct {
	Session string `json:"session"`
	Project string `json:"project"`
	// Files counts the session's files (transcript, subagents, tool
	// results, file history); Bytes their size.
	Files   int       `json:"files"`
	Bytes   int64     `json:"bytes"`
	ModTime time.Time `json:"modTime"`
	Synced  time.Time `json:"synced"`
	// InHome says whether the home still has the transcript; Gone is
	// when a sync first found it missing.
	InHome bool      `json:"inHome"`
	Gone   time.Time `json:"gone,omitzero"`
}

// List returns the sessions the vault holds: those no longer in home
// first, then newest first. home may be nil (InHome then says what the
// last sync saw).
func (v *Vault) List(home *model.Home) ([]SessionEntry, error) {
	st, _, err := v.read(false)
	if err != nil {
		return nil, err
	}
	by := map[string]*SessionEntry{}
	for _, r := range st.sorted() {
		ver := r.Latest()
		if r.Session == "" || ver == nil || r.Kind == KindMemory || r.Kind == KindHistory || r.Kind == KindPaste {
			continue
		}
		e := by[string(r.Session)]
		if e == nil {
			e = &SessionEntry{Session: string(r.Session)}
			by[string(r.Session)] = e
		}
		e.Files++
		e.Bytes += ver.Size
		if ver.Synced.After(e.Synced) {
			e.Synced = ver.Synced
		}
		if r.Kind != KindTranscript || path.Dir(path.Dir(r.Path)) != "projects" {
			continue
		}
		e.Project = r.Project
		e.ModTime = ver.ModTime
		e.Gone = r.Gone
		e.InHome = r.Gone.IsZero()
		if home != nil {
			_, err := fs.Stat(home.FS, r.Path)
			e.InHome = err == nil
		}
	}
	out := make([]SessionEntry, 0, len(by))
	for _, e := range by {
		if e.Project == "" {
			// file history or a folder without its transcript: not a
			// session the client can resume.
			continue
		}
		out = append(out, *e)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].InHome != out[j].InHome {
			return !out[i].InHome
		}
		if !out[i].ModTime.Equal(out[j].ModTime) {
			return out[i].ModTime.After(out[j].ModTime)
		}
		return out[i].Session < out[j].Session
	})
	return out, nil
}

// KindUsage is the vault's content of one kind.
type KindUsage struct {
	Kind  Kind `json:"kind"`
	Files int  `json:"files"`
	// Versions counts every kept version; Raw is the size of the latest
	// ones, RawAll of all.
	Versions int   `json:"versions"`
	Raw      int64 `json:"raw"`
	RawAll   int64 `json:"rawAll"`
}

// Usage is `vault du`: what the vault keeps and what it takes.
type Usage struct {
	Vault string      `json:"vault"`
	Kinds []KindUsage `json:"kinds"`
	// RawAll is the size of every kept version as files; Unique the
	// bytes of the distinct chunks they are made of (after dedup);
	// Stored the packs' size on disk (after compression).
	RawAll int64 `json:"rawAll"`
	Unique int64 `json:"unique"`
	Stored int64 `json:"stored"`
	Packs  int   `json:"packs"`
	Chunks int   `json:"chunks"`
	// Ratio is Stored / RawAll; Dedup is Unique / RawAll.
	Ratio    float64  `json:"ratio"`
	Dedup    float64  `json:"dedup"`
	Orphans  []string `json:"orphans"`
	Sessions int      `json:"sessions"`
}

// Usage measures the vault by kind.
func (v *Vault) Usage() (Usage, error) {
	u := Usage{Vault: v.Dir, Orphans: []string{}}
	st, ix, err := v.read(true)
	if err != nil {
		return u, err
	}
	kinds := map[Kind]*KindUsage{}
	seen := map[key]bool{}
	sessions := map[model.SessionID]bool{}
	for _, r := range st.sorted() {
		k := kinds[r.Kind]
		if k == nil {
			k = &KindUsage{Kind: r.Kind}
			kinds[r.Kind] = k
		}
		k.Files++
		if r.Kind == KindTranscript {
			sessions[r.Session] = true
		}
		for i, ver := range r.Versions {
			k.Versions++
			k.RawAll += ver.Size
			if i == len(r.Versions)-1 {
				k.Raw += ver.Size
			}
			for _, c := range ver.Chunks {
				ck, ok := keyOf(c.H)
				if !ok || seen[ck] {
					continue
				}
				seen[ck] = true
				if l, there := ix.m[ck]; there {
					u.Unique += int64(l.raw)
				}
			}
		}
	}
	for _, kind := range Kinds() {
		if k := kinds[kind]; k != nil {
			u.Kinds = append(u.Kinds, *k)
			u.RawAll += k.RawAll
		}
	}
	for _, size := range ix.packs {
		u.Stored += size
	}
	u.Packs, u.Chunks, u.Sessions = len(ix.packs), len(ix.m), len(sessions)
	u.Orphans = append(u.Orphans, ix.orphans...)
	if u.RawAll > 0 {
		u.Ratio = float64(u.Stored) / float64(u.RawAll)
		u.Dedup = float64(u.Unique) / float64(u.RawAll)
	}
	return u, nil
}

// VerifyReport is what a verify checked.
type VerifyReport struct {
	Vault    string `json:"vault"`
	Packs    int    `json:"packs"`
	Chunks   int    `json:"chunks"`
	Records  int    `json:"records"`
	Versions int    `json:"versions"`
	// Bytes counts the versions' bytes rebuilt and hashed.
	Bytes    int64           `json:"bytes"`
	Problems []string        `json:"problems"`
	Orphans  []string        `json:"orphans"`
	State    []model.Problem `json:"stateProblems"`
}

// OK reports whether nothing was wrong (orphan packs are leftovers of an
// interrupted sync: they hold nothing a record needs).
func (r VerifyReport) OK() bool { return len(r.Problems) == 0 && len(r.State) == 0 }

// Verify re-hashes everything: every chunk of every pack against its
// name, and every kept version, rebuilt from its chunks, against the
// file's hash.
func (v *Vault) Verify() (VerifyReport, error) {
	rep := VerifyReport{Vault: v.Dir, Problems: []string{}, Orphans: []string{}, State: []model.Problem{}}
	unlock := v.lock()
	defer unlock()
	st, ix, err := v.read(true)
	if err != nil {
		return rep, err
	}
	rep.Orphans = append(rep.Orphans, ix.orphans...)
	rep.Packs = len(ix.packs)
	rd := newChunkReader(v, ix)
	defer rd.close()
	// Each version is rebuilt and hashed (which reads and checks every
	// chunk it names); then the chunks no version names are read, so no
	// chunk is inflated and hashed twice.
	named := map[key]bool{}
	for _, r := range st.sorted() {
		rep.Records++
		for i := range r.Versions {
			ver := &r.Versions[i]
			rep.Versions++
			for _, c := range ver.Chunks {
				if k, ok := keyOf(c.H); ok {
					named[k] = true
				}
			}
			if err := verifyVersion(rd, ver); err != nil {
				rep.Problems = append(rep.Problems, fmt.Sprintf("%s (version of %s): %v", r.Path, ver.ModTime.UTC().Format(time.RFC3339), err))
				continue
			}
			rep.Bytes += ver.Size
		}
	}
	rep.Chunks = len(ix.m)
	keys := make([]key, 0, len(ix.m)-len(named))
	for k := range ix.m {
		if !named[k] {
			keys = append(keys, k)
		}
	}
	sortByPlace(keys, ix)
	for _, k := range keys {
		if _, err := rd.read(k); err != nil {
			rep.Problems = append(rep.Problems, err.Error())
		}
	}
	// After the records: sorted() decodes each record whole and adds a
	// problem for a body that does not decode.
	rep.State = append(rep.State, st.problems...)
	return rep, nil
}

// verifyVersion rebuilds ver (writeVersion, the restore's own path:
// each chunk is checked against its name as it is read, and its session
// ids put back) and checks its size and its hash: the hash of the
// rebuilt bytes for a version of format 1, the hash of its chunk list
// for a newer one.
func verifyVersion(rd *chunkReader, ver *Version) error {
	var size int64
	for _, c := range ver.Chunks {
		size += c.N
	}
	if size != ver.Size {
		return fmt.Errorf("chunks make %d bytes, the file had %d", size, ver.Size)
	}
	if ver.SHA256 == "" {
		if got := chunksSum(ver.Chunks); got != ver.Sum {
			return fmt.Errorf("its chunk list hashes to %s, the version says %s", got, ver.Sum)
		}
		return writeVersion(io.Discard, rd, ver)
	}
	h := sha256.New()
	if err := writeVersion(h, rd, ver); err != nil {
		return err
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != ver.SHA256 {
		return fmt.Errorf("rebuilt bytes hash to %s, the file's to %s", got, ver.SHA256)
	}
	return nil
}

// ErrNoVault is returned by readers of a folder that holds no vault yet.
var ErrNoVault = errors.New("no vault there yet (memscope vault sync makes it)")

// Exists reports whether the vault folder holds a vault, and an error
// naming it when it does not.
func (v *Vault) Exists() error {
	ok, err := v.checkFormat()
	if err == nil && !ok {
		err = fmt.Errorf("vault %s: %w", v.Dir, ErrNoVault)
	}
	return err
}

// Summary is the vault in one line's worth: Overview and Retention show
// it, and the sweep forecast asks it which files are safe.
type Summary struct {
	Dir string `json:"dir"`
	// Sessions counts the sessions kept, Lost those no longer in the
	// home (as the last sync saw it).
	Sessions int `json:"sessions"`
	Lost     int `json:"lost"`
	// LastSync is the newest sync that changed something.
	LastSync time.Time `json:"lastSync,omitzero"`
	// kept maps a home path to the size and mtime of its newest version.
	kept map[string]Version
}

// Summarize reads the vault's records (not its packs). A folder without
// a vault is an empty summary, not an error.
func (v *Vault) Summarize() (Summary, error) {
	s := Summary{Dir: v.Dir, kept: map[string]Version{}}
	if ok, err := v.checkFormat(); !ok {
		return s, err
	}
	st, err := v.loadState()
	if err != nil {
		return s, err
	}
	for _, r := range st.sorted() {
		ver := r.Latest()
		if ver == nil {
			continue
		}
		s.kept[r.Path] = Version{Size: ver.Size, ModTime: ver.ModTime}
		if ver.Synced.After(s.LastSync) {
			s.LastSync = ver.Synced
		}
		if r.Kind == KindTranscript && path.Dir(path.Dir(r.Path)) == "projects" {
			s.Sessions++
			if !r.Gone.IsZero() {
				s.Lost++
			}
		}
	}
	return s, nil
}

// Safe reports whether the vault holds the home file rel as it is now
// (its size and mtime): the sweep can delete it and a restore brings it
// back.
func (s Summary) Safe(rel string, size int64, mtime time.Time) bool {
	v, ok := s.kept[rel]
	return ok && v.Size == size && v.ModTime.Equal(mtime)
}

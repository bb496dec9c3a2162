package model

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"path"
	"sort"
	"strings"
	"time"
)

// Folders of the paste stores inside a Claude home.
const (
	// PasteCacheDir holds <hash>.txt files (the real layout).
	PasteCacheDir = "paste-cache"
	// PasteStoreDir holds <hash> files without extension (the seed layout).
	PasteStoreDir = "paste-store"
)

// pasteCacheExt is the extension of files in PasteCacheDir.
const pasteCacheExt = ".txt"

// PasteHash is a paste's contentHash: in the real layout the first 16 hex
// digits of the sha256 of the content.
type PasteHash string

// HashPaste returns the hash the client gives content: the first 16 hex
// digits of its sha256.
func HashPaste(content []byte) PasteHash {
	sum := sha256.Sum256(content)
	return PasteHash(hex.EncodeToString(sum[:8]))
}

// IsCacheForm reports whether h has the real layout's form: 16 lowercase
// hex digits.
func (h PasteHash) IsCacheForm() bool {
	return len(h) == 16 && isLowerHex(string(h))
}

func isLowerHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// validName reports whether h can name a file in a paste folder: one path
// element, so a hostile history line cannot point outside the folder.
func (h PasteHash) validName() bool {
	s := string(h)
	return s != "" && s != "." && s != ".." && !strings.ContainsAny(s, `/\`) && fs.ValidPath(s)
}

// PasteSource says which paste folder a file came from.
type PasteSource string

// The paste folders.
const (
	PasteSourceCache PasteSource = "paste-cache"
	// PasteSourceStore is the seed layout, a secondary source.
	PasteSourceStore PasteSource = "paste-store (seed)"
)

// PasteStatus is the outcome of resolving a paste hash.
type PasteStatus string

// The outcomes of resolving a paste hash.
const (
	PasteOK PasteStatus = "ok"
	// PasteMissing: no file for the hash (swept by cleanupPeriodDays, or
	// never written).
	PasteMissing PasteStatus = "missing"
	// PasteHashMismatch: the file's content does not hash to its name.
	PasteHashMismatch PasteStatus = "hash-mismatch"
	// PasteUnreadable: the file exists but could not be read.
	PasteUnreadable PasteStatus = "unreadable"
)

// PasteResolution is what a paste hash resolved to.
type PasteResolution struct {
	Hash   PasteHash   `json:"hash"`
	Status PasteStatus `json:"status"`
	Source PasteSource `json:"source,omitempty"`
	// Path is the file looked at, relative to the home.
	Path string `json:"path"`
	// Content is the paste text (Resolve only; empty from Check).
	Content string `json:"-"`
	Size    int64  `json:"size"`
	// Verified is true when the content's hash was compared with the name.
	// Seed paste-store names of unknown form are not verified.
	Verified bool `json:"verified"`
	// Actual is the content's hash, set on a mismatch.
	Actual PasteHash `json:"actual,omitempty"`
	// Reason explains a status other than ok.
	Reason string `json:"reason,omitempty"`
	// Truncated is set when Content holds only the first MaxDocumentBytes
	// of a larger paste (the whole was still hashed).
	Truncated bool `json:"truncated,omitempty"`
}

// PasteCache reads the paste folders of a Claude home.
type PasteCache struct {
	fsys fs.FS
	// verdicts, when set, answers Check for files seen before and
	// lends its buffer and hash to the ones that are not.
	verdicts *PasteVerdicts
	// complete says the listing given to inventoryOf is every file of
	// both folders (wholeListing): a hash it has no file for is missing
	// without a look.
	complete bool
}

// NewPasteCache returns a PasteCache over a Claude home (fsys rooted at
// the home).
func NewPasteCache(fsys fs.FS) *PasteCache {
	return &PasteCache{fsys: fsys}
}

// Resolve finds the text of a paste hash: paste-cache/<hash>.txt, else the
// seed paste-store/<hash>. The content is checked against the name.
func (c *PasteCache) Resolve(h PasteHash) PasteResolution {
	return c.resolve(h, true)
}

// Check is Resolve without keeping the content, for inventories.
func (c *PasteCache) Check(h PasteHash) PasteResolution {
	return c.resolve(h, false)
}

func (c *PasteCache) resolve(h PasteHash, keep bool) PasteResolution {
	cachePath := path.Join(PasteCacheDir, string(h)+pasteCacheExt)
	res := PasteResolution{Hash: h, Status: PasteMissing, Source: PasteSourceCache, Path: cachePath}
	if !h.validName() {
		res.Path = PasteCacheDir + "/" + string(h) + pasteCacheExt
		res.Reason = "hash is not a valid file name"
		return res
	}
	if c.read(&res, keep) {
		return res
	}
	store := PasteResolution{Hash: h, Status: PasteMissing, Source: PasteSourceStore, Path: path.Join(PasteStoreDir, string(h))}
	if c.read(&store, keep) {
		return store
	}
	return missingPaste(h)
}

// missingPaste is Check's answer for a hash with no file in either
// folder.
func missingPaste(h PasteHash) PasteResolution {
	return PasteResolution{Hash: h, Status: PasteMissing, Source: PasteSourceCache, Path: path.Join(PasteCacheDir, string(h)+pasteCacheExt),
		Reason: "no file in " + PasteCacheDir + " or " + PasteStoreDir}
}

// read fills res from res.Path. It returns false when the file does not
// exist, so the caller can try the next folder.
func (c *PasteCache) read(res *PasteResolution, keep bool) bool {
	f, err := OpenRegular(c.fsys, res.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return false
	}
	if err != nil {
		res.Status, res.Reason = PasteUnreadable, err.Error()
		return true
	}
	defer f.Close()
	if !keep && c.verdicts != nil {
		c.verdicts.check(f, res)
		return true
	}
	sum := sha256.New()
	w := io.Writer(sum)
	kept := &capWriter{left: MaxDocumentBytes}
	if keep {
		w = io.MultiWriter(sum, kept)
	}
	n, err := io.Copy(w, f)
	res.Size = n
	if err != nil {
		res.Status, res.Reason = PasteUnreadable, fmt.Sprintf("read %s: %v", res.Path, err)
		return true
	}
	res.Content, res.Truncated = kept.sb.String(), kept.cut
	setPasteVerdict(res, sum)
	return true
}

// setPasteVerdict sets res's status from the hash of the content read
// (sum), compared with its name.
func setPasteVerdict(res *PasteResolution, sum hash.Hash) {
	res.Status = PasteOK
	actual, ok := verifyPasteName(res.Hash, res.Source, sum)
	res.Verified = ok
	if ok && actual != "" {
		res.Status, res.Actual = PasteHashMismatch, actual
		res.Reason = fmt.Sprintf("content hashes to %s", actual)
	}
}

// capWriter keeps the first left bytes written to it and drops the rest,
// so a huge paste is hashed whole but kept in part.
type capWriter struct {
	sb   strings.Builder
	left int64
	cut  bool
}

func (c *capWriter) Write(p []byte) (int, error) {
	k := min(int64(len(p)), c.left)
	c.sb.Write(p[:k])
	c.left -= k
	c.cut = c.cut || k < int64(len(p))
	return len(p), nil
}

// verifyPasteName compares the content's sha256 with the file's hash name.
// ok is false when the name's form says nothing about the content (a seed
// paste-store name of unknown kind); actual is set only on a mismatch.
func verifyPasteName(h PasteHash, src PasteSource, sum hash.Hash) (actual PasteHash, ok bool) {
	full := hex.EncodeToString(sum.Sum(nil))
	name := strings.ToLower(string(h))
	switch {
	case src == PasteSourceCache:
		// The real layout always names files by the 16-hex prefix, so any
		// other name is a mismatch too.
	case len(name) == 16 && isLowerHex(name):
	case len(name) == 64 && isLowerHex(name):
		if name != full {
			return PasteHash(full), true
		}
		return "", true
	default:
		return "", false
	}
	if name != full[:16] {
		return PasteHash(full[:16]), true
	}
	return "", true
}

// PasteFile is one file in a paste folder.
type PasteFile struct {
	Hash    PasteHash   `json:"hash"`
	Path    string      `json:"path"`
	Source  PasteSource `json:"source"`
	Size    int64       `json:"size"`
	ModTime time.Time   `json:"modTime"`
	// Refs counts history references to Hash (set by InventoryPastes).
	Refs int `json:"refs"`
	// stamp is the file as List saw it (PasteVerdicts' key).
	stamp FileStamp
}

// List returns every file of paste-cache and paste-store, sorted by source
// then hash. Missing folders are simply empty. Unreadable folders and
// entries that are not paste files (sub-folders, names without .txt in
// paste-cache) are reported as problems.
func (c *PasteCache) List() ([]PasteFile, []Problem) {
	files, problems := c.listSource(PasteSourceCache)
	store, probs := c.listSource(PasteSourceStore)
	files = append(files, store...)
	problems = append(problems, probs...)
	sortPasteFiles(files)
	return files, problems
}

// listSource lists the folder of one source, as List does.
func (c *PasteCache) listSource(src PasteSource) ([]PasteFile, []Problem) {
	ents, problems := readStoreDir(c.fsys, pasteDir(src))
	files, probs := c.listEntries(src, ents)
	return files, append(problems, probs...)
}

// listEntries is List's verdict on the entries ents of the folder of
// src: the paste files, and the problems of the others.
func (c *PasteCache) listEntries(src PasteSource, ents []fs.DirEntry) ([]PasteFile, []Problem) {
	var files []PasteFile
	var problems []Problem
	dir := pasteDir(src)
	for _, de := range ents {
		f, prob, ok := c.listEntry(src, dir, de.Name(), de)
		if prob != nil {
			problems = append(problems, *prob)
		}
		if ok {
			files = append(files, f)
		}
	}
	return files, problems
}

// pasteDir is the folder of a paste source.
func pasteDir(src PasteSource) string {
	if src == PasteSourceStore {
		return PasteStoreDir
	}
	return PasteCacheDir
}

// listEntry is List's verdict on one entry of a paste folder: the file,
// or the problem that keeps it out. de is the folder entry when the
// folder was listed, nil to look the name up.
func (c *PasteCache) listEntry(src PasteSource, dir, name string, de fs.DirEntry) (PasteFile, *Problem, bool) {
	p := path.Join(dir, name)
	if src == PasteSourceCache {
		if !strings.HasSuffix(name, pasteCacheExt) {
			return PasteFile{}, &Problem{File: p, Kind: ProblemMalformed, Reason: "not a paste cache file (<hash>.txt)"}, false
		}
		name = strings.TrimSuffix(name, pasteCacheExt)
	}
	var info fs.FileInfo
	var err error
	switch {
	case de != nil:
		info, err = de.Info()
		if err == nil && de.Type()&fs.ModeSymlink != 0 {
			// Resolve opens through symlinks, so List follows them too.
			info, err = fs.Stat(c.fsys, p)
		}
	default:
		info, err = fs.Stat(c.fsys, p)
	}
	if err != nil {
		return PasteFile{}, &Problem{File: p, Kind: ProblemUnreadable, Reason: err.Error()}, false
	}
	if !info.Mode().IsRegular() {
		return PasteFile{}, &Problem{File: p, Kind: ProblemMalformed, Reason: NotRegularReason(info.Mode())}, false
	}
	return PasteFile{Hash: PasteHash(name), Path: p, Source: src, Size: info.Size(), ModTime: info.ModTime(), stamp: StampOf(info)}, nil, true
}

// sortPasteFiles orders files by source (paste-cache first), then hash.
func sortPasteFiles(files []PasteFile) {
	sort.SliceStable(files, func(i, j int) bool {
		if files[i].Source != files[j].Source {
			return files[i].Source == PasteSourceCache
		}
		return files[i].Hash < files[j].Hash
	})
}

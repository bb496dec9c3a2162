package model

import (
	"errors"
	"io/fs"
	"path"
	"sort"
	"strings"
)

// PasteSummary counts the pastes of a home. Status counts are over
// distinct hashes referenced from history.
type PasteSummary struct {
	// Inline is the number of pastes stored inline in history lines.
	Inline int `json:"inline"`
	// References is the number of hashed pastes in history lines (a hash
	// pasted twice counts twice).
	References int `json:"references"`
	// Referenced is the number of distinct hashes referenced.
	Referenced   int `json:"referenced"`
	Resolved     int `json:"resolved"`
	Missing      int `json:"missing"`
	HashMismatch int `json:"hashMismatch"`
	Unreadable   int `json:"unreadable"`
	// Files is the number of files in the paste folders.
	Files int `json:"files"`
	// Orphans is the number of files no history line refers to.
	Orphans int `json:"orphans"`
}

// PasteInventory relates the paste folders to the history that refers to
// them.
type PasteInventory struct {
	// Files are all paste files, with their reference counts.
	Files []PasteFile `json:"files"`
	// Orphans are the files no history line refers to.
	Orphans []PasteFile `json:"orphans"`
	// Resolutions has one entry per distinct referenced hash (content not
	// kept), sorted by hash.
	Resolutions []PasteResolution `json:"resolutions"`
	Summary     PasteSummary      `json:"summary"`
	Problems    []Problem         `json:"problems,omitempty"`
}

// CountPasteRefs counts, per hash, the history pastes that refer to it.
// Inline pastes are not counted.
func CountPasteRefs(h *History) map[PasteHash]int {
	return PasteRefsOf(h).Counts
}

// PasteRefs is what history says about pastes.
type PasteRefs struct {
	// Counts is, per hash, how many history pastes refer to it.
	Counts map[PasteHash]int
	// Inline is the number of pastes stored inline.
	Inline int
}

// PasteRefsOf counts the pastes of h, which may be nil.
func PasteRefsOf(h *History) PasteRefs {
	r := PasteRefs{Counts: make(map[PasteHash]int)}
	if h != nil {
		r.Add(h.Entries)
	}
	return r
}

// Add counts the pastes of more entries. It reports whether any of them
// refers to a hashed paste.
func (r *PasteRefs) Add(entries []HistoryEntry) (hashed bool) {
	if r.Counts == nil {
		r.Counts = make(map[PasteHash]int)
	}
	for i := range entries {
		for _, p := range entries[i].PastedContents {
			switch {
			case p.Inline:
				r.Inline++
			case p.Hash != "":
				r.Counts[p.Hash]++
				hashed = true
			}
		}
	}
	return hashed
}

// Clone returns a copy that does not share the counts.
func (r PasteRefs) Clone() PasteRefs {
	c := PasteRefs{Counts: make(map[PasteHash]int, len(r.Counts)), Inline: r.Inline}
	for k, n := range r.Counts {
		c.Counts[k] = n
	}
	return c
}

// InventoryPastes lists the paste folders of the home fsys, checks every
// hash history refers to, and finds orphans. h may be nil (no history).
func InventoryPastes(fsys fs.FS, h *History) *PasteInventory {
	return InventoryPasteRefs(fsys, PasteRefsOf(h), nil)
}

// InventoryPasteRefs is InventoryPastes for the references refs counts.
// With v, a file checked before (same name, size, mtime and inode) is not
// read again; nil checks every file, through one buffer.
func InventoryPasteRefs(fsys fs.FS, refs PasteRefs, v *PasteVerdicts) *PasteInventory {
	if v == nil {
		v = NewPasteVerdicts()
	}
	v.NextRound()
	c := NewPasteCacheWith(fsys, v)
	files, probs := c.List()
	return inventoryOf(c, v, refs, files, probs)
}

// UpdatePasteInventory is InventoryPasteRefs for a home whose paste
// folders changed only at the files named in changed (slash-separated,
// relative to the home): prev's listing is kept but for those files, which
// are looked at again, so a new paste costs one file, not the folder. ok
// is false when a name is not a file of a paste folder (a folder itself
// came or went): call InventoryPasteRefs then.
func UpdatePasteInventory(fsys fs.FS, refs PasteRefs, v *PasteVerdicts, prev *PasteInventory, changed []string) (*PasteInventory, bool) {
	if prev == nil {
		return nil, false
	}
	if v == nil {
		v = NewPasteVerdicts()
	}
	type entry struct {
		src  PasteSource
		name string
	}
	look := map[string]entry{}
	for _, p := range changed {
		dir, name := path.Split(p)
		src := PasteSourceCache
		switch strings.TrimSuffix(dir, "/") {
		case PasteCacheDir:
		case PasteStoreDir:
			src = PasteSourceStore
		default:
			return nil, false
		}
		if name == "" {
			return nil, false
		}
		look[p] = entry{src, name}
	}
	v.NextRound()
	c := NewPasteCacheWith(fsys, v)
	files := make([]PasteFile, 0, len(prev.Files)+len(look))
	for _, f := range prev.Files {
		if _, again := look[f.Path]; !again {
			f.Refs = 0
			files = append(files, f)
		}
	}
	var probs []Problem
	for _, p := range prev.Problems {
		if _, again := look[p.File]; !again {
			probs = append(probs, p)
		}
	}
	for p, e := range look {
		f, prob, ok := c.listEntry(e.src, pasteDir(e.src), e.name, nil)
		switch {
		case prob != nil && prob.Kind == ProblemUnreadable && errors.Is(statErr(fsys, p), fs.ErrNotExist):
			// Gone: nothing to list, nothing to report.
		case prob != nil:
			probs = append(probs, *prob)
		case ok:
			files = append(files, f)
		}
	}
	sortPasteFiles(files)
	sortProblemsByFile(probs)
	return inventoryOf(c, v, refs, files, probs), true
}

// statErr is the error of looking name up.
func statErr(fsys fs.FS, name string) error {
	_, err := fs.Stat(fsys, name)
	return err
}

// inventoryOf relates the listed paste files to history's references,
// checking each referenced hash (from v's verdicts where it can).
func inventoryOf(c *PasteCache, v *PasteVerdicts, refs PasteRefs, files []PasteFile, probs []Problem) *PasteInventory {
	inv := &PasteInventory{Files: files, Problems: probs}
	inv.Summary.Inline = refs.Inline
	for i := range inv.Files {
		f := &inv.Files[i]
		f.Refs = refs.Counts[f.Hash]
		if f.Refs == 0 {
			inv.Orphans = append(inv.Orphans, *f)
		}
	}
	hashes := make([]PasteHash, 0, len(refs.Counts))
	for hash, n := range refs.Counts {
		hashes = append(hashes, hash)
		inv.Summary.References += n
	}
	sort.Slice(hashes, func(i, j int) bool { return hashes[i] < hashes[j] })
	// A paste-cache file List found whose verdict is remembered is not
	// opened. (Check looks in paste-store only when paste-cache has no
	// such entry at all, which List cannot tell: those go to Check.)
	// By hash: for a hash that can name a file, paste-cache/<hash>.txt
	// is the listed file of that hash.
	// The map holds each file's index, not a copy of the file (a map of
	// 8 631 PasteFiles was 2 MB of a warm start on W).
	listed := make(map[PasteHash]int, len(inv.Files))
	stored := map[PasteHash]bool{}
	for i := range inv.Files {
		if f := &inv.Files[i]; f.Source == PasteSourceCache {
			listed[f.Hash] = i
		} else {
			stored[f.Hash] = true
		}
	}
	// The pastes List found are opened from the paste folder's
	// descriptor when the home is held (checkDirect).
	dir, direct := openHeldFolder(c.fsys, PasteCacheDir)
	if direct {
		defer dir.close()
	}
	if len(hashes) > 0 {
		inv.Resolutions = make([]PasteResolution, 0, len(hashes))
	}
	for _, hash := range hashes {
		r, ok := PasteResolution{}, false
		i, in := listed[hash]
		if in && hash.validName() {
			r, ok = v.listed(hash, inv.Files[i])
			if !ok && direct {
				r, ok = c.checkDirect(dir, hash, inv.Files[i])
			}
		}
		if !ok && !in && c.complete && hash.validName() && isLowerHex(string(hash)) && !stored[hash] {
			// No file of either folder is named for it (the listing
			// is whole): Check would open two names that are not there.
			r, ok = missingPaste(hash), true
		}
		if !ok {
			r = c.Check(hash)
		}
		inv.Resolutions = append(inv.Resolutions, r)
		switch r.Status {
		case PasteOK:
			inv.Summary.Resolved++
		case PasteMissing:
			inv.Summary.Missing++
		case PasteHashMismatch:
			inv.Summary.HashMismatch++
		case PasteUnreadable:
			inv.Summary.Unreadable++
		}
	}
	inv.Summary.Referenced = len(hashes)
	inv.Summary.Files = len(inv.Files)
	inv.Summary.Orphans = len(inv.Orphans)
	return inv
}

// checkDirect is Check(h) for the paste-cache file f that List found,
// opened by its bare name from the held paste-cache folder d
// (heldFolder.open: a regular file beneath the home, or nothing). ok is
// false when that does not answer: Check then looks again the usual way,
// and says why.
func (c *PasteCache) checkDirect(d heldFolder, h PasteHash, f PasteFile) (res PasteResolution, ok bool) {
	r, info, ok := d.open(string(h) + pasteCacheExt)
	if !ok {
		return res, false
	}
	defer r.Close()
	res = PasteResolution{Hash: h, Status: PasteMissing, Source: PasteSourceCache, Path: f.Path}
	c.verdicts.checkRead(info, r, &res)
	return res, true
}

// sortProblemsByFile puts listing problems in List's order: by path
// (paste-cache before paste-store, a folder before its files, files by
// name, as folders are listed).
func sortProblemsByFile(probs []Problem) {
	sort.SliceStable(probs, func(i, j int) bool { return probs[i].File < probs[j].File })
}

package vault

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// repackBelow: a pack whose chunks still in use make less than this
// share of its bytes is rewritten with only those chunks.
const repackBelow = 0.5

// PruneOptions say what a prune drops.
type PruneOptions struct {
	// KeepDays keeps versions and sessions for that many days: a file
	// gone from the home longer ago is dropped with all its versions,
	// and a version another replaced longer ago is dropped.
	KeepDays int
	DryRun   bool
	Now      time.Time
}

// PruneReport is what a prune dropped (or, dry, would drop).
type PruneReport struct {
	ID       string   `json:"id,omitempty"`
	DryRun   bool     `json:"dryRun,omitempty"`
	Files    int      `json:"files"`
	Versions int      `json:"versions"`
	Sessions []string `json:"sessions"`
	// Bytes is the size of the dropped versions as files; PacksTrashed
	// and PacksRewritten count the packs moved to the trash (with the
	// ones rewritten without their dropped chunks); Freed is the bytes
	// the packs' folder shrinks by.
	Bytes          int64  `json:"bytes"`
	PacksTrashed   int    `json:"packsTrashed"`
	PacksRewritten int    `json:"packsRewritten"`
	Freed          int64  `json:"freed"`
	Trash          string `json:"trash,omitempty"`
}

// Prune drops what is older than o.KeepDays. What it takes out (the
// records and the packs) goes to trash/<id>/, which UndoPrune puts back
// and EmptyTrash deletes.
func (v *Vault) Prune(o PruneOptions) (PruneReport, error) {
	rep := PruneReport{DryRun: o.DryRun, Sessions: []string{}}
	if err := v.Exists(); err != nil {
		return rep, err
	}
	unlock := v.lock()
	defer unlock()
	st, ix, err := v.read(true)
	if err != nil {
		return rep, err
	}
	cut := o.Now.AddDate(0, 0, -o.KeepDays)
	var old []*Record
	sessions := map[string]bool{}
	for _, r := range st.sorted() {
		keep, dropped := r.Versions[:0:0], r.Versions[:0:0]
		for i, ver := range r.Versions {
			last := i == len(r.Versions)-1
			drop := !last && r.Versions[i+1].ModTime.Before(cut) || !r.Gone.IsZero() && r.Gone.Before(cut)
			if drop {
				rep.Versions++
				rep.Bytes += ver.Size
				dropped = append(dropped, ver)
				continue
			}
			keep = append(keep, ver)
		}
		if len(dropped) == 0 {
			continue
		}
		// The trash keeps the record with the versions dropped only: the
		// undo puts them back beside what the record has then.
		cp := *r
		cp.Versions = dropped
		old = append(old, &cp)
		if len(keep) == 0 {
			rep.Files++
			if r.Kind == KindTranscript && r.Session != "" {
				sessions[string(r.Session)] = true
			}
			st.remove(r.Path)
			continue
		}
		r.Versions = keep
	}
	for s := range sessions {
		rep.Sessions = append(rep.Sessions, s)
	}
	sort.Strings(rep.Sessions)
	// What each pack still holds for the records kept.
	live := map[key]bool{}
	for _, r := range st.sorted() {
		for _, ver := range r.Versions {
			for _, c := range ver.Chunks {
				if k, ok := keyOf(c.H); ok {
					live[k] = true
				}
			}
		}
	}
	// A chunk in a frame (format 3) counts for its share of the frame's
	// stored bytes, by its raw length (a frame's raw bytes are its
	// chunks').
	frameRaw := map[frameID]int64{}
	for _, l := range ix.m {
		if l.framed {
			frameRaw[frameID{l.pack, l.off}] += int64(l.raw)
		}
	}
	liveBytes := map[string]int64{}
	for k, l := range ix.m {
		switch {
		case !live[k]:
		case l.framed:
			if fr := frameRaw[frameID{l.pack, l.off}]; fr > 0 {
				liveBytes[l.pack] += int64(l.stored) * int64(l.raw) / fr
			}
		default:
			liveBytes[l.pack] += int64(l.stored)
		}
	}
	var trash, rewrite []string
	for p, size := range ix.packs {
		switch lb := liveBytes[p]; {
		case lb == 0:
			trash = append(trash, p)
		case float64(lb) < repackBelow*float64(size-int64(minPackHeader)):
			rewrite = append(rewrite, p)
		}
	}
	sort.Strings(trash)
	sort.Strings(rewrite)
	rep.PacksTrashed, rep.PacksRewritten = len(trash)+len(rewrite), len(rewrite)
	for _, p := range append(append([]string(nil), trash...), rewrite...) {
		rep.Freed += ix.packs[p]
	}
	if o.DryRun || len(old) == 0 && len(trash) == 0 && len(rewrite) == 0 {
		return rep, nil
	}
	// The packs rewritten below are of this format: a vault of an older
	// one becomes this one first, as a sync makes it.
	if len(rewrite) > 0 {
		if err := v.ensure(); err != nil {
			return rep, err
		}
	}
	rep.ID = newID(o.Now)
	trashRel := path.Join(trashDir, rep.ID)
	rep.Trash = filepath.Join(v.Dir, filepath.FromSlash(trashRel))
	// 1. What is taken out is saved first, so the prune can be undone
	// from any point on.
	if err := v.writeRecords(path.Join(trashRel, "records.jsonl"), old); err != nil {
		return rep, err
	}
	// 2. The chunks still used in the packs to rewrite go to new packs.
	moving := map[string]bool{}
	for _, p := range append(append([]string(nil), trash...), rewrite...) {
		moving[p] = true
	}
	readIx := &index{m: map[key]loc{}, packs: ix.packs}
	for k, l := range ix.m {
		readIx.m[k] = l
		if moving[l.pack] {
			delete(ix.m, k)
		}
	}
	rd := newChunkReader(v, readIx)
	pw := newPackWriter(v, ix, func() time.Time { return o.Now })
	defer pw.close()
	// The chunks are read in their packs' order (a frame is decoded once).
	var move []key
	for k, l := range readIx.m {
		if live[k] && moving[l.pack] {
			move = append(move, k)
		}
	}
	sortByPlace(move, readIx)
	for _, k := range move {
		data, err := rd.read(k)
		if err != nil {
			rd.close()
			return rep, err
		}
		if _, err := pw.add(k, data); err != nil {
			rd.close()
			return rep, err
		}
	}
	rd.close()
	if err := pw.flush(); err != nil {
		return rep, err
	}
	rep.Freed -= pw.written
	// 3. The state without what was dropped.
	if err := v.mergeState(st, o.Now); err != nil {
		return rep, err
	}
	// 4. The old packs leave the packs folder.
	for p := range moving {
		for _, ext := range []string{".idx", ".pack"} {
			from := filepath.Join(v.Dir, packsDir, p+ext)
			to := filepath.Join(v.Dir, filepath.FromSlash(trashRel), p+ext)
			if err := v.w.MkdirAll(filepath.Dir(to), 0o700); err != nil {
				return rep, err
			}
			if err := v.w.Rename(from, to); err != nil {
				return rep, fmt.Errorf("vault %s: move %s to the trash: %w", v.Dir, p+ext, err)
			}
		}
	}
	return rep, nil
}

// UndoPrune puts back what the prune id took out: its packs return to
// the packs folder, and the versions it dropped go back beside the
// versions each path's record has now (a sync since the prune may have
// added some); a path no longer in the vault gets its record back whole.
func (v *Vault) UndoPrune(id string, now time.Time) (int, error) {
	unlock := v.lock()
	defer unlock()
	trashRel := path.Join(trashDir, id)
	ents, err := fs.ReadDir(v.root, v.name(trashRel))
	if err != nil {
		return 0, fmt.Errorf("vault %s: no prune %s in the trash: %w", v.Dir, id, err)
	}
	st, err := v.loadState()
	if err != nil {
		return 0, err
	}
	tmp := newState()
	if err := v.readStateFile(path.Join(trashRel, "records.jsonl"), tmp); err != nil {
		return 0, err
	}
	for _, e := range ents {
		n := e.Name()
		if !strings.HasSuffix(n, ".pack") && !strings.HasSuffix(n, ".idx") {
			continue
		}
		if err := v.w.Rename(filepath.Join(v.Dir, filepath.FromSlash(trashRel), n), filepath.Join(v.Dir, packsDir, n)); err != nil {
			return 0, fmt.Errorf("vault %s: put back %s: %w", v.Dir, n, err)
		}
	}
	recs := tmp.sorted()
	for i, r := range recs {
		if cur := st.get(r.Path); cur != nil {
			recs[i] = withVersions(cur, r.Versions)
		}
	}
	if err := v.writeState(st, recs, now); err != nil {
		return 0, err
	}
	if err := v.removeTrash(trashRel); err != nil {
		return len(recs), err
	}
	return len(recs), nil
}

// withVersions is a copy of cur with the versions of back it does not
// hold put before its own (a pruned version is older than those kept).
func withVersions(cur *Record, back []Version) *Record {
	type id struct {
		sum  string
		size int64
		mod  int64
	}
	have := map[id]bool{}
	for _, ver := range cur.Versions {
		have[id{ver.SHA256 + ver.Sum, ver.Size, ver.ModTime.UnixNano()}] = true
	}
	out := *cur
	out.Versions = make([]Version, 0, len(back)+len(cur.Versions))
	for _, ver := range back {
		if k := (id{ver.SHA256 + ver.Sum, ver.Size, ver.ModTime.UnixNano()}); !have[k] {
			have[k] = true
			out.Versions = append(out.Versions, ver)
		}
	}
	out.Versions = append(out.Versions, cur.Versions...)
	return &out
}

// EmptyTrash deletes every prune's trash: those prunes can no longer be
// undone. It returns the bytes freed.
func (v *Vault) EmptyTrash() (int64, error) {
	unlock := v.lock()
	defer unlock()
	ents, err := fs.ReadDir(v.root, v.name(trashDir))
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	var freed int64
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		rel := path.Join(trashDir, e.Name())
		files, _ := fs.ReadDir(v.root, v.name(rel))
		for _, f := range files {
			if info, err := f.Info(); err == nil {
				freed += info.Size()
			}
		}
		if err := v.removeTrash(rel); err != nil {
			return freed, err
		}
	}
	return freed, nil
}

// removeTrash deletes the files of a trash folder and the folder.
func (v *Vault) removeTrash(rel string) error {
	files, err := fs.ReadDir(v.root, v.name(rel))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	for _, f := range files {
		if err := v.w.Remove(filepath.Join(v.Dir, filepath.FromSlash(rel), f.Name())); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	if err := v.w.Remove(filepath.Join(v.Dir, filepath.FromSlash(rel))); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

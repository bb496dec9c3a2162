package vault

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"path"
	"path/filepath"
	"time"

	"github.com/memscope/memscope/model"
)

// Folders the client writes once. The files of the pastes folder, of a
// session's file history and of a session's tool results are written
// once and never changed (a paste is named by its content, a backup by
// its version, a tool result by its call), so while such a folder's
// identity and modification time are those of the last sync, no file
// was added, removed or renamed in it, and the sync takes its files as
// they were without a lstat each. The rule's risk: a file changed in
// place (by hand, or by a client that starts doing so) is not seen
// until the next full walk. The nets: a folder is trusted only once
// its time is foldersSettle old at a sync (a file being written when
// its folder was stamped is read again next time), every sync walks
// everything again once foldersFull has passed since the last full
// walk (and `vault sync --full` does at once), and `vault verify`
// rebuilds every version from the vault.
const (
	foldersFile   = "state/folders.json"
	foldersSettle = model.WriteOnceSettle
	foldersFull   = model.WriteOnceFull
	// maxFoldersFile bounds the stamps file when it is read.
	maxFoldersFile = 16 << 20
)

// writeOnceFolder is model.WriteOnceFolder: the pastes, a session's
// file history, a session's tool results.
func writeOnceFolder(rel string) bool { return model.WriteOnceFolder(rel) }

// folderStamp is a write-once folder as a sync left it: its identity,
// modification time and the number of its files the vault has.
type folderStamp struct {
	ID      model.FileID `json:"id"`
	ModTime int64        `json:"mtime"`
	Files   int          `json:"files"`
}

// folderStamps is the stamps file: the time of the last full walk and
// the folders stamped since.
type folderStamps struct {
	Full    time.Time              `json:"full"`
	Folders map[string]folderStamp `json:"folders"`
}

// loadFolders reads the stamps (none when the file is missing or
// unreadable: the sync then walks everything, and writes them anew).
func (v *Vault) loadFolders() (folderStamps, []byte) {
	data, err := model.ReadFileBounded(v.root, v.name(foldersFile), maxFoldersFile)
	var fs folderStamps
	if err != nil || json.Unmarshal(data, &fs) != nil || fs.Folders == nil {
		return folderStamps{Folders: map[string]folderStamp{}}, nil
	}
	return fs, data
}

// saveFolders writes the stamps when they changed (through the one
// writer, atomically; after the state, so a stamp never names files the
// state does not hold).
func (v *Vault) saveFolders(fs folderStamps, old []byte) error {
	return v.saveFoldersAfter(fs, old, nil)
}

// saveFoldersAfter is saveFolders whose file is renamed into place only
// once ready returns (nil: at once): a sync encodes it while its packs
// and state are written, and ready waits for the state. The stamps are
// a cache whose reader checks what it reads (a stamp is trusted only
// when it counts the files the state holds in its folder: settle; a
// missing or unreadable file means a full walk), so they are written
// as memscope's caches are (model.WriteCacheFileWith: atomically,
// nothing synced): a crash that loses them costs the next sync a full
// walk, and one that keeps them but not the state's last file leaves
// stamps whose counts the older state does not match. Before, the file
// was synced, then its folder, the last fsync of every sync that
// changed a stamp, alone at its end (docs/VAULT.md, "i31v5").
func (v *Vault) saveFoldersAfter(fs folderStamps, old []byte, ready func() error) error {
	data, err := json.Marshal(fs)
	if err != nil || bytes.Equal(data, old) {
		return err
	}
	if ready != nil {
		if err := ready(); err != nil {
			return err
		}
	}
	return model.WriteCacheFileWith(v.w, filepath.Join(v.Dir, filepath.FromSlash(foldersFile)), data)
}

// folderWalk is what a sync's walk did with the write-once folders:
// those it trusted (not listed) and those it listed.
type folderWalk struct {
	stamps folderStamps
	// full: the stamps are not used this sync.
	full    bool
	trusted []trustedFolder
	listed  map[string]listedFolder
}

// listedFolder is a write-once folder the walk listed.
type listedFolder struct {
	info fs.FileInfo
	// subdirs: it held a folder (its stamp would not cover that folder's
	// files); files counts the files it listed.
	subdirs bool
	files   int
}

// trust reports whether the write-once folder rel (info) is as it was
// stamped. The walk runs before the vault's state is read, so the
// stamp's count of files is checked against the state afterwards
// (settle).
func (w *folderWalk) trust(rel string, info fs.FileInfo) bool {
	if w == nil || w.full {
		return false
	}
	s, ok := w.stamps.Folders[rel]
	id := model.FileIDOf(info)
	if !ok || !id.Known || s.ID != id || s.ModTime != info.ModTime().UnixNano() || s.Files == 0 {
		return false
	}
	w.trusted = append(w.trusted, trustedFolder{rel: rel, info: info})
	return true
}

// trustedFolder is a write-once folder the walk did not list.
type trustedFolder struct {
	rel  string
	info fs.FileInfo
}

// settle keeps the trusted folders whose stamp counts the files the
// vault holds in them (live: its files still in the home, by folder)
// and returns the others, which the sync lists after all (a state that
// lost a record, a prune).
func (w *folderWalk) settle(live map[string][]string) []trustedFolder {
	if w == nil {
		return nil
	}
	var late []trustedFolder
	kept := w.trusted[:0]
	for _, f := range w.trusted {
		if w.stamps.Folders[f.rel].Files == len(live[f.rel]) {
			kept = append(kept, f)
		} else {
			late = append(late, f)
		}
	}
	w.trusted = kept
	return late
}

// list notes a write-once folder the walk lists.
func (w *folderWalk) list(rel string, info fs.FileInfo) {
	if w == nil {
		return
	}
	if w.listed == nil {
		w.listed = map[string]listedFolder{}
	}
	w.listed[rel] = listedFolder{info: info}
}

// count notes an entry (a file, or something else where a file should
// be) of a listed folder.
func (w *folderWalk) count(rel string) {
	if w == nil {
		return
	}
	d := path.Dir(rel)
	if l, ok := w.listed[d]; ok {
		l.files++
		w.listed[d] = l
	}
}

// subdir notes that the listed folder dir holds a folder.
func (w *folderWalk) subdir(dir string) {
	if w == nil {
		return
	}
	if l, ok := w.listed[dir]; ok {
		l.subdirs = true
		w.listed[dir] = l
	}
}

// next are the stamps after a sync: the trusted folders keep theirs, a
// listed folder is stamped when its time has settled, it held no folder
// and every file of it is in the vault (ok counts those by folder).
func (w *folderWalk) next(now time.Time, ok map[string]int) folderStamps {
	out := folderStamps{Full: w.stamps.Full, Folders: map[string]folderStamp{}}
	if w.full {
		out.Full = now
	}
	for _, f := range w.trusted {
		out.Folders[f.rel] = w.stamps.Folders[f.rel]
	}
	for rel, l := range w.listed {
		id := model.FileIDOf(l.info)
		if l.subdirs || l.files == 0 || !id.Known || ok[rel] != l.files || now.Sub(l.info.ModTime()) < foldersSettle {
			continue
		}
		out.Folders[rel] = folderStamp{ID: id, ModTime: l.info.ModTime().UnixNano(), Files: l.files}
	}
	return out
}

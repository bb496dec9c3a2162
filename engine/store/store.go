package store

import (
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/memscope/memscope/engine/journal"
	"github.com/memscope/memscope/engine/scan"
	"github.com/memscope/memscope/model"
)

// Store edits one memory folder safely. Every change
//   - goes through the atomic writer (StoreFS; DirFS uses
//     model.WriteFileAtomic), several files staged first and renamed after;
//   - is scanned (Scan): high-severity findings that the change would add
//     block it unless WriteOptions.Force;
//   - is refused with a ConflictError when a file it touches changed on
//     disk since the store read it (size and SHA-256 compared);
//   - is journaled first in <memory dir>/.memscope/journal.jsonl with the
//     bytes every file had before, so Undo restores them exactly.
//
// The journal and the trash (.trash/) live inside the memory folder so
// they follow it wherever it is (a home, an autoMemoryDirectory, a mount);
// the client skips every path segment starting with "." so it never reads
// them as memories.
//
// A MemoryStore is not safe for concurrent use; the TUI and the CLI each
// own one.
type Store struct {
	fsys FS
	dir  string
	// doc marks a document store (OpenDocument): a folder that is not a
	// memory folder, whose files are written one at a time and never
	// read as a whole, with its journal in the home.
	doc bool
	// jfs holds the undo journal at jname; jlock is the journal's path on
	// disk for the cross-process lock ("" for none).
	jfs   FS
	jname string
	jlock string
	mem   *model.MemoryDir
	// probs are the problems of the last read.
	probs []model.Problem
	// stamps are the files as read: MEMORY.md (absent or not) and every
	// topic file.
	stamps map[string]FileStamp
	// unstamped is set for a folder the client writes without stamping
	// the frontmatter (agent memory): see Unstamped.
	unstamped bool
}

// Unstamped marks the folder as one the client writes without stamping
// the frontmatter (agent memory: the agent writes its files with the
// Write tool, no node_type, originSessionId or modified). memscope then
// writes as the client does there: a new memory gets name, description
// and type only, and an edit leaves metadata.modified alone. It returns s.
func (s *Store) Unstamped() *Store {
	s.unstamped = true
	return s
}

// Stamped reports whether the store stamps what it writes as the client
// stamps auto memory (see Unstamped).
func (s *Store) Stamped() bool { return !s.unstamped }

// WriteOptions are the parameters of a change that come from outside:
// the time (journal, trash folder, metadata.modified), the session a new
// memory comes from, and whether to write despite the security scan.
type WriteOptions struct {
	Now       time.Time `json:"now"`
	SessionID string    `json:"sessionId,omitempty"`
	Force     bool      `json:"force,omitempty"`
}

// The operations.
const (
	OpCreate      journal.OpKind = "create"
	OpSetBody     journal.OpKind = "set-body"
	OpDescribe    journal.OpKind = "set-description"
	OpRetype      journal.OpKind = "retype"
	OpRename      journal.OpKind = "rename"
	OpDelete      journal.OpKind = "delete"
	OpRestore     journal.OpKind = "restore"
	OpIndexAdd    journal.OpKind = "index-add"
	OpIndexRemove journal.OpKind = "index-remove"
	OpIndexMove   journal.OpKind = "index-move"
	OpIndexBuild  journal.OpKind = "index-rebuild"
	OpPrune       journal.OpKind = "prune"
)

// FileAction says what a change did to one file.
type FileAction string

// The file actions.
const (
	FileCreated  FileAction = "created"
	FileModified FileAction = "modified"
	FileDeleted  FileAction = "deleted"
)

// ChangedFile is one file a change wrote or removed.
type ChangedFile struct {
	Path   string     `json:"path"`
	Action FileAction `json:"action"`
}

// Change is what an operation did: its journal id (for undo), the files,
// every scan finding in what was written (blocking ones were forced),
// and a unified diff.
type Change struct {
	ID       string         `json:"id"`
	Op       journal.OpKind `json:"op"`
	Summary  string         `json:"summary"`
	Files    []ChangedFile  `json:"files"`
	Findings []scan.Finding `json:"findings,omitempty"`
	Diff     string         `json:"diff"`
}

// Open reads the memory folder dir through fsys (DirFS(dir)
// when nil). dir is the folder's path for messages and for turning
// absolute paths into folder paths; it may be missing (a project without
// memory yet: Create makes it). The problems are those of the read.
func Open(dir string, fsys FS) (*Store, []model.Problem) {
	if fsys == nil {
		fsys = DirFS(dir)
	}
	s := &Store{fsys: fsys, dir: dir, jfs: fsys, jname: journal.Path}
	if _, ok := fsys.(dirFS); ok && dir != "" {
		s.jlock = filepath.Join(dir, filepath.FromSlash(journal.Path))
	}
	return s, s.Reload()
}

// Reload reads the folder again: the store's view and the stamps writes
// are checked against become what is on disk now.
func (s *Store) Reload() []model.Problem {
	if s.doc {
		// A document's folder is a project's, maybe a large tree: only
		// the file a change names is read, when it is changed.
		s.mem, s.probs, s.stamps = &model.MemoryDir{Dir: s.dir}, nil, map[string]FileStamp{}
		return nil
	}
	md, probs := model.ReadMemoryDir(s.fsys, ".")
	md.Dir = s.dir
	s.mem, s.probs = md, probs
	s.stamps = map[string]FileStamp{model.MemoryIndexName: {}}
	if md.Index != nil {
		s.stamps[model.MemoryIndexName] = FileStamp{Exists: true, Size: md.IndexSize, ModTime: md.IndexModTime, SHA256: hashBytes(md.Index.Bytes())}
	}
	for _, f := range md.Files {
		s.stamps[f.Path] = FileStamp{Exists: true, Size: f.Size, ModTime: f.ModTime, SHA256: hashBytes(f.Raw())}
	}
	return probs
}

// Memory returns the folder as the store last read it (paths relative to
// the folder). Do not modify it.
func (s *Store) Memory() *model.MemoryDir { return s.mem }

// Problems returns the problems of the last read.
func (s *Store) Problems() []model.Problem { return s.probs }

// Dir returns the memory folder's path as given to OpenMemoryStore.
func (s *Store) Dir() string { return s.dir }

// expected is the stamp a file must still have for a change to touch
// it: as read for MEMORY.md and topic files (absent when the read did
// not see one); unknown (false) for anything else, such as the trash.
func (s *Store) expected(rel string) (FileStamp, bool) {
	if s.doc {
		return FileStamp{}, false
	}
	if st, ok := s.stamps[rel]; ok {
		return st, true
	}
	return FileStamp{}, model.IsMemoryTopicPath(rel)
}

// Rel turns p (a path relative to the memory folder, or an absolute path
// inside it) into a clean slash path relative to the folder.
func (s *Store) Rel(p string) (string, error) {
	if filepath.IsAbs(p) {
		if s.dir == "" {
			return "", fmt.Errorf("%s: absolute path but the store has no folder path", p)
		}
		r, err := filepath.Rel(s.dir, p)
		if err != nil {
			return "", fmt.Errorf("%s is not inside the memory folder %s", p, s.dir)
		}
		p = r
	}
	rel := path.Clean(filepath.ToSlash(p))
	if rel == "." || rel == ".." || strings.HasPrefix(rel, "../") || !fs.ValidPath(rel) {
		return "", fmt.Errorf("%s is not a file inside the memory folder %s", p, s.dir)
	}
	return rel, nil
}

// topicFile returns the folder path of p and the topic file there as the
// store read it.
func (s *Store) topicFile(p string) (string, *model.MemoryFile, error) {
	rel, err := s.Rel(p)
	if err != nil {
		return "", nil, err
	}
	if f := s.mem.File(rel); f != nil {
		return rel, f, nil
	}
	return "", nil, fmt.Errorf("%s is not a memory file of %s", rel, s.dir)
}

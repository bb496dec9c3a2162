package live

import (
	"errors"

	"io"
	"io/fs"
	"path"
	"strings"
	"sync"
	"time"

	"github.com/memscope/memscope/engine/memindex"
	"github.com/memscope/memscope/model"
)

// IndexHeadMax is the most of MEMORY.md read to judge it against its
// caps. The client loads at most 25000 characters, and a character is at
// most 3 bytes of UTF-8 (4 for a pair of UTF-16 units), so a file cut
// here is over the size cap whatever the rest holds.
const IndexHeadMax = 128 << 10

// FileStamp is what tells one version of a file from another without
// reading it.
type FileStamp struct {
	Size    int64     `json:"size"`
	ModTime time.Time `json:"modTime"`
}

// Same reports whether a and b describe the same version.
func (a FileStamp) Same(b FileStamp) bool { return a.Size == b.Size && a.ModTime.Equal(b.ModTime) }

// IndexState is MEMORY.md against the client's caps (engine/memindex).
type IndexState struct {
	// Lines and Chars measure the trimmed text as the client does
	// (characters are UTF-16 units); Size is the file's bytes.
	Lines int   `json:"lines"`
	Chars int   `json:"chars"`
	Size  int64 `json:"size"`
	// MaxLines and MaxChars are the caps.
	MaxLines  int  `json:"maxLines"`
	MaxChars  int  `json:"maxChars"`
	LinesOver bool `json:"linesOver,omitempty"`
	CharsOver bool `json:"charsOver,omitempty"`
	// Partial says only the first IndexHeadMax bytes were read: Lines and
	// Chars are lower bounds.
	Partial bool `json:"partial,omitempty"`
}

// Over reports whether the client cuts the file when it loads it.
func (s IndexState) Over() bool { return s.LinesOver || s.CharsOver }

// ReadIndex judges the MEMORY.md at name in fsys from at most
// IndexHeadMax bytes of it. It returns the bytes read.
func ReadIndex(fsys fs.FS, name string) (IndexState, int64, error) {
	// Opening a FIFO or a device could block or never end.
	f, err := model.OpenRegular(fsys, name)
	if err != nil {
		return IndexState{}, 0, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return IndexState{}, 0, err
	}
	head := make([]byte, min(info.Size(), IndexHeadMax))
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
		return IndexState{}, int64(n), err
	}
	head = head[:n]
	c := memindex.CapIndex(head)
	return IndexState{
		Lines: c.Lines, Chars: c.Chars, Size: info.Size(),
		MaxLines: memindex.MaxLines, MaxChars: memindex.MaxChars,
		LinesOver: c.LinesOver, CharsOver: c.CharsOver,
		Partial: info.Size() > int64(n),
	}, int64(n), nil
}

// MemoryState is one memory folder as the events need it: which memory
// files it holds, and MEMORY.md against its caps.
type MemoryState struct {
	// Dir is the folder (absolute); Exists is false when it is missing.
	Dir    string `json:"dir"`
	Exists bool   `json:"exists"`
	// Files are the memory files by path relative to Dir: MEMORY.md,
	// topic files and team memory (see IsMemoryPath).
	Files map[string]FileStamp `json:"files"`
	// Index is MEMORY.md's state; nil when there is none.
	Index *IndexState `json:"index,omitempty"`
}

// TopicFiles counts the folder's topic files (model.IsMemoryTopicPath):
// what Projects, Memories and stat call its memory files. MEMORY.md (the
// index) and team memory are not among them.
func (s MemoryState) TopicFiles() int {
	n := 0
	for rel := range s.Files {
		if model.IsMemoryTopicPath(rel) {
			n++
		}
	}
	return n
}

// IsMemoryPath reports whether rel (relative to a memory folder) is a
// file the client loads as memory: MEMORY.md, a topic file
// (model.IsMemoryTopicPath) or the same inside team/.
func IsMemoryPath(rel string) bool {
	if rel == model.MemoryIndexName || model.IsMemoryTopicPath(rel) {
		return true
	}
	team, ok := strings.CutPrefix(rel, "team/")
	return ok && (team == model.MemoryIndexName || model.IsMemoryTopicPath(team))
}

// ReadMemoryState lists the memory folder dir (absolute) through root,
// an fs.FS rooted at "/" (model.RootName): stat only, except MEMORY.md,
// whose head is read when its size or mtime differ from prev's (pass the
// previous state, or a zero one).
func ReadMemoryState(root fs.FS, dir string, prev MemoryState) (MemoryState, []model.Problem) {
	st := MemoryState{Dir: dir, Files: map[string]FileStamp{}}
	name := model.RootName(dir)
	info, err := fs.Stat(root, name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return st, nil
	case err != nil:
		return st, []model.Problem{{File: dir, Kind: model.ProblemUnreadable, Reason: err.Error()}}
	case !info.IsDir():
		return st, []model.Problem{{File: dir, Kind: model.ProblemUnreadable, Reason: "memory folder is not a folder"}}
	}
	st.Exists = true
	var probs []model.Problem
	fs.WalkDir(root, name, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			probs = append(probs, model.Problem{File: "/" + p, Kind: model.ProblemUnreadable, Reason: err.Error()})
			return nil
		}
		if p == name {
			return nil
		}
		rel := strings.TrimPrefix(p, name+"/")
		if name == "." {
			rel = p
		}
		if d.IsDir() {
			if strings.HasPrefix(d.Name(), ".") || rel == "logs" || rel == "sessions" || rel == "proposals" {
				return fs.SkipDir
			}
			return nil
		}
		if !IsMemoryPath(rel) {
			return nil
		}
		fi, err := fs.Stat(root, p) // follows a symlinked file
		if err != nil || !fi.Mode().IsRegular() {
			return nil
		}
		st.Files[rel] = FileStamp{Size: fi.Size(), ModTime: fi.ModTime()}
		return nil
	})
	if stamp, ok := st.Files[model.MemoryIndexName]; ok {
		if old, ok := prev.Files[model.MemoryIndexName]; ok && prev.Index != nil && old.Same(stamp) {
			ix := *prev.Index
			st.Index = &ix
		} else if ix, _, err := ReadIndex(root, path.Join(name, model.MemoryIndexName)); err == nil {
			st.Index = &ix
		} else {
			probs = append(probs, model.Problem{File: path.Join(dir, model.MemoryIndexName), Kind: model.ProblemUnreadable, Reason: err.Error()})
		}
	}
	return st, probs
}

// MemoryDirResolver returns a SessionOptions.MemoryDir that applies the
// client's rules (model.ResolveMemoryLocation, with the settings files
// that apply to the session's folder) through root, an fs.FS rooted at
// "/". It returns "" where auto memory is off. Answers are kept per
// folder: settings and git roots do not move under a running session
// often enough to pay for looking again.
func MemoryDirResolver(root fs.FS, homeDir, userHome string, getenv func(string) string) func(cwd string) string {
	var mu sync.Mutex
	seen := map[string]string{}
	return func(cwd string) string {
		mu.Lock()
		defer mu.Unlock()
		if d, ok := seen[cwd]; ok {
			return d
		}
		settings, _ := model.LoadSettings(root, homeDir, cwd, model.ManagedDir)
		loc := model.ResolveMemoryLocation(model.MemoryOptions{Root: root, HomeDir: homeDir, UserHome: userHome, StartDir: cwd, Getenv: getenv, Settings: settings})
		d := ""
		if loc.Enabled {
			d = loc.Dir
		}
		seen[cwd] = d
		return d
	}
}

// SettingsResolver returns SessionOptions.Settings for a home: the
// client's settings files for a session started in cwd, read once per
// folder.
func SettingsResolver(root fs.FS, homeDir string) func(cwd string) model.SettingsStack {
	var mu sync.Mutex
	seen := map[string]model.SettingsStack{}
	return func(cwd string) model.SettingsStack {
		mu.Lock()
		defer mu.Unlock()
		if st, ok := seen[cwd]; ok {
			return st
		}
		st, _ := model.LoadSettings(root, homeDir, cwd, model.ManagedDir)
		seen[cwd] = st
		return st
	}
}

// AutocompactResolver returns SessionOptions.Autocompact for a home: the
// autoCompactEnabled setting in force for a session started in cwd (user,
// project, local and managed settings, as the client stacks them), read
// once per folder.
func AutocompactResolver(root fs.FS, homeDir string) func(cwd string) (bool, string) {
	type answer struct {
		on   bool
		from string
	}
	var mu sync.Mutex
	seen := map[string]answer{}
	return func(cwd string) (bool, string) {
		mu.Lock()
		defer mu.Unlock()
		if a, ok := seen[cwd]; ok {
			return a.on, a.from
		}
		settings, _ := model.LoadSettings(root, homeDir, cwd, model.ManagedDir)
		var a answer
		var from *model.Settings
		a.on, from = settings.AutoCompactEnabled()
		if from != nil {
			a.from = from.Path
		}
		seen[cwd] = a
		return a.on, a.from
	}
}

// regularFile checks that name is a regular file (symlinks followed)
// before it is opened: opening a FIFO blocks until a writer comes, which
// a status line cannot afford.

package provenance

import (
	"io/fs"
	"path"
	"slices"

	"github.com/memscope/memscope/model"
)

// ProjectOptions say where a project's memory and transcripts are.
type ProjectOptions struct {
	// Root is the machine from "/" (model.RootName names), with the home
	// mounted at HomeDir: memory folders and agent memory are read
	// through it.
	Root fs.FS
	// Home is the Claude home (its transcripts); HomeDir its path.
	Home    fs.FS
	HomeDir string
	// MemoryDir is the project's auto memory (model.ResolveMemoryLocation;
	// "" when memory is off); Tree the project's root (the git root,
	// else its folder) for its agent memory.
	MemoryDir string
	Tree      string
	// Transcripts are the home's transcripts (nil: listed here).
	Transcripts []model.TranscriptFile
	Workers     int
	// Cache keeps first passes between scans (Options.Cache).
	Cache *FirstCache
}

// Project is the provenance of one project's memory: every memory file
// with its origin, and the scan behind it.
type Project struct {
	Folders []Folder `json:"folders"`
	Origins []Origin `json:"files"`
	// Scan is what the transcripts hold; Writes lists every call, on
	// files that are gone too.
	Scan     Report          `json:"scan"`
	Problems []model.Problem `json:"problems"`
}

// ForProject reads a project's memory files, scans every transcript of
// the home for calls on them (a memory folder is shared by every session
// started under the git root, and by worktrees, so the whole home is
// read, byte-first), reads memscope's journals and says where each file
// came from.
func ForProject(o ProjectOptions) Project {
	p := Project{Folders: ProjectFolders(o.HomeDir, o.MemoryDir, o.Tree)}
	files := o.Transcripts
	if files == nil {
		var probs []model.Problem
		files, probs = model.FindTranscripts(o.Home)
		p.Problems = append(p.Problems, probs...)
	}
	p.Scan = Scan(Options{Home: o.Home, Transcripts: files, Folders: p.Folders, Workers: o.Workers, Cache: o.Cache})
	p.Problems = append(p.Problems, p.Scan.Problems...)
	mfs, probs := ListFiles(o.Root, p.Folders)
	p.Problems = append(p.Problems, probs...)
	var dirs []string
	if o.MemoryDir != "" {
		dirs = append(dirs, o.MemoryDir)
	}
	for _, f := range mfs {
		if f.Kind.IsAgent() {
			if d := path.Join(p.Folders[f.Folder].Dir, f.Agent); !slices.Contains(dirs, d) {
				dirs = append(dirs, d)
			}
		}
	}
	changes, probs := ReadJournals(o.Root, dirs...)
	p.Problems = append(p.Problems, probs...)
	onDisk := map[string]bool{}
	for _, t := range files {
		onDisk[t.SessionID] = true
	}
	p.Origins = Origins(mfs, p.Scan.Writes, changes, onDisk)
	if p.Problems == nil {
		p.Problems = []model.Problem{}
	}
	return p
}

// Find returns the origin of the file at abs (absolute), or nil.
func (p *Project) Find(abs string) *Origin {
	abs = path.Clean(abs)
	for i := range p.Origins {
		if p.Origins[i].Abs == abs {
			return &p.Origins[i]
		}
	}
	return nil
}

// ForProjects is ForProject for several projects' auto memory (agent
// memory aside) with one scan of the home's transcripts: what the
// Projects list's review counts need. Each options' Home, Root, HomeDir
// and Transcripts must be the same.
func ForProjects(opts []ProjectOptions) []Project {
	out := make([]Project, len(opts))
	if len(opts) == 0 {
		return out
	}
	o0 := opts[0]
	files := o0.Transcripts
	var probs []model.Problem
	if files == nil {
		files, probs = model.FindTranscripts(o0.Home)
	}
	var folders []Folder
	first := make([]int, len(opts))
	for i, o := range opts {
		first[i] = len(folders)
		if o.MemoryDir != "" {
			folders = append(folders, ProjectFolders(o.HomeDir, o.MemoryDir, "")[0])
		}
	}
	scan := Scan(Options{Home: o0.Home, Transcripts: files, Folders: folders, Workers: o0.Workers, Cache: o0.Cache})
	onDisk := map[string]bool{}
	for _, t := range files {
		onDisk[t.SessionID] = true
	}
	for i, o := range opts {
		p := Project{Problems: append([]model.Problem{}, probs...), Scan: Report{Writes: []Write{}, Transcripts: scan.Transcripts, Decoded: scan.Decoded, Bytes: scan.Bytes}}
		if o.MemoryDir == "" {
			out[i] = p
			continue
		}
		p.Folders = folders[first[i] : first[i]+1]
		for _, w := range scan.Writes {
			if w.Folder == first[i] {
				w.Folder = 0
				p.Scan.Writes = append(p.Scan.Writes, w)
			}
		}
		mfs, fprobs := ListFiles(o.Root, p.Folders)
		changes, jprobs := ReadJournals(o.Root, o.MemoryDir)
		p.Problems = append(append(p.Problems, fprobs...), jprobs...)
		p.Origins = Origins(mfs, p.Scan.Writes, changes, onDisk)
		out[i] = p
	}
	return out
}

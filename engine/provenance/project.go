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
	p.Scan = Scan(Options{Home: o.Home, Transcripts: files, Folders: p.Folders, Workers: o.Workers})
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

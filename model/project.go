package model

import (
	"io"
	"io/fs"
	"sort"
	"time"
)

// Project is one projects/<slug>/ folder of a home.
type Project struct {
	Slug string `json:"slug"`
	// Dir is the folder, relative to the home ("projects/<slug>").
	Dir string `json:"dir"`
	// Path is the project's real folder, recovered from the cwd of its
	// newest transcripts (the slug is lossy); "" when none says.
	Path string `json:"path"`
	// Sessions counts main transcripts; Subagents subagent transcripts.
	Sessions  int `json:"sessions"`
	Subagents int `json:"subagents"`
	// TranscriptBytes is the size of all its transcripts.
	TranscriptBytes int64 `json:"transcriptBytes"`
	// LastActivity is the newest transcript mtime, else the folder's mtime.
	LastActivity time.Time `json:"lastActivity"`
	// HasMemory says whether the memory/ folder exists.
	HasMemory bool `json:"hasMemory"`
}

// cwdProbe bounds the reading done to recover a project's path: a few
// transcripts, and only the start of each.
const (
	cwdProbeFiles = 3
	cwdProbeBytes = 1 << 20
)

// ListProjects lists the projects of the home fsys, sorted by slug.
// Unreadable folders and broken symlinks are reported, not fatal.
func ListProjects(fsys fs.FS) ([]Project, []Problem) {
	ps, _, probs := ListProjectsFiles(fsys)
	return ps, probs
}

// ListProjectsFiles is ListProjects that also returns the transcripts it
// counted, per project slug, newest first: a caller that follows the home
// updates a project from them (Project.SetTranscripts) when one changes.
//
// projects/ and each project folder are listed once between the walk and
// the projects' own reads (ListOnce; for a home, their files opened from
// the folders' descriptors): the Projects list lists projects/ once, not
// twice.
func ListProjectsFiles(fsys fs.FS) ([]Project, map[string][]TranscriptFile, []Problem) {
	l := ListOnce(fsys)
	sf, probs := FindSessionFiles(l)
	return ListProjectsFrom(l, sf, probs)
}

// ListProjectsFrom is ListProjectsFiles for a caller that already has
// FindSessionFiles' answer (sf and its problems, which are returned with
// the projects'), so the home is walked once.
func ListProjectsFrom(fsys fs.FS, sf SessionFiles, sfProbs []Problem) ([]Project, map[string][]TranscriptFile, []Problem) {
	probs := append([]Problem(nil), sfProbs...)
	bySlug := transcriptsBySlug(sf.Transcripts)
	// listDir problems were already reported by FindSessionFiles.
	var dup []Problem
	var dirs []dirEntry
	for _, d := range listDir(fsys, "projects", &dup) {
		if d.dir {
			dirs = append(dirs, d)
		}
	}
	// Each project's own reads (its memory folder, the first lines of
	// its newest transcripts) are done side by side, in place.
	out := make([]Project, len(dirs))
	Parallel(len(dirs), func(i int) {
		d := dirs[i]
		p := Project{Slug: d.name, Dir: d.path, LastActivity: d.mod}
		if st, err := fs.Stat(fsys, d.path+"/memory"); err == nil && st.IsDir() {
			p.HasMemory = true
		}
		ts := bySlug[d.name]
		p.SetTranscripts(ts)
		p.Path = ProbeProjectPath(fsys, ts)
		out[i] = p
	})
	return out, bySlug, probs
}

// SortNewestFirst orders transcripts newest first, and those of one mtime
// by path: a clone or a copy gives many files one mtime (a coarse clock
// tick), and the order must not hang on the listing's.
func SortNewestFirst(ts []TranscriptFile) {
	sort.Slice(ts, func(i, j int) bool {
		if !ts[i].ModTime.Equal(ts[j].ModTime) {
			return ts[i].ModTime.After(ts[j].ModTime)
		}
		return ts[i].Path < ts[j].Path
	})
}

// SetTranscripts sets p's session counts, transcript bytes and last
// activity from its transcripts, which it sorts newest first. With none,
// LastActivity is left as it is (ListProjects sets the folder's mtime).
func (p *Project) SetTranscripts(ts []TranscriptFile) {
	SortNewestFirst(ts)
	p.TranscriptBytes, p.Sessions, p.Subagents = 0, 0, 0
	for i, t := range ts {
		if i == 0 {
			p.LastActivity = t.ModTime
		}
		p.TranscriptBytes += t.Size
		if t.Kind == TranscriptMain {
			p.Sessions++
		} else {
			p.Subagents++
		}
	}
}

// ProbeProjectPath returns the project's real folder: the first cwd in
// its newest main transcripts (newestFirst as SetTranscripts sorts them),
// reading only their first lines.
func ProbeProjectPath(fsys fs.FS, newestFirst []TranscriptFile) string {
	return probeCWD(fsys, newestFirst)
}

// smallReads reads at most probeChunk bytes at a time.
type smallReads struct{ r io.Reader }

// probeChunk is the most probeCWD reads at a time.
const probeChunk = 8 << 10

func (s smallReads) Read(p []byte) (int, error) { return s.r.Read(p[:min(len(p), probeChunk)]) }

// probeCWD returns the first cwd in the newest main transcripts, reading
// only their first lines.
func probeCWD(fsys fs.FS, newestFirst []TranscriptFile) string {
	tried := 0
	for _, t := range newestFirst {
		if t.Kind != TranscriptMain {
			continue
		}
		if tried == cwdProbeFiles {
			break
		}
		tried++
		f, err := OpenRegular(fsys, t.Path)
		if err != nil {
			continue
		}
		var cwd string
		// In small reads, into a buffer of that size: the line reader's
		// would otherwise take a quarter of a megabyte of the file where
		// the cwd is in its first lines, and make a quarter of a megabyte
		// of garbage a file (a start lists the projects several times).
		_, _ = ScanTranscript(io.LimitReader(smallReads{f}, cwdProbeBytes), t.Path, ScanOptions{lineBuf: probeChunk}, func(r *Record) error {
			if r.CWD != "" {
				cwd = r.CWD
				return ErrStopScan
			}
			return nil
		})
		f.Close()
		if cwd != "" {
			return cwd
		}
	}
	return ""
}

// transcriptsBySlug groups ts by project (those without one left out),
// in ts's order, each group a copy (SetTranscripts sorts it in place)
// cut from one array sized once.
func transcriptsBySlug(ts []TranscriptFile) map[string][]TranscriptFile {
	counts := map[string]int{}
	n := 0
	for i := range ts {
		if s := ts[i].ProjectSlug; s != "" {
			counts[s]++
			n++
		}
	}
	bySlug := make(map[string][]TranscriptFile, len(counts))
	all := make([]TranscriptFile, 0, n)
	for i := range ts {
		s := ts[i].ProjectSlug
		if s == "" {
			continue
		}
		g, ok := bySlug[s]
		if !ok {
			c := counts[s]
			g, all = all[:0:c], all[c:c:cap(all)]
		}
		bySlug[s] = append(g, ts[i])
	}
	return bySlug
}

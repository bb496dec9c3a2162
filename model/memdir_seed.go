package model

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strings"
)

// SecondaryKind names a memory store other than the project's auto-memory
// folder and its agents' memory (ListMemoryStores): team memory, and the
// layouts the seed documents describe. The client may not read them all;
// memscope shows them labelled.
type SecondaryKind string

// The secondary stores.
const (
	// SecondaryTeam is <memory dir>/team/, shared team memory.
	SecondaryTeam SecondaryKind = "team-memory"
	// SecondaryDailyLog is $H/memory/YYYY/MM/YYYY-MM-DD.md (seed layout).
	SecondaryDailyLog SecondaryKind = "daily-log"
	// SecondarySessionMemory is $H/sessionMemory.md (seed layout).
	SecondarySessionMemory SecondaryKind = "session-memory"
	// SecondaryRepoIndex is <repo>/.claude/MEMORY.md (seed layout).
	SecondaryRepoIndex SecondaryKind = "repo-memory-index"
)

// secondaryLabels say in words what each store is.
var secondaryLabels = map[SecondaryKind]string{
	SecondaryTeam:          "team memory (shared with the team)",
	SecondaryDailyLog:      "daily memory log (older layout from the seed documents)",
	SecondarySessionMemory: "session memory notes (older layout from the seed documents)",
	SecondaryRepoIndex:     "repository MEMORY.md (older layout from the seed documents)",
}

// SecondarySource is one secondary memory store found on disk.
type SecondarySource struct {
	Kind SecondaryKind `json:"kind"`
	// Label says what the store is, for display.
	Label string `json:"label"`
	// Path is the absolute folder or file.
	Path string `json:"path"`
	// Files are the memory files of the store (for daily logs, each
	// Path is "YYYY/MM/YYYY-MM-DD.md").
	Files []*MemoryFile `json:"files,omitempty"`
	// Index is the store's MEMORY.md, when it has one.
	Index *MemoryIndex `json:"-"`
}

// SecondaryOptions says where to look for secondary stores. Root is an
// fs.FS rooted at "/"; the paths are absolute; an empty path is skipped.
type SecondaryOptions struct {
	Root      fs.FS
	HomeDir   string
	RepoDir   string
	MemoryDir string
}

// dailyLogRE matches the seed layout of daily logs under $H/memory/.
var dailyLogRE = regexp.MustCompile(`^(\d{4})/(\d{2})/(\d{4})-(\d{2})-(\d{2})\.md$`)

// ReadSecondaryMemory finds and reads every secondary store that exists.
func ReadSecondaryMemory(o SecondaryOptions) ([]SecondarySource, []Problem) {
	root := orEmpty(o.Root)
	var out []SecondarySource
	var probs []Problem
	if o.MemoryDir != "" {
		dir := path.Join(o.MemoryDir, "team")
		md, p := ReadMemoryDir(root, RootName(dir))
		probs = append(probs, p...)
		if md.Exists && (md.Index != nil || len(md.Files) > 0) {
			out = append(out, SecondarySource{Kind: SecondaryTeam, Label: secondaryLabels[SecondaryTeam], Path: dir, Files: md.Files, Index: md.Index})
		}
	}
	if o.HomeDir != "" {
		s, p := readDailyLogs(root, path.Join(o.HomeDir, "memory"))
		probs = append(probs, p...)
		if s != nil {
			out = append(out, *s)
		}
		if f, p := readOptionalMemoryFile(root, path.Join(o.HomeDir, "sessionMemory.md")); f != nil || p != nil {
			if p != nil {
				probs = append(probs, *p)
			}
			if f != nil {
				out = append(out, SecondarySource{Kind: SecondarySessionMemory, Label: secondaryLabels[SecondarySessionMemory], Path: path.Join(o.HomeDir, "sessionMemory.md"), Files: []*MemoryFile{f}})
			}
		}
	}
	if o.RepoDir != "" {
		p := path.Join(o.RepoDir, ".claude", MemoryIndexName)
		if data, err := ReadFileBounded(root, RootName(p), MaxDocumentBytes); err == nil {
			out = append(out, SecondarySource{Kind: SecondaryRepoIndex, Label: secondaryLabels[SecondaryRepoIndex], Path: p, Index: ParseMemoryIndex(data)})
		} else if !errors.Is(err, fs.ErrNotExist) {
			probs = append(probs, Problem{File: p, Kind: ProblemUnreadable, Reason: fmt.Sprintf("read %s: %v", p, err)})
		}
	}
	// Everything here was read through the root: name files by their
	// absolute paths, as they are shown everywhere else.
	for i := range probs {
		probs[i].File = RootPath(probs[i].File)
	}
	return out, probs
}

func readOptionalMemoryFile(root fs.FS, abs string) (*MemoryFile, *Problem) {
	if _, err := fs.Stat(root, RootName(abs)); errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return ReadMemoryFile(root, RootName(abs), path.Base(abs))
}

// readDailyLogs reads $H/memory/YYYY/MM/YYYY-MM-DD.md files. Other files
// there are not daily logs and are left alone.
func readDailyLogs(root fs.FS, dir string) (*SecondarySource, []Problem) {
	base := RootName(dir)
	if _, err := fs.Stat(root, base); err != nil {
		return nil, nil
	}
	src := &SecondarySource{Kind: SecondaryDailyLog, Label: secondaryLabels[SecondaryDailyLog], Path: dir}
	var probs []Problem
	_ = fs.WalkDir(root, base, func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			probs = append(probs, Problem{File: name, Kind: ProblemUnreadable, Reason: fmt.Sprintf("read daily logs: %v", err)})
			return nil
		}
		rel := strings.TrimPrefix(name, base+"/")
		m := dailyLogRE.FindStringSubmatch(rel)
		if d.IsDir() || m == nil || m[1] != m[3] || m[2] != m[4] {
			return nil
		}
		f, p := ReadMemoryFile(root, name, rel)
		if p != nil {
			probs = append(probs, *p)
		}
		if f != nil {
			src.Files = append(src.Files, f)
		}
		return nil
	})
	if len(src.Files) == 0 {
		return nil, probs
	}
	sort.Slice(src.Files, func(i, j int) bool { return src.Files[i].Path < src.Files[j].Path })
	return src, probs
}

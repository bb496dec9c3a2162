package model

import (
	"errors"
	"io/fs"
	"path"
	"sort"
	"strings"
	"time"
)

// TranscriptKind says where a transcript file sits and what it holds.
type TranscriptKind string

// The kinds of transcript file.
const (
	// TranscriptMain is projects/<slug>/<sessionId>.jsonl.
	TranscriptMain TranscriptKind = "main"
	// TranscriptSubagent is projects/<slug>/<sessionId>/subagents/agent-<id>.jsonl.
	TranscriptSubagent TranscriptKind = "subagent"
	// TranscriptSeed is sessions/<id>/transcript.jsonl, the layout some seed
	// documents describe; a secondary source.
	TranscriptSeed TranscriptKind = "seed"
	// TranscriptReplaced is an older full copy of a main transcript a
	// local GC rewrote (CLAUDE_CODE_TRANSCRIPT_LOCAL_GC=keep, 2.1.332):
	// projects/<slug>/<sessionId>/before-cleanup/<epoch ms>-<hex>.jsonl.replaced.
	// Its rows before the boundary exist only there.
	TranscriptReplaced TranscriptKind = "replaced"
)

// ReplacedDir and ReplacedSuffix name a session's older transcripts.
const (
	ReplacedDir    = "before-cleanup"
	ReplacedSuffix = ".jsonl.replaced"
)

// TranscriptFile is one transcript found in a home. Path is slash-separated
// and relative to the home.
type TranscriptFile struct {
	Path        string `json:"path"`
	ProjectSlug string `json:"projectSlug,omitempty"`
	SessionID   string `json:"sessionId"`
	AgentID     string `json:"agentId,omitempty"`
	// MetaPath is a subagent transcript's agent-<id>.meta.json beside it
	// (see ReadSubagentMeta), "" when there is none.
	MetaPath string         `json:"metaPath,omitempty"`
	Kind     TranscriptKind `json:"kind"`
	Size     int64          `json:"size"`
	ModTime  time.Time      `json:"modTime"`
}

// ToolResultFile is a large tool result the client saved beside a session:
// projects/<slug>/<sessionId>/tool-results/<id>.txt.
type ToolResultFile struct {
	Path        string    `json:"path"`
	ProjectSlug string    `json:"projectSlug"`
	SessionID   string    `json:"sessionId"`
	ID          string    `json:"id"`
	Size        int64     `json:"size"`
	ModTime     time.Time `json:"modTime"`
}

// SessionFiles is every session file of a home.
type SessionFiles struct {
	Transcripts []TranscriptFile
	// Replaced are the older copies a local GC kept (TranscriptReplaced),
	// apart from Transcripts so that no count reads a session twice.
	Replaced    []TranscriptFile
	ToolResults []ToolResultFile
	// SubagentMeta are the subagents' agent-<id>.meta.json files
	// (relative paths), whether or not their transcript is there.
	SubagentMeta []string
}

// FindTranscripts lists the transcripts of the home fsys, sorted by path.
func FindTranscripts(fsys fs.FS) ([]TranscriptFile, []Problem) {
	sf, probs := FindSessionFiles(fsys)
	return sf.Transcripts, probs
}

// FindSessionFiles lists transcripts (main, subagent, seed) and tool-result
// files of the home fsys, sorted by path. Folders that cannot be read and
// symlinks that cannot be followed (dangling, looping) are reported and
// skipped. The walk has a fixed depth, so symlinked folders that point back
// up cannot make it loop.
//
// A listed home (ListOnce) walks itself once: its listings and entries'
// information are those of one moment, so every later call answers a
// copy of the first's (the Overview's lines ask it seven times a pass).
func FindSessionFiles(fsys fs.FS) (SessionFiles, []Problem) {
	if l, ok := fsys.(*listedFS); ok {
		return l.sessionFiles()
	}
	return findSessionFilesAll(fsys)
}

// findSessionFilesAll is FindSessionFiles' walk.
func findSessionFilesAll(fsys fs.FS) (SessionFiles, []Problem) {
	defer HoldWalk(fsys)()
	var sf SessionFiles
	var probs []Problem
	// The projects are walked side by side (a home holds hundreds of
	// session folders, and each costs a few calls into the system), each
	// into its own part; the parts are joined in the folder's order, so
	// the answer is the one a walk in order gives.
	dirs := listDir(fsys, "projects", &probs)
	type part struct {
		sf    SessionFiles
		probs []Problem
	}
	parts := make([]part, len(dirs))
	Parallel(len(dirs), func(i int) {
		if dirs[i].dir {
			findProject(fsys, dirs[i].name, dirs[i].path, dirs[i].info, &parts[i].sf, &parts[i].probs)
		}
	})
	// Sized once for the parts (sessions/ adds few).
	var nt, nr int
	for _, pt := range parts {
		nt += len(pt.sf.Transcripts)
		nr += len(pt.sf.ToolResults)
	}
	if nt > 0 {
		sf.Transcripts = make([]TranscriptFile, 0, nt)
	}
	if nr > 0 {
		sf.ToolResults = make([]ToolResultFile, 0, nr)
	}
	for _, pt := range parts {
		sf.Transcripts = append(sf.Transcripts, pt.sf.Transcripts...)
		sf.ToolResults = append(sf.ToolResults, pt.sf.ToolResults...)
		sf.Replaced = append(sf.Replaced, pt.sf.Replaced...)
		sf.SubagentMeta = append(sf.SubagentMeta, pt.sf.SubagentMeta...)
		probs = append(probs, pt.probs...)
	}
	for _, s := range listDir(fsys, "sessions", &probs) {
		if !s.dir {
			continue // sessions/<pid>.json are live-process records
		}
		p := s.path + "/transcript.jsonl"
		st, err := fs.Stat(fsys, p)
		switch {
		case err == nil && st.Mode().IsRegular():
			sf.Transcripts = append(sf.Transcripts, TranscriptFile{Path: p, SessionID: s.name,
				Kind: TranscriptSeed, Size: st.Size(), ModTime: st.ModTime()})
		case err != nil && !errors.Is(err, fs.ErrNotExist):
			probs = append(probs, Problem{File: p, Kind: ProblemUnreadable, Reason: err.Error()})
		}
	}
	sort.Slice(sf.Transcripts, func(i, j int) bool { return sf.Transcripts[i].Path < sf.Transcripts[j].Path })
	sort.Slice(sf.ToolResults, func(i, j int) bool { return sf.ToolResults[i].Path < sf.ToolResults[j].Path })
	sort.Strings(sf.SubagentMeta)
	return sf, probs
}

// findProject adds the transcripts and tool results of the project
// folder dir (projects/<slug>), whose information, when not nil, is
// info (its entry's in projects/, for the trusted folders' rule).
func findProject(fsys fs.FS, slug, dir string, info fs.FileInfo, sf *SessionFiles, probs *[]Problem) {
	for _, e := range listDirInfo(fsys, dir, info, probs) {
		switch {
		case !e.dir && strings.HasSuffix(e.name, ".jsonl"):
			sf.Transcripts = append(sf.Transcripts, TranscriptFile{Path: e.path, ProjectSlug: slug,
				SessionID: strings.TrimSuffix(e.name, ".jsonl"), Kind: TranscriptMain, Size: e.size, ModTime: e.mod})
		case e.dir && e.name != "memory":
			findSessionDir(fsys, slug, e, sf, probs)
		}
	}
}

// FindProjectTranscripts lists the transcripts of one project (main and
// subagent), sorted by path: what FindSessionFiles lists for it, reading
// only projects/<slug>.
func FindProjectTranscripts(fsys fs.FS, slug string) ([]TranscriptFile, []Problem) {
	sf, probs := FindProjectSessionFiles(fsys, slug)
	return sf.Transcripts, probs
}

// FindProjectSessionFiles is FindSessionFiles for one project: what it
// lists under projects/<slug> (transcripts, tool results, subagent meta
// files), sorted by path, reading only that folder.
func FindProjectSessionFiles(fsys fs.FS, slug string) (SessionFiles, []Problem) {
	defer HoldWalk(fsys)()
	var sf SessionFiles
	var probs []Problem
	findProject(fsys, slug, "projects/"+slug, nil, &sf, &probs)
	sort.Slice(sf.Transcripts, func(i, j int) bool { return sf.Transcripts[i].Path < sf.Transcripts[j].Path })
	sort.Slice(sf.ToolResults, func(i, j int) bool { return sf.ToolResults[i].Path < sf.ToolResults[j].Path })
	sort.Strings(sf.SubagentMeta)
	return sf, probs
}

// FindSessionTranscripts lists the transcripts of one session of project
// slug, sorted by path: projects/<slug>/<sessionID>.jsonl when it exists,
// and its subagents' (what FindSessionFiles lists for that session).
func FindSessionTranscripts(fsys fs.FS, slug, sessionID string) ([]TranscriptFile, []Problem) {
	sf, probs := findSessionFiles(fsys, slug, sessionID)
	return sf.Transcripts, probs
}

// FindSessionReplaced lists the .replaced copies of one session of
// project slug (SessionFiles.Replaced for it), sorted by path.
func FindSessionReplaced(fsys fs.FS, slug, sessionID string) []TranscriptFile {
	sf, _ := findSessionFiles(fsys, slug, sessionID)
	sort.Slice(sf.Replaced, func(i, j int) bool { return sf.Replaced[i].Path < sf.Replaced[j].Path })
	return sf.Replaced
}

// findSessionFiles is what FindSessionFiles lists for one session.
func findSessionFiles(fsys fs.FS, slug, sessionID string) (SessionFiles, []Problem) {
	var sf SessionFiles
	var probs []Problem
	dir := "projects/" + slug
	for _, e := range listEntries(fsys, dir, []string{sessionID + ".jsonl", sessionID}, &probs) {
		switch {
		case !e.dir && e.name == sessionID+".jsonl":
			sf.Transcripts = append(sf.Transcripts, TranscriptFile{Path: e.path, ProjectSlug: slug,
				SessionID: sessionID, Kind: TranscriptMain, Size: e.size, ModTime: e.mod})
		case e.dir && e.name == sessionID && e.name != "memory":
			findSessionDir(fsys, slug, e, &sf, &probs)
		}
	}
	sort.Slice(sf.Transcripts, func(i, j int) bool { return sf.Transcripts[i].Path < sf.Transcripts[j].Path })
	return sf, probs
}

// listEntries is listDir for the named entries of dir only: those that
// exist, with symlinks followed.
func listEntries(fsys fs.FS, dir string, names []string, probs *[]Problem) []dirEntry {
	var out []dirEntry
	for _, name := range names {
		if !fs.ValidPath(name) || strings.Contains(name, "/") {
			continue
		}
		p := dir + "/" + name
		info, err := fs.Stat(fsys, p)
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				*probs = append(*probs, Problem{File: p, Kind: ProblemUnreadable, Reason: err.Error()})
			}
			continue
		}
		out = append(out, dirEntry{name: name, path: p, dir: info.IsDir(), size: info.Size(), mod: info.ModTime(), info: info})
	}
	return out
}

// findSessionDir adds the subagent transcripts and tool results of one
// projects/<slug>/<sessionId>/ folder.
func findSessionDir(fsys fs.FS, slug string, sess dirEntry, sf *SessionFiles, probs *[]Problem) {
	has := sessionHolds(fsys, sess)
	list := func(name string) []dirEntry {
		if !has(name) {
			return nil
		}
		return listDir(fsys, sess.path+"/"+name, probs)
	}
	ents := list("subagents")
	metas := map[string]string{}
	for _, e := range ents {
		if !e.dir && strings.HasSuffix(e.name, SubagentMetaSuffix) {
			metas[strings.TrimSuffix(e.name, SubagentMetaSuffix)] = e.path
			sf.SubagentMeta = append(sf.SubagentMeta, e.path)
		}
	}
	for _, e := range ents {
		if e.dir || !strings.HasSuffix(e.name, ".jsonl") {
			continue
		}
		base := strings.TrimSuffix(e.name, ".jsonl")
		sf.Transcripts = append(sf.Transcripts, TranscriptFile{Path: e.path, ProjectSlug: slug, SessionID: sess.name,
			AgentID: strings.TrimPrefix(base, "agent-"), MetaPath: metas[base], Kind: TranscriptSubagent, Size: e.size, ModTime: e.mod})
	}
	for _, e := range list(ReplacedDir) {
		if !e.dir && strings.HasSuffix(e.name, ReplacedSuffix) {
			sf.Replaced = append(sf.Replaced, TranscriptFile{Path: e.path, ProjectSlug: slug, SessionID: sess.name,
				Kind: TranscriptReplaced, Size: e.size, ModTime: e.mod})
		}
	}
	for _, e := range list("tool-results") {
		if e.dir {
			continue
		}
		sf.ToolResults = append(sf.ToolResults, ToolResultFile{Path: e.path, ProjectSlug: slug,
			SessionID: sess.name, ID: strings.TrimSuffix(e.name, path.Ext(e.name)), Size: e.size, ModTime: e.mod})
	}
}

// sessionHolds says whether the session folder sess holds an entry of a
// name (of any type: a link is followed by the listing of it). On a file
// system trusting kept listings, the session folder's is had with no
// stat (its stamp is its entry's in the project's listing), so a
// subfolder it does not hold is not asked for at all (most sessions
// have no before-cleanup folder, many no subagents); elsewhere, or when
// that listing fails, every name is looked for as before.
func sessionHolds(fsys fs.FS, sess dirEntry) func(string) bool {
	all := func(string) bool { return true }
	ents, err, ok := stampedReadDir(fsys, sess.path, sess.info)
	if !ok || err != nil {
		return all
	}
	names := make(map[string]bool, len(ents))
	for _, e := range ents {
		names[e.Name()] = true
	}
	return func(name string) bool { return names[name] }
}

// dirEntry is a folder entry with symlinks followed.
type dirEntry struct {
	name, path string
	dir        bool
	size       int64
	mod        time.Time
	// info is the entry's information (a link followed).
	info fs.FileInfo
}

// listDir is ReadDirFollow as dirEntry values.
func listDir(fsys fs.FS, dir string, probs *[]Problem) []dirEntry {
	return listDirInfo(fsys, dir, nil, probs)
}

// listDirInfo is listDir of the folder dir whose information, when not
// nil, is info (stampedReadDir).
func listDirInfo(fsys fs.FS, dir string, info fs.FileInfo, probs *[]Problem) []dirEntry {
	var fol []Followed
	if ents, err, ok := stampedReadDir(fsys, dir, info); ok {
		fol = followListed(fsys, dir, ents, err, probs)
	} else {
		fol = ReadDirFollow(fsys, dir, probs)
	}
	out := make([]dirEntry, len(fol))
	for i, f := range fol {
		out[i] = dirEntry{name: f.Name, path: f.Path, dir: f.Info.IsDir(), size: f.Info.Size(), mod: f.Info.ModTime(), info: f.Info}
	}
	return out
}

// EarlierCopies counts, in sf, the sessions whose history before a
// compaction exists only in a .replaced copy (the client's local GC
// rewrote the transcript after a compaction, dropping the rows before
// the boundary, and kept the older file in the session's before-cleanup
// folder), the copies, and the sessions among them whose rewritten
// transcript is gone too (the copy is all there is). The Overview's line
// and the Retention pane say it.
type EarlierCopies struct {
	Sessions int `json:"sessions"`
	Copies   int `json:"copies"`
	Gone     int `json:"gone"`
}

// CountEarlierCopies is EarlierCopies of sf.
func CountEarlierCopies(sf SessionFiles) EarlierCopies {
	type key struct{ slug, id string }
	main := map[key]bool{}
	for _, t := range sf.Transcripts {
		if t.Kind == TranscriptMain {
			main[key{t.ProjectSlug, t.SessionID}] = true
		}
	}
	with, gone := map[key]bool{}, map[key]bool{}
	for _, t := range sf.Replaced {
		k := key{t.ProjectSlug, t.SessionID}
		with[k] = true
		if !main[k] {
			gone[k] = true
		}
	}
	return EarlierCopies{Sessions: len(with), Copies: len(sf.Replaced), Gone: len(gone)}
}

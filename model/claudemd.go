package model

import (
	"fmt"
	"io/fs"
	"strings"

	"gopkg.in/yaml.v3"
)

// ClaudeMdFile is a CLAUDE.md, CLAUDE.local.md or rules file. A rules file
// may start with frontmatter whose paths: key makes it conditional: it
// loads only when the session touches a matching file.
type ClaudeMdFile struct {
	// Path is the file's absolute path.
	Path string `json:"path"`
	// Paths are the glob patterns of paths:, empty for an unconditional file.
	Paths []string `json:"paths,omitempty"`
	// Content is the text after any frontmatter, as the client sends it
	// before comments are removed and it is trimmed.
	Content string `json:"-"`
	// Size is the file size in bytes.
	Size int64 `json:"size"`
	// Problem is set when the frontmatter could not be read; the file is
	// then treated as unconditional.
	Problem *Problem `json:"problem,omitempty"`
}

// Conditional reports whether the file loads only for matching paths.
func (f *ClaudeMdFile) Conditional() bool { return len(f.Paths) > 0 }

// ParseClaudeMd reads a CLAUDE.md or rules file. paths: may be a list of
// globs or one string of comma-separated globs.
func ParseClaudeMd(path string, data []byte) (*ClaudeMdFile, *Problem) {
	f := &ClaudeMdFile{Path: path, Size: int64(len(data))}
	fm, prob := ParseFrontmatter(path, data)
	switch {
	case fm.Present:
		f.Content = string(data[fm.BodyStart:])
	default:
		// A byte-order mark stays: the client sends it in a file joining
		// mid-session (a session-start file is trimmed, and JavaScript's
		// trim removes it).
		f.Content = string(data)
	}
	if prob != nil {
		f.Problem = prob
		return f, prob
	}
	if _, v := mapValue(fm.Root, "paths"); v != nil {
		f.Paths = globList(v)
	}
	return f, nil
}

// globList reads a paths: value: a sequence of strings, or one string of
// comma-separated patterns.
func globList(v *yaml.Node) []string {
	var raw []string
	switch v.Kind {
	case yaml.SequenceNode:
		for _, c := range v.Content {
			if s := scalarText(c); s != "" {
				raw = append(raw, s)
			}
		}
	case yaml.ScalarNode:
		raw = strings.Split(scalarText(v), ",")
	}
	var out []string
	for _, s := range raw {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// ReadClaudeMd reads the file name of fsys; abs is its absolute path.
func ReadClaudeMd(fsys fs.FS, name, abs string) (*ClaudeMdFile, *Problem) {
	data, err := ReadFileBounded(fsys, name, MaxDocumentBytes)
	if err != nil {
		return nil, &Problem{File: abs, Kind: ProblemUnreadable, Reason: fmt.Sprintf("read %s: %v", abs, err)}
	}
	return ParseClaudeMd(abs, data)
}

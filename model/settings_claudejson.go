package model

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
)

// ClaudeJSONProject is the per-project state the client keeps in
// ~/.claude.json, keyed by the project's git root.
type ClaudeJSONProject struct {
	HasTrustDialogAccepted              bool   `json:"hasTrustDialogAccepted,omitempty"`
	HasClaudeMdExternalIncludesApproved bool   `json:"hasClaudeMdExternalIncludesApproved,omitempty"`
	LastSessionID                       string `json:"lastSessionId,omitempty"`
}

// ClaudeJSON is the part of ~/.claude.json memscope reads.
type ClaudeJSON struct {
	// Path is the absolute path of the file that was read.
	Path     string                       `json:"path,omitempty"`
	Projects map[string]ClaudeJSONProject `json:"projects,omitempty"`
}

// ClaudeJSONPaths returns where the client keeps .claude.json, in the order
// to try: inside $CLAUDE_CONFIG_DIR when that is set (configDir non-empty),
// then ~/.claude.json.
func ClaudeJSONPaths(configDir, userHome string) []string {
	var out []string
	if configDir != "" {
		out = append(out, path.Join(configDir, ".claude.json"))
	}
	if userHome != "" {
		out = append(out, path.Join(userHome, ".claude.json"))
	}
	return out
}

// ParseClaudeJSON reads the projects table of a .claude.json body. Bad JSON
// is reported with its line; entries of the wrong shape are skipped and
// reported.
func ParseClaudeJSON(file string, data []byte) (*ClaudeJSON, []Problem) {
	out := &ClaudeJSON{Path: file, Projects: map[string]ClaudeJSONProject{}}
	data = bytes.TrimPrefix(data, utf8BOM)
	var top struct {
		Projects map[string]json.RawMessage `json:"projects"`
	}
	if err := json.Unmarshal(data, &top); err != nil {
		var off int64
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			off = se.Offset
		case errors.As(err, &te):
			off = te.Offset
		}
		return out, []Problem{{File: file, Line: lineAt(data, off), Kind: ProblemMalformed, Reason: ".claude.json: " + err.Error()}}
	}
	var probs []Problem
	keys := make([]string, 0, len(top.Projects))
	for k := range top.Projects {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		raw := top.Projects[k]
		var p ClaudeJSONProject
		if err := json.Unmarshal(raw, &p); err != nil {
			probs = append(probs, Problem{File: file, Line: 0, Kind: ProblemMalformed, Reason: fmt.Sprintf(".claude.json project %q: %v (skipped)", k, err)})
			continue
		}
		out.Projects[k] = p
	}
	return out, probs
}

// ReadClaudeJSON reads the first of paths (absolute) that exists in root
// (an fs.FS rooted at "/"). It returns nil when none exists.
func ReadClaudeJSON(root fs.FS, paths []string) (*ClaudeJSON, []Problem) {
	for _, p := range paths {
		data, err := ReadFileBounded(root, RootName(p), MaxConfigBytes)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, []Problem{{File: p, Kind: ProblemUnreadable, Reason: fmt.Sprintf("read .claude.json: %v", err)}}
		}
		return ParseClaudeJSON(p, data)
	}
	return nil, nil
}

// ExternalIncludesApproved reports whether the user approved CLAUDE.md
// imports from outside the project whose git root (or startup directory)
// is key.
func (c *ClaudeJSON) ExternalIncludesApproved(key string) bool {
	if c == nil {
		return false
	}
	return c.Projects[key].HasClaudeMdExternalIncludesApproved
}

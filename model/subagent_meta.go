package model

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"sort"
	"strings"
)

// SubagentMetaSuffix ends the file the client writes next to a subagent's
// transcript: subagents/agent-<id>.meta.json.
const SubagentMetaSuffix = ".meta.json"

// SubagentMeta is what the client records about a subagent it spawned
// (FORMATS.md, "Subagents"). Every field may be missing; fields memscope
// does not know are kept by name in Other.
type SubagentMeta struct {
	// AgentType is the agent's type ("Explore", "general-purpose", or a
	// user agent's name); IsBuiltIn is nil when not recorded.
	AgentType string `json:"agentType,omitempty"`
	IsBuiltIn *bool  `json:"isBuiltIn,omitempty"`
	// Description is the task the main agent gave it, in a few words.
	Description string `json:"description,omitempty"`
	// ToolUseID is the Agent (Task) tool call that spawned it.
	ToolUseID string `json:"toolUseId,omitempty"`
	// SpawnDepth is 1 for a subagent of the main agent, more for nested.
	SpawnDepth int    `json:"spawnDepth,omitempty"`
	Model      string `json:"model,omitempty"`
	// Finished is nil when not recorded; a time recorded there reads as
	// true.
	Finished *bool `json:"finished,omitempty"`
	// Other names the keys memscope does not read (requestShape, …).
	Other []string `json:"other,omitempty"`
}

// Label is a short name for the subagent: its type and description,
// stripped of terminal control sequences.
func (m SubagentMeta) Label() string {
	var parts []string
	if m.AgentType != "" {
		parts = append(parts, m.AgentType)
	}
	if d := strings.Join(strings.Fields(m.Description), " "); d != "" {
		parts = append(parts, "“"+d+"”")
	}
	return SanitizeForTerminal(strings.Join(parts, " "))
}

// ReadSubagentMeta reads a subagent's meta file: a regular file of at
// most MaxSmallBytes holding one JSON object.
func ReadSubagentMeta(fsys fs.FS, name string) (SubagentMeta, error) {
	data, err := ReadFileBounded(fsys, name, MaxSmallBytes)
	if err != nil {
		return SubagentMeta{}, err
	}
	return ParseSubagentMeta(data)
}

// ParseSubagentMeta decodes a meta file. A field of an unexpected type is
// left out (the rest still reads); only a file that is not a JSON object
// is an error.
func ParseSubagentMeta(data []byte) (SubagentMeta, error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return SubagentMeta{}, fmt.Errorf("subagent meta: %w", err)
	}
	var m SubagentMeta
	for k, v := range raw {
		switch k {
		case "agentType":
			_ = json.Unmarshal(v, &m.AgentType)
		case "isBuiltIn":
			var b bool
			if json.Unmarshal(v, &b) == nil {
				m.IsBuiltIn = &b
			}
		case "description":
			_ = json.Unmarshal(v, &m.Description)
		case "toolUseId":
			_ = json.Unmarshal(v, &m.ToolUseID)
		case "spawnDepth":
			_ = json.Unmarshal(v, &m.SpawnDepth)
		case "model":
			_ = json.Unmarshal(v, &m.Model)
		case "finished":
			// A bool, or (as some builds may write) when it finished.
			var b bool
			if json.Unmarshal(v, &b) != nil {
				b = string(v) != "null" && string(v) != `""`
			}
			m.Finished = &b
		default:
			m.Other = append(m.Other, k)
		}
	}
	sort.Strings(m.Other)
	return m, nil
}

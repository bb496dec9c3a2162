package gate

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/memscope/memscope/model"
)

// Tool is the name of a client tool the gate judges.
type Tool string

// The tools the gate judges; every other tool passes untouched.
const (
	ToolWrite     Tool = "Write"
	ToolEdit      Tool = "Edit"
	ToolMultiEdit Tool = "MultiEdit"
)

// Judged reports whether the gate looks at calls of tool: the tools that
// write a file by their input.file_path (model.IsWriteTool, the one list
// live and provenance follow too).
func Judged(tool string) bool { return model.IsWriteTool(tool) }

// Event is the PreToolUse hook's JSON on stdin (FORMATS.md, hooks): the
// fields the gate reads.
type Event struct {
	SessionID     string    `json:"session_id"`
	Cwd           string    `json:"cwd"`
	HookEventName string    `json:"hook_event_name"`
	ToolName      string    `json:"tool_name"`
	ToolInput     ToolInput `json:"tool_input"`
	ToolUseID     string    `json:"tool_use_id"`
}

// ToolInput is the input of Write (FilePath, Content), Edit (FilePath,
// OldString, NewString, ReplaceAll) and MultiEdit (FilePath, Edits).
type ToolInput struct {
	FilePath   string   `json:"file_path"`
	Content    *string  `json:"content,omitempty"`
	OldString  string   `json:"old_string,omitempty"`
	NewString  string   `json:"new_string,omitempty"`
	ReplaceAll bool     `json:"replace_all,omitempty"`
	Edits      []EditOp `json:"edits,omitempty"`
}

// EditOp is one replacement of an Edit or a MultiEdit.
type EditOp struct {
	OldString  string `json:"old_string"`
	NewString  string `json:"new_string"`
	ReplaceAll bool   `json:"replace_all,omitempty"`
}

// ParseEvent reads the hook's JSON. A PreToolUse event for another hook
// event, or without a tool name, is an error (the caller then decides
// nothing).
func ParseEvent(data []byte) (Event, error) {
	var ev Event
	if err := json.Unmarshal(data, &ev); err != nil {
		return ev, fmt.Errorf("hook event: not JSON: %w", err)
	}
	if ev.HookEventName != "" && ev.HookEventName != "PreToolUse" {
		return ev, fmt.Errorf("hook event %q: the gate answers PreToolUse only", ev.HookEventName)
	}
	if ev.ToolName == "" {
		return ev, errors.New("hook event: no tool_name")
	}
	return ev, nil
}

// edits are the replacements of an Edit or a MultiEdit, in order.
func (in ToolInput) edits(tool Tool) []EditOp {
	if tool == ToolEdit {
		return []EditOp{{OldString: in.OldString, NewString: in.NewString, ReplaceAll: in.ReplaceAll}}
	}
	return in.Edits
}

// After is the file as it would be once the call ran: a Write's content;
// an Edit's or MultiEdit's replacements applied in order to before (the
// file on disk, exists false when there is none), replace_all honoured.
// ok is false when the call would not apply (an old_string not found, or
// found more than once without replace_all, an Edit of a missing file, a
// Write without content): the client refuses such a call itself, so the
// gate lets it through.
func After(tool Tool, in ToolInput, before []byte, exists bool) (after []byte, ok bool) {
	switch tool {
	case ToolWrite:
		if in.Content == nil {
			return nil, false
		}
		return []byte(*in.Content), true
	case ToolEdit, ToolMultiEdit:
	default:
		return nil, false
	}
	ops := in.edits(tool)
	if len(ops) == 0 {
		return nil, false
	}
	text := string(before)
	for i, op := range ops {
		if !exists {
			// The client creates a file with an Edit whose old_string is
			// empty, only as the first edit.
			if i == 0 && op.OldString == "" {
				text = op.NewString
				exists = true
				continue
			}
			return nil, false
		}
		if op.OldString == op.NewString {
			return nil, false
		}
		n := strings.Count(text, op.OldString)
		switch {
		case op.OldString == "" || n == 0:
			return nil, false
		case n > 1 && !op.ReplaceAll:
			return nil, false
		case op.ReplaceAll:
			text = strings.ReplaceAll(text, op.OldString, op.NewString)
		default:
			text = strings.Replace(text, op.OldString, op.NewString, 1)
		}
	}
	return []byte(text), true
}

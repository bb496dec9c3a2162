package export

import (
	"encoding/json"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/memscope/memscope/internal/format"
)

// toolSummaryMax is the longest one-line tool summary, in runes.
const toolSummaryMax = 120

// toolSummaryKeys are the input fields that say what a call does, by tool
// name; tools not listed use the first of genericSummaryKeys present.
var toolSummaryKeys = map[string][]string{
	"Bash":         {"command"},
	"Read":         {"file_path"},
	"Write":        {"file_path"},
	"Edit":         {"file_path"},
	"MultiEdit":    {"file_path"},
	"NotebookEdit": {"notebook_path"},
	"Glob":         {"pattern", "path"},
	"Grep":         {"pattern", "path"},
	"LS":           {"path"},
	"WebFetch":     {"url"},
	"WebSearch":    {"query"},
	"Task":         {"description", "subagent_type"},
	"Agent":        {"description", "subagent_type"},
	"Skill":        {"skill"},
}

var genericSummaryKeys = []string{"command", "file_path", "path", "pattern", "url", "query", "description", "prompt", "name"}

// ToolSummary is one line about a tool call's input: the command, file,
// pattern or URL it names, else the first string field, else the input's
// keys. It is at most 120 characters, on one line.
func ToolSummary(name string, input json.RawMessage) string {
	var obj map[string]json.RawMessage
	if len(input) == 0 || json.Unmarshal(input, &obj) != nil {
		return oneLine(string(input), toolSummaryMax)
	}
	if name == "TodoWrite" {
		var todos struct {
			Todos []json.RawMessage `json:"todos"`
		}
		if json.Unmarshal(input, &todos) == nil {
			return format.Count(len(todos.Todos), "todo", "todos")
		}
	}
	keys, ok := toolSummaryKeys[name]
	if !ok {
		keys = genericSummaryKeys
	}
	// A known tool shows up to two of its fields; another the first found.
	want := 2
	if !ok {
		want = 1
	}
	var parts []string
	for _, k := range keys {
		if s, ok := stringField(obj, k); ok && s != "" {
			parts = append(parts, s)
			if len(parts) == want {
				break
			}
		}
	}
	if len(parts) == 0 {
		names := make([]string, 0, len(obj))
		for k := range obj {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			if s, ok := stringField(obj, k); ok && s != "" {
				parts = append(parts, k+"="+s)
				break
			}
		}
		if len(parts) == 0 && len(names) > 0 {
			parts = append(parts, strings.Join(names, ", "))
		}
	}
	return oneLine(strings.Join(parts, " · "), toolSummaryMax)
}

func stringField(obj map[string]json.RawMessage, k string) (string, bool) {
	raw, ok := obj[k]
	if !ok {
		return "", false
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// oneLine folds s onto one line (line breaks and tabs become spaces, runs
// of white space one) and cuts it to max runes with "…".
func oneLine(s string, max int) string {
	f := strings.Fields(strings.ToValidUTF8(s, "\uFFFD"))
	out := strings.Join(f, " ")
	if utf8.RuneCountInString(out) <= max {
		return out
	}
	r := []rune(out)
	return string(r[:max-1]) + "…"
}

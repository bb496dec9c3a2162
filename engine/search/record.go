package search

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"time"

	"github.com/memscope/memscope/internal/jsonscan"
)

// The record types whose text a person would mean. Metadata records
// (file-history snapshots, titles, modes, request blobs holding whole
// API requests again, …) and attachments (CLAUDE.md and memory text
// searched in their own stores) are not searched.
var searchedTypes = map[string]bool{"user": true, "assistant": true, "system": true, "summary": true}

// field is one text of a record: what it is and the text.
type field struct {
	where string
	text  string
}

// record is what a search decodes of a transcript line.
type record struct {
	Type             string          `json:"type"`
	Subtype          string          `json:"subtype"`
	UUID             string          `json:"uuid"`
	Timestamp        string          `json:"timestamp"`
	IsCompactSummary bool            `json:"isCompactSummary"`
	Message          *recordMessage  `json:"message"`
	Content          json.RawMessage `json:"content"`
	Summary          string          `json:"summary"`
	EarlierMessages  []struct {
		Kind string `json:"kind"`
		Text string `json:"text"`
	} `json:"earlierMessages"`
}

type recordMessage struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

type block struct {
	Type     string          `json:"type"`
	Text     string          `json:"text"`
	Thinking string          `json:"thinking"`
	Name     string          `json:"name"`
	Input    json.RawMessage `json:"input"`
	Content  json.RawMessage `json:"content"`
}

// role is who a record speaks for: user, assistant, summary (a
// compaction summary, legacy or current) or system.
func (r *record) role() string {
	switch {
	case r.IsCompactSummary || r.Type == "summary":
		return "summary"
	case r.Message != nil && r.Message.Role != "":
		return r.Message.Role
	}
	return r.Type
}

// time is the record's timestamp; zero when it has none that parses.
func (r *record) time() time.Time {
	t, err := time.Parse(time.RFC3339Nano, r.Timestamp)
	if err != nil {
		return time.Time{}
	}
	return t
}

// fields lists the record's texts, in order.
func (r *record) fields() []field {
	var out []field
	switch r.Type {
	case "summary":
		out = append(out, field{"summary", r.Summary})
	case "system":
		if s, ok := rawText(r.Content); ok {
			out = append(out, field{"system", s})
		}
	case "user", "assistant":
		if r.Message == nil {
			break
		}
		textWhere := "text"
		if r.IsCompactSummary {
			textWhere = "compact summary"
		}
		out = contentFields(out, r.Message.Content, textWhere)
		for _, m := range r.EarlierMessages {
			out = append(out, field{"earlier " + m.Kind, m.Text})
		}
	}
	return out
}

// contentFields adds the texts of a message's content: a string, or an
// array of blocks.
func contentFields(out []field, raw json.RawMessage, textWhere string) []field {
	if s, ok := rawText(raw); ok {
		return append(out, field{textWhere, s})
	}
	var blocks []block
	if json.Unmarshal(raw, &blocks) != nil {
		return out
	}
	for _, b := range blocks {
		switch b.Type {
		case "text":
			out = append(out, field{textWhere, b.Text})
		case "thinking":
			out = append(out, field{"thinking", b.Thinking})
		case "tool_use":
			out = inputFields(out, "tool_use "+b.Name+" input", b.Input)
		case "tool_result":
			if s, ok := rawText(b.Content); ok {
				out = append(out, field{"tool_result", s})
				continue
			}
			var parts []block
			if json.Unmarshal(b.Content, &parts) == nil {
				for _, p := range parts {
					if p.Type == "text" {
						out = append(out, field{"tool_result", p.Text})
					}
				}
			}
		}
	}
	return out
}

// inputFields adds every string inside a tool call's input, each named
// by its path ("tool_use Edit input.old_string").
func inputFields(out []field, where string, raw json.RawMessage) []field {
	var v any
	if len(raw) == 0 || json.Unmarshal(raw, &v) != nil {
		return out
	}
	var walk func(path string, v any)
	walk = func(path string, v any) {
		switch v := v.(type) {
		case string:
			out = append(out, field{path, v})
		case []any:
			for i, e := range v {
				walk(path+"["+strconv.Itoa(i)+"]", e)
			}
		case map[string]any:
			keys := make([]string, 0, len(v))
			for k := range v {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			for _, k := range keys {
				walk(path+"."+k, v[k])
			}
		}
	}
	walk(where, v)
	return out
}

// rawText decodes a raw JSON string value.
func rawText(raw json.RawMessage) (string, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '"' {
		return "", false
	}
	return jsonscan.Unquote(raw)
}

// peekType returns the raw value of the top-level "type" member of the
// JSON object line, reading only the members before it (the client
// writes type before message, so this skips little), or nil.
func peekType(line []byte) []byte {
	i := jsonscan.SkipWS(line, 0)
	if i >= len(line) || line[i] != '{' {
		return nil
	}
	i = jsonscan.SkipWS(line, i+1)
	for i < len(line) && line[i] == '"' {
		kend := jsonscan.SkipValid(line, i)
		key := line[i:kend]
		i = jsonscan.SkipWS(line, kend)
		if i >= len(line) || line[i] != ':' {
			return nil
		}
		i = jsonscan.SkipWS(line, i+1)
		end := jsonscan.SkipValid(line, i)
		if string(key) == `"type"` {
			return line[i:end]
		}
		i = jsonscan.SkipWS(line, end)
		if i >= len(line) || line[i] != ',' {
			return nil
		}
		i = jsonscan.SkipWS(line, i+1)
	}
	return nil
}

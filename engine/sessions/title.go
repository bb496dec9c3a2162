package sessions

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/memscope/memscope/model"
)

// TitleSource says where a session's title comes from.
type TitleSource string

// The sources, in the order they win.
const (
	// TitleCustom: the user named the session (/rename: a custom-title
	// record; the newest wins).
	TitleCustom TitleSource = "custom-title"
	// TitleAI: the client's generated title (an ai-title record; the
	// newest wins).
	TitleAI TitleSource = "ai-title"
	// TitlePrompt: no title record; the session's first typed prompt.
	TitlePrompt TitleSource = "first prompt"
)

// Title is a session's name for people, as the client's session picker
// shows it: its custom title, else its AI title, else its first prompt.
type Title struct {
	Text   string      `json:"text,omitempty"`
	Source TitleSource `json:"source,omitempty"`
}

// titleMaxRunes bounds a title kept from a first prompt (a pasted page
// is not a title).
const titleMaxRunes = 200

// titler finds a session's title in its lines, read in order. Only lines
// that may hold one are decoded: those naming a title type, and user
// records until the first prompt is found.
type titler struct {
	custom, ai, prompt string
}

// titleRecord is what a title line holds.
type titleRecord struct {
	Type             string `json:"type"`
	AITitle          string `json:"aiTitle"`
	CustomTitle      string `json:"customTitle"`
	IsMeta           bool   `json:"isMeta"`
	IsCompactSummary bool   `json:"isCompactSummary"`
	Message          *struct {
		Content json.RawMessage `json:"content"`
	} `json:"message"`
}

var (
	titleMark = []byte("-title")
	userMark  = []byte(`"user"`)
)

// line reads one line.
func (t *titler) line(b []byte) {
	wantPrompt := t.prompt == "" && bytes.Contains(b, userMark)
	if !wantPrompt && !bytes.Contains(b, titleMark) {
		return
	}
	var r titleRecord
	if json.Unmarshal(b, &r) != nil {
		return
	}
	switch r.Type {
	case string(TitleCustom):
		if s := oneLine(r.CustomTitle); s != "" {
			t.custom = s
		}
	case string(TitleAI):
		if s := oneLine(r.AITitle); s != "" {
			t.ai = s
		}
	case string(model.RecordUser):
		if wantPrompt && !r.IsMeta && !r.IsCompactSummary && r.Message != nil {
			t.prompt = promptText(r.Message.Content)
		}
	}
}

// title is the best title seen so far.
func (t *titler) title() Title {
	switch {
	case t.custom != "":
		return Title{Text: t.custom, Source: TitleCustom}
	case t.ai != "":
		return Title{Text: t.ai, Source: TitleAI}
	case t.prompt != "":
		return Title{Text: t.prompt, Source: TitlePrompt}
	}
	return Title{}
}

// promptText is a typed prompt's text on one line: a string content, or
// the first text block; "" for tool results and for the client's own
// wrapped messages (command output, reminders: they start with "<").
func promptText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) != nil {
		var blocks []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		}
		if json.Unmarshal(raw, &blocks) != nil {
			return ""
		}
		for _, b := range blocks {
			if b.Type == "tool_result" {
				return ""
			}
			if b.Type == "text" && s == "" {
				s = b.Text
			}
		}
	}
	s = oneLine(s)
	if strings.HasPrefix(s, "<") {
		return ""
	}
	return s
}

// oneLine folds white space (line breaks included) and bounds the length.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > titleMaxRunes {
		s = string(r[:titleMaxRunes]) + "…"
	}
	return s
}

package cli

import (
	"strconv"

	"github.com/memscope/memscope/engine/search"
	"github.com/memscope/memscope/internal/jsonstr"
)

// appendHitJSON appends h as the line `search --json` prints for it:
// byte for byte encoding/json's encoding of search.Hit (HTML not
// escaped) and a newline, without reflection, which was a sixth of a
// many-hit search. ok is false for what it does not write itself (a hit
// with prompts, a time encoding/json refuses): the caller encodes those.
func appendHitJSON(b []byte, h *search.Hit) ([]byte, bool) {
	if len(h.Prompts) > 0 {
		return b, false
	}
	b = append(b, `{"store":`...)
	b = appendJSONString(b, string(h.Store))
	b = append(b, `,"file":`...)
	b = appendJSONString(b, h.File)
	b = append(b, `,"line":`...)
	b = strconv.AppendInt(b, int64(h.Line), 10)
	b = append(b, `,"where":`...)
	b = appendJSONString(b, h.Where)
	opt := func(key, v string) {
		if v != "" {
			b = append(b, key...)
			b = appendJSONString(b, v)
		}
	}
	opt(`,"project":`, h.Project)
	opt(`,"sessionId":`, h.SessionID)
	opt(`,"agentId":`, h.AgentID)
	opt(`,"uuid":`, h.UUID)
	opt(`,"role":`, h.Role)
	if !h.Time.IsZero() {
		t, err := h.Time.MarshalJSON()
		if err != nil {
			return b, false
		}
		b = append(b, `,"timestamp":`...)
		b = append(b, t...)
	}
	opt(`,"compaction":`, string(h.Compaction))
	if h.Seen != nil {
		b = append(b, `,"seen":`...)
		b = strconv.AppendBool(b, *h.Seen)
	}
	opt(`,"label":`, h.Label)
	if h.Vault {
		b = append(b, `,"vault":true`...)
	}
	b = append(b, `,"snippet":`...)
	b = appendJSONString(b, h.Snippet)
	b = append(b, `,"match":[`...)
	b = strconv.AppendInt(b, int64(h.Match[0]), 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(h.Match[1]), 10)
	b = append(b, `],"count":`...)
	b = strconv.AppendInt(b, int64(h.Count), 10)
	b = append(b, `,"offset":`...)
	b = strconv.AppendInt(b, int64(h.Offset), 10)
	return append(b, "}\n"...), true
}

// appendJSONString appends s quoted as encoding/json quotes a string
// with HTML escaping off (internal/jsonstr).
func appendJSONString(b []byte, s string) []byte { return jsonstr.Append(b, s, false) }

// Eight bytes at a time (SWAR): ones has 1 in each byte, highs the top
// bit of each.
const (
	swarOnes  = 0x0101010101010101
	swarHighs = 0x8080808080808080
)

// swarZero reports whether a byte of v is zero (exact: a borrow only
// spreads above a byte that is zero).
func swarZero(v uint64) bool { return (v-swarOnes)&^v&swarHighs != 0 }

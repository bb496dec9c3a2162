package cli

import (
	"slices"
	"strconv"

	"github.com/memscope/memscope/engine/ledger"
	"github.com/memscope/memscope/model"
)

// lostAppender writes a ledger.Session as writeJSON's encoder prints it
// nested at prefix (two-space indents, HTML left as it is, the last
// newline left out), without reflection: on W the sessions' JSON is 6
// MB, which encoding/json made at about 80 MB/s, a pass and its indent
// pass. TestLostAppendIsEncodingJSON holds the two to the same bytes;
// lostAllJSON falls back to encoding/json for a value it cannot write
// (a time out of JSON's years).
type lostAppender struct {
	b      []byte
	prefix string
}

// nl opens a line at depth.
func (w *lostAppender) nl(depth int) {
	w.b = append(w.b, '\n')
	w.b = append(w.b, w.prefix...)
	for range depth {
		w.b = append(w.b, "  "...)
	}
}

// key opens the member k of an object at depth (first: no comma before).
func (w *lostAppender) key(first bool, depth int, k string) {
	if !first {
		w.b = append(w.b, ',')
	}
	w.nl(depth)
	w.b = append(w.b, '"')
	w.b = append(w.b, k...)
	w.b = append(w.b, `": `...)
}

func (w *lostAppender) str(s string) { w.b = appendJSONString(w.b, s) }
func (w *lostAppender) int(n int64)  { w.b = strconv.AppendInt(w.b, n, 10) }
func (w *lostAppender) bool(v bool)  { w.b = strconv.AppendBool(w.b, v) }

// field writes the string member k at depth (omitted when empty and
// omitEmpty, as the json tag's omitempty does).
func (w *lostAppender) field(first bool, depth int, k, v string, omitEmpty bool) {
	if omitEmpty && v == "" {
		return
	}
	w.key(first, depth, k)
	w.str(v)
}

// appendList writes list, a member's value at depth: null when nil, []
// when empty, else one element a line (one writes it; false stops).
func appendList[T any](w *lostAppender, depth int, list []T, one func(*T, int) bool) bool {
	switch {
	case list == nil:
		w.b = append(w.b, "null"...)
	case len(list) == 0:
		w.b = append(w.b, "[]"...)
	default:
		w.b = append(w.b, '[')
		for i := range list {
			if i > 0 {
				w.b = append(w.b, ',')
			}
			w.nl(depth + 1)
			if !one(&list[i], depth+1) {
				return false
			}
		}
		w.nl(depth)
		w.b = append(w.b, ']')
	}
	return true
}

// session writes s at depth 0; false when encoding/json would fail.
func (w *lostAppender) session(s ledger.Session) bool {
	w.b = append(w.b, '{')
	w.key(true, 1, "file")
	if !w.file(s.File, 1) {
		return false
	}
	w.key(false, 1, "boundaries")
	if !appendList(w, 1, s.Boundaries, w.boundary) {
		return false
	}
	w.nl(0)
	w.b = append(w.b, '}')
	return true
}

func (w *lostAppender) file(f model.TranscriptFile, d int) bool {
	w.b = append(w.b, '{')
	w.field(true, d+1, "path", f.Path, false)
	w.field(false, d+1, "projectSlug", f.ProjectSlug, true)
	w.field(false, d+1, "sessionId", f.SessionID, false)
	w.field(false, d+1, "agentId", f.AgentID, true)
	w.field(false, d+1, "metaPath", f.MetaPath, true)
	w.field(false, d+1, "kind", string(f.Kind), false)
	w.key(false, d+1, "size")
	w.int(f.Size)
	w.key(false, d+1, "modTime")
	t, err := f.ModTime.MarshalJSON()
	if err != nil {
		return false
	}
	w.b = append(w.b, t...)
	w.nl(d)
	w.b = append(w.b, '}')
	return true
}

func (w *lostAppender) boundary(b *ledger.Boundary, d int) bool {
	w.b = append(w.b, '{')
	w.key(true, d+1, "index")
	w.int(int64(b.Index))
	w.field(false, d+1, "uuid", b.UUID, false)
	w.key(false, d+1, "line")
	w.int(int64(b.Line))
	if !b.Time.IsZero() {
		w.key(false, d+1, "time")
		t, err := b.Time.MarshalJSON()
		if err != nil {
			return false
		}
		w.b = append(w.b, t...)
	}
	w.field(false, d+1, "compaction", string(b.Compaction), false)
	if b.Sidechain {
		w.key(false, d+1, "sidechain")
		w.bool(true)
	}
	for _, p := range []struct {
		k string
		v *int
	}{{"preTokens", b.PreTokens}, {"postTokens", b.PostTokens}} {
		w.key(false, d+1, p.k)
		if p.v == nil {
			w.b = append(w.b, "null"...)
		} else {
			w.int(int64(*p.v))
		}
	}
	w.key(false, d+1, "had")
	switch {
	case b.Had == nil:
		w.b = append(w.b, "null"...)
	case len(b.Had) == 0:
		w.b = append(w.b, "{}"...)
	default:
		kinds := make([]ledger.Kind, 0, len(b.Had))
		for k := range b.Had {
			kinds = append(kinds, k)
		}
		slices.Sort(kinds)
		w.b = append(w.b, '{')
		for i, k := range kinds {
			if i > 0 {
				w.b = append(w.b, ',')
			}
			w.nl(d + 2)
			w.str(string(k))
			w.b = append(w.b, ": "...)
			w.int(int64(b.Had[k]))
		}
		w.nl(d + 1)
		w.b = append(w.b, '}')
	}
	w.key(false, d+1, "lost")
	appendList(w, d+1, b.Lost, w.item)
	w.key(false, d+1, "memory")
	appendList(w, d+1, b.Memory, w.memory)
	w.nl(d)
	w.b = append(w.b, '}')
	return true
}

func (w *lostAppender) item(it *ledger.Item, d int) bool {
	w.b = append(w.b, '{')
	w.field(true, d+1, "id", it.ID, false)
	w.field(false, d+1, "kind", string(it.Kind), false)
	w.field(false, d+1, "text", it.Text, false)
	w.field(false, d+1, "detail", it.Detail, true)
	w.key(false, d+1, "line")
	w.int(int64(it.Line))
	w.field(false, d+1, "uuid", it.UUID, false)
	w.nl(d)
	w.b = append(w.b, '}')
	return true
}

func (w *lostAppender) memory(m *ledger.MemoryFile, d int) bool {
	w.b = append(w.b, '{')
	w.field(true, d+1, "path", m.Path, false)
	w.field(false, d+1, "type", m.Type, false)
	w.key(false, d+1, "before")
	w.bool(m.Before)
	w.key(false, d+1, "after")
	w.bool(m.After)
	w.nl(d)
	w.b = append(w.b, '}')
	return true
}

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

// session writes s at depth 0; false when encoding/json would fail.
func (w *lostAppender) session(s ledger.Session) bool {
	w.b = append(w.b, '{')
	w.key(true, 1, "file")
	if !w.file(s.File, 1) {
		return false
	}
	w.key(false, 1, "boundaries")
	if s.Boundaries == nil {
		w.b = append(w.b, "null"...)
	} else if len(s.Boundaries) == 0 {
		w.b = append(w.b, "[]"...)
	} else {
		w.b = append(w.b, '[')
		for i := range s.Boundaries {
			if i > 0 {
				w.b = append(w.b, ',')
			}
			w.nl(2)
			if !w.boundary(&s.Boundaries[i], 2) {
				return false
			}
		}
		w.nl(1)
		w.b = append(w.b, ']')
	}
	w.nl(0)
	w.b = append(w.b, '}')
	return true
}

func (w *lostAppender) file(f model.TranscriptFile, d int) bool {
	w.b = append(w.b, '{')
	w.key(true, d+1, "path")
	w.str(f.Path)
	if f.ProjectSlug != "" {
		w.key(false, d+1, "projectSlug")
		w.str(f.ProjectSlug)
	}
	w.key(false, d+1, "sessionId")
	w.str(f.SessionID)
	if f.AgentID != "" {
		w.key(false, d+1, "agentId")
		w.str(f.AgentID)
	}
	if f.MetaPath != "" {
		w.key(false, d+1, "metaPath")
		w.str(f.MetaPath)
	}
	w.key(false, d+1, "kind")
	w.str(string(f.Kind))
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
	w.key(false, d+1, "uuid")
	w.str(b.UUID)
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
	w.key(false, d+1, "compaction")
	w.str(string(b.Compaction))
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
	switch {
	case b.Lost == nil:
		w.b = append(w.b, "null"...)
	case len(b.Lost) == 0:
		w.b = append(w.b, "[]"...)
	default:
		w.b = append(w.b, '[')
		for i := range b.Lost {
			if i > 0 {
				w.b = append(w.b, ',')
			}
			w.nl(d + 2)
			w.item(&b.Lost[i], d+2)
		}
		w.nl(d + 1)
		w.b = append(w.b, ']')
	}
	w.key(false, d+1, "memory")
	switch {
	case b.Memory == nil:
		w.b = append(w.b, "null"...)
	case len(b.Memory) == 0:
		w.b = append(w.b, "[]"...)
	default:
		w.b = append(w.b, '[')
		for i, m := range b.Memory {
			if i > 0 {
				w.b = append(w.b, ',')
			}
			w.nl(d + 2)
			w.b = append(w.b, '{')
			w.key(true, d+3, "path")
			w.str(m.Path)
			w.key(false, d+3, "type")
			w.str(m.Type)
			w.key(false, d+3, "before")
			w.bool(m.Before)
			w.key(false, d+3, "after")
			w.bool(m.After)
			w.nl(d + 2)
			w.b = append(w.b, '}')
		}
		w.nl(d + 1)
		w.b = append(w.b, ']')
	}
	w.nl(d)
	w.b = append(w.b, '}')
	return true
}

func (w *lostAppender) item(it *ledger.Item, d int) {
	w.b = append(w.b, '{')
	w.key(true, d+1, "id")
	w.str(it.ID)
	w.key(false, d+1, "kind")
	w.str(string(it.Kind))
	w.key(false, d+1, "text")
	w.str(it.Text)
	if it.Detail != "" {
		w.key(false, d+1, "detail")
		w.str(it.Detail)
	}
	w.key(false, d+1, "line")
	w.int(int64(it.Line))
	w.key(false, d+1, "uuid")
	w.str(it.UUID)
	w.nl(d)
	w.b = append(w.b, '}')
}

package vault

import (
	"encoding/base64"
	"strconv"
	"time"

	"github.com/memscope/memscope/internal/jsonstr"
)

// The state lines' JSON, written by hand: the bytes json.Marshal makes
// of a recordHead and of a Record (its field order, omitempty and
// omitzero, null for a nil slice, HTML-safe string escapes), without its
// reflection, which was about 1.5 % of a first sync's CPU (a line for
// every file of the home; docs/VAULT.md, "i31h2"). TestRecordJSONMatchesMarshal
// and FuzzRecordJSON hold it to json.Marshal's bytes. A time json.Marshal
// refuses (a year outside 0-9999) makes appendRecordJSON report !ok, and
// the caller encodes that record with encoding/json, error and all.

// lineHint is the length of r's state line (head, tab, record, newline)
// if none of its strings needs an escape, its times counted at their
// longest: appendRecord makes room for it at once.
func lineHint(r *Record) int {
	n := 2*(len(`{"path":"","kind":""}`)+len(r.Path)+len(r.Kind)) + len("\t\n")
	if r.Session != "" {
		n += 2 * (len(`,"session":""`) + len(r.Session))
	}
	if r.Project != "" {
		n += len(`,"project":""`) + len(r.Project)
	}
	if !r.Gone.IsZero() {
		n += 2 * (len(`,"gone":`) + jsonTimeMax)
	}
	if f := r.Follow; f != nil {
		n += 2 * (len(`,"follow":{"id":{"dev":,"ino":,"known":false},"size":,"modTime":,"closed":,"closedChunks":}`) +
			uintLen(f.ID.Dev) + uintLen(f.ID.Ino) + intLen(f.Size) + intLen(f.ModTime) + intLen(f.Closed) + intLen(int64(f.ClosedChunks)))
		if len(f.HashState) > 0 {
			n += 2 * (len(`,"hashState":""`) + base64.StdEncoding.EncodedLen(len(f.HashState)))
		}
	}
	n += len(`,"versions":null`)
	for i := range r.Versions {
		v := &r.Versions[i]
		n += len(`{"size":,"modTime":,"mode":,"chunks":null,"synced":},`) + intLen(v.Size) + 2*jsonTimeMax + uintLen(uint64(v.Mode))
		if v.SHA256 != "" {
			n += len(`,"sha256":""`) + len(v.SHA256)
		}
		if v.Sum != "" {
			n += len(`,"sum":""`) + len(v.Sum)
		}
		for j := range v.Chunks {
			c := &v.Chunks[j]
			n += len(`{"h":"","n":},`) + len(c.H) + intLen(c.N)
			if c.Raw {
				n += len(`,"raw":true`)
			}
			if len(c.IDs) > 0 {
				n += len(`,"ids":[]`)
				for _, id := range c.IDs {
					n += len(`{"i":"","n":},`) + len(id.ID) + intLen(int64(id.N))
				}
			}
		}
	}
	return n
}

// jsonTimeMax is the longest time appendJSONTime writes: RFC 3339 with
// nanoseconds and a zone offset, quoted.
const jsonTimeMax = len(`"2006-01-02T15:04:05.999999999-07:00"`)

// uintLen and intLen are the lengths of x in decimal.
func uintLen(x uint64) int {
	n := 1
	for ; x >= 10; x /= 10 {
		n++
	}
	return n
}

func intLen(x int64) int {
	if x < 0 {
		return 1 + uintLen(uint64(-x))
	}
	return uintLen(uint64(x))
}

// appendHeadJSON appends json.Marshal(headOf(r)).
func appendHeadJSON(b []byte, r *Record) ([]byte, bool) {
	return appendRecordEnd(appendRecordStart(b, r), r)
}

// appendRecordJSON appends json.Marshal(r).
func appendRecordJSON(b []byte, r *Record) ([]byte, bool) {
	b = appendRecordStart(b, r)
	if r.Project != "" {
		b = append(b, `,"project":`...)
		b = appendJSONString(b, r.Project)
	}
	b = append(b, `,"versions":`...)
	b, ok := appendJSONArray(b, r.Versions, appendVersionJSON)
	b, eok := appendRecordEnd(b, r)
	return b, ok && eok
}

// appendRecordStart and appendRecordEnd write the fields a record and its
// head (recordHead) share, which open and close both: path, kind and
// session; gone and follow.
func appendRecordStart(b []byte, r *Record) []byte {
	b = append(b, `{"path":`...)
	b = appendJSONString(b, r.Path)
	b = append(b, `,"kind":`...)
	b = appendJSONString(b, string(r.Kind))
	if r.Session != "" {
		b = append(b, `,"session":`...)
		b = appendJSONString(b, string(r.Session))
	}
	return b
}

func appendRecordEnd(b []byte, r *Record) ([]byte, bool) {
	ok := true
	if !r.Gone.IsZero() {
		b = append(b, `,"gone":`...)
		b, ok = appendJSONTime(b, r.Gone)
	}
	if r.Follow != nil {
		b = append(b, `,"follow":`...)
		b = appendFollowJSON(b, r.Follow)
	}
	return append(b, '}'), ok
}

func appendVersionJSON(b []byte, v *Version) ([]byte, bool) {
	b = append(b, `{"size":`...)
	b = strconv.AppendInt(b, v.Size, 10)
	b = append(b, `,"modTime":`...)
	b, ok := appendJSONTime(b, v.ModTime)
	b = append(b, `,"mode":`...)
	b = strconv.AppendUint(b, uint64(v.Mode), 10)
	if v.SHA256 != "" {
		b = append(b, `,"sha256":`...)
		b = appendJSONString(b, v.SHA256)
	}
	if v.Sum != "" {
		b = append(b, `,"sum":`...)
		b = appendJSONString(b, v.Sum)
	}
	b = append(b, `,"chunks":`...)
	b, _ = appendJSONArray(b, v.Chunks, appendChunkJSON)
	b = append(b, `,"synced":`...)
	b, sok := appendJSONTime(b, v.Synced)
	return append(b, '}'), ok && sok
}

// appendJSONArray appends s as json.Marshal does (null when nil), each
// element by elem; !ok when an element's was.
func appendJSONArray[T any](b []byte, s []T, elem func([]byte, *T) ([]byte, bool)) ([]byte, bool) {
	if s == nil {
		return append(b, "null"...), true
	}
	b = append(b, '[')
	ok := true
	for i := range s {
		if i > 0 {
			b = append(b, ',')
		}
		var eok bool
		b, eok = elem(b, &s[i])
		ok = ok && eok
	}
	return append(b, ']'), ok
}

func appendChunkJSON(b []byte, c *Chunk) ([]byte, bool) {
	b = append(b, `{"h":`...)
	b = appendJSONString(b, c.H)
	b = append(b, `,"n":`...)
	b = strconv.AppendInt(b, c.N, 10)
	if c.Raw {
		b = append(b, `,"raw":true`...)
	}
	if len(c.IDs) > 0 {
		b = append(b, `,"ids":[`...)
		for i := range c.IDs {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"i":`...)
			b = appendJSONString(b, c.IDs[i].ID)
			b = append(b, `,"n":`...)
			b = strconv.AppendInt(b, int64(c.IDs[i].N), 10)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	return append(b, '}'), true
}

func appendFollowJSON(b []byte, f *follow) []byte {
	b = append(b, `{"id":{"dev":`...)
	b = strconv.AppendUint(b, f.ID.Dev, 10)
	b = append(b, `,"ino":`...)
	b = strconv.AppendUint(b, f.ID.Ino, 10)
	b = append(b, `,"known":`...)
	b = strconv.AppendBool(b, f.ID.Known)
	b = append(b, `},"size":`...)
	b = strconv.AppendInt(b, f.Size, 10)
	b = append(b, `,"modTime":`...)
	b = strconv.AppendInt(b, f.ModTime, 10)
	b = append(b, `,"closed":`...)
	b = strconv.AppendInt(b, f.Closed, 10)
	b = append(b, `,"closedChunks":`...)
	b = strconv.AppendInt(b, int64(f.ClosedChunks), 10)
	if len(f.HashState) > 0 {
		b = append(b, `,"hashState":"`...)
		b = base64.StdEncoding.AppendEncode(b, f.HashState)
		b = append(b, '"')
	}
	return append(b, '}')
}

// appendJSONTime appends t as time.Time's MarshalJSON does (RFC 3339
// with nanoseconds, quoted); !ok for a time it refuses.
func appendJSONTime(b []byte, t time.Time) ([]byte, bool) {
	out, err := t.AppendText(append(b, '"'))
	if err != nil {
		return b, false // AppendText returns nil
	}
	return append(out, '"'), true
}

// appendJSONString appends s quoted as json.Marshal does (HTML escaped).
func appendJSONString(b []byte, s string) []byte { return jsonstr.Append(b, s, true) }

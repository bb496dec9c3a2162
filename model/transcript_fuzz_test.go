package model

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"testing/fstest"
)

// FuzzTranscriptJSON holds the scanner to encoding/json: a line is accepted
// exactly when it is valid JSON whose value is an object, and the members
// it reports are those encoding/json decodes.
func FuzzTranscriptJSON(f *testing.F) {
	f.Add([]byte(`{"type":"user","message":{"content":"a\"b\u00e9"}}`))
	f.Add([]byte(`{"a":[1,-2.5e3,true,null,{"b":[]}]}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		members := map[string]string{}
		// encoding/json turns each invalid UTF-8 byte of a key into U+FFFD;
		// string([]rune(...)) does the same, so the keys compare.
		err := eachMember(line, func(k, v []byte) { members[string([]rune(string(k)))] = string(v) })
		trimmed := bytes.TrimLeft(line, " \t\r\n")
		want := json.Valid(line) && len(trimmed) > 0 && trimmed[0] == '{'
		if (err == nil) != want {
			t.Fatalf("eachMember err=%v, json.Valid=%v for %q", err, json.Valid(line), line)
		}
		if err != nil {
			return
		}
		// On a validated line the trusted walk must see the same members.
		var checked, trusted []string
		_ = eachMember(line, func(k, v []byte) { checked = append(checked, string(k), string(v)) })
		eachMemberTrusted(line, func(k, v []byte) { trusted = append(trusted, string(k), string(v)) })
		if strings.Join(checked, "\x00") != strings.Join(trusted, "\x00") {
			t.Fatalf("trusted walk %q, validating walk %q", trusted, checked)
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal(line, &m); err != nil {
			t.Fatalf("encoding/json cannot decode an accepted line: %v", err)
		}
		if len(m) != len(members) {
			t.Fatalf("members %d, encoding/json %d", len(members), len(m))
		}
		for k, v := range m {
			// encoding/json keeps the last of duplicate keys, as eachMember's caller does.
			if !bytes.Equal(bytes.TrimSpace(v), []byte(members[k])) {
				t.Fatalf("member %q = %q, encoding/json %q", k, members[k], v)
			}
			var s string
			if v[0] == '"' && json.Unmarshal(v, &s) == nil && !strings.ContainsRune(s, '\uFFFD') {
				if got, ok := rawString([]byte(members[k]), nil); !ok || got != s {
					t.Fatalf("rawString(%s) = %q, want %q", members[k], got, s)
				}
			}
		}
	})
}

// FuzzTranscriptScan feeds arbitrary files to the transcript reader and
// checks its accounting: every non-blank line is a record or a line
// problem, every problem has a place and a reason, the type counts add up,
// boundary counts match the records, and walking the chain from every
// record ends.
func FuzzTranscriptScan(f *testing.F) {
	f.Add([]byte(`{"type":"user","uuid":"a","parentUuid":null}` + "\n" + `{"type":"assistant","uuid":"b","parentUuid":"a"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var recs []*Record
		s, err := ScanTranscript(bytes.NewReader(data), "f.jsonl", ScanOptions{Content: true, KeepText: true}, func(r *Record) error {
			recs = append(recs, r)
			return nil
		})
		if err != nil {
			t.Fatalf("read from memory failed: %v", err)
		}
		lineProblems, incomplete := 0, 0
		for _, p := range s.Problems {
			if p.File != "f.jsonl" || p.Line < 1 || p.Reason == "" {
				t.Fatalf("problem without place or reason: %+v", p)
			}
			switch p.Kind {
			case ProblemMalformed:
				lineProblems++
			case ProblemIncompleteTail:
				lineProblems++
				incomplete++
			case ProblemEncoding, ProblemBadField:
			default:
				t.Fatalf("unexpected problem kind %q", p.Kind)
			}
		}
		if incomplete > 1 {
			t.Fatalf("%d incomplete tails", incomplete)
		}
		if s.Records != len(recs) || s.Records+lineProblems != s.Lines {
			t.Fatalf("records %d (+%d problems) != %d non-blank lines", s.Records, lineProblems, s.Lines)
		}
		if s.Bytes != int64(len(data)) {
			t.Fatalf("bytes %d, input %d", s.Bytes, len(data))
		}
		sum, boundaries := 0, 0
		for _, n := range s.Types {
			sum += n
		}
		for _, r := range recs {
			if r.Type == "" || r.Line < 1 || r.Size > len(data) {
				t.Fatalf("bad record %+v", r)
			}
			if r.IsCompactBoundary() {
				boundaries++
			}
		}
		if sum != s.Records || boundaries != s.CompactBoundaries {
			t.Fatalf("types sum %d boundaries %d vs %+v", sum, boundaries, s)
		}
		tr, err := ReadTranscript(fstest.MapFS{"f.jsonl": {Data: data}}, "f.jsonl")
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range tr.Records {
			if r.UUID == "" {
				continue
			}
			chain, _ := tr.Chain(r.UUID)
			if len(chain) == 0 || chain[len(chain)-1] != tr.Get(r.UUID) || len(chain) > len(tr.Records) {
				t.Fatalf("chain from %q: %d records", r.UUID, len(chain))
			}
		}
		for _, b := range tr.Branches() {
			if len(b.Children) < 2 {
				t.Fatalf("branch with %d children", len(b.Children))
			}
		}
		for _, sc := range tr.Sidechains() {
			if sc.Records < 1 || !sc.Root.IsSidechain {
				t.Fatalf("sidechain %+v", sc)
			}
		}
	})
}

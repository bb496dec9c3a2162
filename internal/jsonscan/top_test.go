package jsonscan

import (
	"bytes"
	"strings"
	"testing"
)

// checkTop holds the members a Scanner keeps (Keep) to the walk the old
// path made of the same line (EachMember after the check): the same
// names and values in order when Line accepts the line, none (not
// Valid) when it does not, whatever the Top held before; and Line's
// answer is the same with Keep set as without.
func checkTop(t testing.TB, s *Scanner, top *Top, line []byte) {
	t.Helper()
	member := func(key []byte, v, depth int) (int, error) {
		if line[v] == '{' {
			return s.Object(v, depth, func(_ []byte, v, depth int) (int, error) { return s.Value(v, depth) })
		}
		return s.Value(v, depth)
	}
	var plain Scanner
	want := plain.Line(line, func(_ []byte, v, depth int) (int, error) { return plain.Value(v, depth) })
	s.Keep = top
	err := s.Line(line, member)
	s.Keep = nil
	if (err == nil) != (want == nil) {
		t.Fatalf("Line with Keep: %v, without: %v, for %q", err, want, line)
	}
	var kept, walked []string
	top.Each(func(k, v []byte) { kept = append(kept, string(k), string(v)) })
	if err != nil {
		if _, ok := top.Member("a"); ok {
			t.Fatalf("%q is not one object (%v), but Top has a member", line, err)
		}
		if top.Valid() || top.Len() != 0 || len(kept) != 0 {
			t.Fatalf("%q is not one object (%v), but Top holds %q", line, err, kept)
		}
		return
	}
	EachMember(line[SkipWS(line, 0):], func(k, v []byte) { walked = append(walked, string(k), string(v)) })
	if !top.Valid() || top.Len()*2 != len(kept) || strings.Join(kept, "\x00") != strings.Join(walked, "\x00") {
		t.Fatalf("Top %q (valid %v), EachMember %q, for %q", kept, top.Valid(), walked, line)
	}
	checkMember(t, top, kept, line)
}

// checkMember holds Member to the last of the members kept (name, value
// pairs) with each name, and to none for a name not kept.
func checkMember(t testing.TB, top *Top, kept []string, line []byte) {
	t.Helper()
	last := map[string]string{}
	for i := 0; i < len(kept); i += 2 {
		last[kept[i]] = kept[i+1]
	}
	for k, v := range last {
		if got, ok := top.Member(k); !ok || string(got) != v {
			t.Fatalf("Member(%q) = %q, %v; want %q (the last), in %q", k, got, ok, v, line)
		}
	}
	if _, ok := last["\x00none"]; !ok {
		if got, ok := top.Member("\x00none"); ok {
			t.Fatalf("Member of a name not there = %q in %q", got, line)
		}
	}
}

// Top's members are EachMember's on every line of the repository's
// transcripts and on the tricky seeds, one Top reused from line to line
// (a bad line after a good one leaves nothing behind).
func TestTopIsEachMember(t *testing.T) {
	var s Scanner
	var top Top
	lines := append(repoLines(t), trickySeeds()...)
	lines = append(lines,
		[]byte(`  {"a" : 1 , "b\u0063":{"x":[1,2]},"a":"\"q\""}  `),
		[]byte(`{"a":1}`), []byte(`{"a":1} x`),
		[]byte(`{"a":1}`), []byte(`[{"a":1}]`),
		[]byte(`{"a":1}`), []byte(`{"a":1,"b":}`),
		[]byte(`{}`), []byte(" "),
	)
	n := 0
	for _, l := range lines {
		checkTop(t, &s, &top, l)
		n += top.Len()
	}
	if n < 500 {
		t.Fatalf("only %d members kept in all", n)
	}
	var nilTop *Top
	if nilTop.Valid() || nilTop.Len() != 0 {
		t.Fatal("a nil Top is valid")
	}
	nilTop.Each(func(_, _ []byte) { t.Fatal("a nil Top has members") })
}

// FuzzTop holds the kept members to EachMember's on any text, after a
// valid line kept its own.
func FuzzTop(f *testing.F) {
	f.Add([]byte(`{"type":"user","message":{"content":"a\"b\u00e9"}}`))
	f.Add([]byte(`{"a":[1,-2.5e3,true,null,{"b":[]}]}`))
	for _, in := range trickySeeds() {
		f.Add(in)
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		var s Scanner
		var top Top
		checkTop(t, &s, &top, []byte(`{"before":1}`))
		checkTop(t, &s, &top, line)
		checkTop(t, &s, &top, bytes.Repeat(line, 2))
	})
}

// A line's shape names its member names in order: lines with the same
// names have one shape while it is remembered, others another, a shape
// is never given to other names (past the few remembered, nor by
// another Top), and a line that is not one object has none.
func TestTopShape(t *testing.T) {
	var s Scanner
	var top, other Top
	names := map[uint64]string{}
	shapeOf := func(top *Top, line string) uint64 {
		t.Helper()
		s.Keep = top
		err := s.Line([]byte(line), func(_ []byte, v, depth int) (int, error) { return s.Value(v, depth) })
		s.Keep = nil
		id := top.Shape()
		if (err == nil) != (id != 0) || id != top.Shape() {
			t.Fatalf("%q: error %v, shape %d", line, err, id)
		}
		var keys []string
		top.Each(func(k, _ []byte) { keys = append(keys, string(k)) })
		for i := range top.Len() {
			if k, _ := top.At(i); string(k) != keys[i] {
				t.Fatalf("%q: At(%d) = %q, Each %q", line, i, k, keys[i])
			}
		}
		if id != 0 {
			joined := strings.Join(keys, "\x00") + "\x01"
			if was, ok := names[id]; ok && was != joined {
				t.Fatalf("%q: shape %d was %q, now %q", line, id, was, joined)
			}
			names[id] = joined
		}
		return id
	}
	a := shapeOf(&top, `{"type":"user","uuid":"1"}`)
	if b := shapeOf(&top, `{"type":"assistant","uuid":"2"}`); b != a {
		t.Errorf("same names, shapes %d and %d", a, b)
	}
	for _, l := range []string{`{"uuid":"1","type":"user"}`, `{"typeu":"x","uid":"1"}`, `{"type":"user"}`, `{"type":"user","uuid":"1","x":2}`, `{"t\u0079pe":"user","uuid":"1","x":2}`} {
		if b := shapeOf(&top, l); b == a {
			t.Errorf("%q: the shape of other names", l)
		}
	}
	if shapeOf(&top, `{"type":`) != 0 || shapeOf(&top, `[1]`) != 0 {
		t.Error("a line that is not one object has a shape")
	}
	if b := shapeOf(&other, `{"type":"user","uuid":"1"}`); b == a {
		t.Error("another Top gave the same shape")
	}
	// More shapes than are remembered, twice over.
	for range 2 {
		for i := range 3 * shapesKept {
			shapeOf(&top, `{"k`+strings.Repeat("x", i)+`":1}`)
		}
	}
}

// Members finds what Member finds, line after line, shapes seen again
// or not.
func TestMembersIsMember(t *testing.T) {
	checkMembers(t, []string{`{"type":"a","subtype":"b"}`, `{"subtype":"c","type":"d","type":"e"}`, `{"x":1}`, `{"type":"a","subtype":"b"}`, `{"bad"`, `{"t\u0079pe":"f","x":[1]}`, `{"subtype":"c","type":"d","type":"e"}`})
}

// FuzzMembersIsMember holds Members (once a shape) to Member (each
// line's names compared) on any lines, each read three times over.
func FuzzMembersIsMember(f *testing.F) {
	f.Add("{\"type\":\"a\",\"subtype\":\"b\"}\n{\"subtype\":1,\"type\":2,\"type\":3}\n{\"x\":1}")
	f.Add("{\"t\\u0079pe\":\"f\",\"x\":[1]}\n{\"type\":\"a\",\"subtype\":\"b\"}\n[1]")
	f.Fuzz(func(t *testing.T, in string) {
		checkMembers(t, strings.Split(in, "\n"))
	})
}

func checkMembers(t *testing.T, lines []string) {
	t.Helper()
	var s Scanner
	var top Top
	var m Members
	for range 3 {
		for _, l := range lines {
			s.Keep = &top
			err := s.Line([]byte(l), func(_ []byte, v, depth int) (int, error) { return s.Value(v, depth) })
			s.Keep = nil
			at := m.Of(&top, "type", "subtype", "x")
			if (err != nil) != (at == nil) {
				t.Fatalf("%q: error %v, Of %v", l, err, at)
			}
			for i, name := range []string{"type", "subtype", "x"} {
				want, ok := top.Member(name)
				if at != nil && (string(top.Value(at[i])) != string(want) || ok != (at[i] >= 0)) {
					t.Fatalf("%q: %s = %q (%d), Member %q %v", l, name, top.Value(at[i]), at[i], want, ok)
				}
			}
		}
	}
}

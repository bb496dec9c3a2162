package model

import (
	"testing"
	"unsafe"
)

func TestRawStringLen(t *testing.T) {
	cases := []struct {
		raw  string
		want int
	}{
		{`""`, 0},
		{`"abc"`, 3},
		{`"a\nb"`, 3},
		{`"\\\\"`, 2},
		{`"\u00e9x"`, 2},
		{`"tab\there\"q\""`, 11}, // t a b TAB h e r e " q "
		{`null`, 0},
	}
	for _, c := range cases {
		if got := rawStringLen([]byte(c.raw)); got != c.want {
			t.Errorf("rawStringLen(%s) = %d, want %d", c.raw, got, c.want)
		}
	}
}

func TestRawString(t *testing.T) {
	var in interner
	for _, c := range []struct {
		raw, want string
		ok        bool
	}{
		{`"abc"`, "abc", true}, {`"a\"b\u00e9"`, "a\"bé", true}, {`""`, "", true},
		{`null`, "", false}, {`12`, "", false}, {`{"a":1}`, "", false},
	} {
		for _, pool := range []*interner{nil, &in} {
			if got, ok := rawString([]byte(c.raw), pool); got != c.want || ok != c.ok {
				t.Errorf("rawString(%s) = %q, %v; want %q, %v", c.raw, got, ok, c.want, c.ok)
			}
		}
	}
	a, _ := rawString([]byte(`"same"`), &in)
	b, _ := rawString([]byte(`"same"`), &in)
	if len(in.m) == 0 || unsafe.StringData(a) != unsafe.StringData(b) {
		t.Error("the interner did not share one copy of a repeated value")
	}
}

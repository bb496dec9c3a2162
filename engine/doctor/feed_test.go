package doctor

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/memscope/memscope/engine/sessions"
	"github.com/memscope/memscope/internal/jsonscan"
	"github.com/memscope/memscope/model"
)

// Doctor's scan of a line whose validity stat's reader gave
// (lineValid, the shared pass) is its scan checking the line itself:
// on every line of testdata/home's transcripts and on lines made to be
// wrong in each way jsonscan tells (bad escapes, keys with escapes,
// trailing bytes, other JSON than an object, deep nesting, blank, NUL).
func TestLineValidEqualsLine(t *testing.T) {
	var lines [][]byte
	files, _ := filepath.Glob("../../testdata/home/projects/*/*.jsonl")
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, bytes.Split(data, []byte("\n"))...)
	}
	if len(lines) < 50 {
		t.Fatalf("only %d lines in testdata/home", len(lines))
	}
	lines = append(lines,
		[]byte(`{"type":"user","ver\u0073ion":"9.9.9","zz":1}`),
		[]byte(`{"type":"attachment","attachment":{"type":"brand_new"},"newField":[1,{"a":"\ud83d"}]}`),
		[]byte(`{"type":"user"} trailing`),
		[]byte(`{"type":"user","bad":"\x"}`),
		[]byte(`["not","an","object"]`),
		[]byte(`"just a string"`),
		[]byte(`{"type":"user","n":01}`),
		[]byte(`{"a":`+strings.Repeat("[", 600)+strings.Repeat("]", 600)+`}`),
		[]byte("  \t "),
		[]byte("{\"type\":\"user\",\"x\":\"a\x00b\"}"),
		[]byte(`  {"type" : "summary" , "version":"2.1.400" }  `),
		[]byte(`{"type":"user","type":"some-new-type"}`),
	)
	var sc jsonscan.Scanner
	own, shared := newFileFeed("f", &sc), newFileFeed("f", &sc)
	sum := sessions.NewSummarizing("f")
	for i, d := range lines {
		l := model.Line{Bytes: d, Number: i + 1, Size: int64(len(d))}
		own.line(l)
		sum.Line(l)
		shared.lineValid(l, sum.Valid())
		if !reflect.DeepEqual(own.out, shared.out) {
			t.Fatalf("after line %d %q:\nchecking it: %+v\ntaking stat's word: %+v", i+1, d, own.out, shared.out)
		}
	}
	if own.out.Malformed < 6 || len(own.out.Unknown) < 3 {
		t.Errorf("the lines tell too little apart: %+v", own.out)
	}
	sum.Summary(0, nil)
}

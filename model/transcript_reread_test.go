package model

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

// Every record ScanTranscript found is read again by its offset and size
// as the same record: after a byte order mark, across CRLF line ends, in
// a last line without a newline, and in lines that cross the reader's
// window or are longer than it; in file order and in reverse.
func TestRereaderReadsWhatTheScanFound(t *testing.T) {
	var b strings.Builder
	b.WriteString("\ufeff")
	for i := range 400 {
		end := "\n"
		if i%3 == 0 {
			end = "\r\n"
		}
		text := strings.Repeat("x", i*7%5000)
		if i == 200 {
			text = strings.Repeat("y", rereadWindow+1000) // longer than the window
		}
		fmt.Fprintf(&b, `{"type":"user","uuid":"u%d","parentUuid":null,"message":{"role":"user","content":"%s"}}`+end, i, text)
		if i%50 == 0 {
			b.WriteString("\n") // a blank line
		}
	}
	b.WriteString(`{"type":"user","uuid":"last","message":{"role":"user","content":"no newline"}}`)
	fsys := fstest.MapFS{"s.jsonl": {Data: []byte(b.String())}}
	var recs []Record
	if _, err := ScanTranscript(strings.NewReader(b.String()), "s.jsonl", ScanOptions{Content: true}, func(r *Record) error {
		recs = append(recs, *r)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(recs) != 401 {
		t.Fatalf("scanned %d records, want 401", len(recs))
	}
	rr, err := OpenRereader(fsys, "s.jsonl", ScanOptions{Content: true})
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Close()
	check := func(r Record) {
		got, err := rr.Read(r.Line, r.Offset, r.Size, r.UUID)
		if err != nil {
			t.Fatalf("line %d: %v", r.Line, err)
		}
		if got.UUID != r.UUID || got.Line != r.Line || got.Message.ContentBytes != r.Message.ContentBytes {
			t.Fatalf("line %d: read %s (%d content bytes), want %s (%d)", r.Line, got.UUID, got.Message.ContentBytes, r.UUID, r.Message.ContentBytes)
		}
	}
	for _, r := range recs {
		check(r)
	}
	for i := len(recs) - 1; i >= 0; i-- {
		check(recs[i])
	}
}

// A line rewritten since it was scanned is ErrLineChanged naming the file
// and line: another uuid in the same bytes, a line that grew past its
// newline, and a file cut short.
func TestRereaderReportsChangedLines(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.jsonl")
	one := `{"type":"user","uuid":"u1","message":{"role":"user","content":"hello"}}`
	two := `{"type":"user","uuid":"u2","message":{"role":"user","content":"world"}}`
	write := func(s string) {
		if err := os.WriteFile(path, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	off := int64(len(one) + 1)
	for _, c := range []struct{ name, data string }{
		{"another uuid", one + "\n" + strings.Replace(two, "u2", "u9", 1) + "\n"},
		{"longer line", one + "\n" + strings.Replace(two, "world", "world!", 1) + "\n"},
		{"cut short", one + "\n" + two[:20]},
	} {
		write(c.data)
		rr, err := OpenRereader(os.DirFS(dir), "s.jsonl", ScanOptions{})
		if err != nil {
			t.Fatal(err)
		}
		_, err = rr.Read(2, off, len(two), "u2")
		rr.Close()
		if !errors.Is(err, ErrLineChanged) || !strings.Contains(err.Error(), "s.jsonl line 2") {
			t.Errorf("%s: %v, want ErrLineChanged naming s.jsonl line 2", c.name, err)
		}
	}
	write(one + "\n" + two + "\n")
	rr, err := OpenRereader(os.DirFS(dir), "s.jsonl", ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Close()
	if r, err := rr.Read(2, off, len(two), "u2"); err != nil || r.UUID != "u2" {
		t.Errorf("unchanged line: %v, %v", r, err)
	}
}

package model

import (
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"sync/atomic"
	"testing"
	"time"
)

// openCountFS counts the opens of one name.
type openCountFS struct {
	fs.FS
	name  string
	opens atomic.Int64
}

func (c *openCountFS) Open(name string) (fs.File, error) {
	if name == c.name {
		c.opens.Add(1)
	}
	return c.FS.Open(name)
}

func (c *openCountFS) Stat(name string) (fs.FileInfo, error) { return fs.Stat(c.FS, name) }

// A second whole read of an unchanged history file takes the first's
// entries without opening the file, as copies (a change to one reader's
// entries is not another's); the tail it leaves continues as a read of
// its own would; an appended line makes the next whole read read it.
// Not parallel: it sets historySettle (the file was just written).
func TestHistoryWholeReadShared(t *testing.T) {
	defer func(d time.Duration) { historySettle = d }(historySettle)
	historySettle = 0
	dir := t.TempDir()
	p := filepath.Join(dir, "history.jsonl")
	line := func(n string) string {
		return `{"display":"prompt ` + n + `","pastedContents":{},"timestamp":1795340000000,"project":"/home/me/p","sessionId":"s1"}` + "\n"
	}
	if err := os.WriteFile(p, []byte(line("1")+"{not json\n"+line("3")), 0o600); err != nil {
		t.Fatal(err)
	}
	cf := &openCountFS{FS: DirFS(dir), name: "history.jsonl"}
	var a, b HistoryTail
	ra, err := a.Read(cf, "history.jsonl")
	if err != nil || len(ra.Entries) != 2 || len(ra.Problems) != 1 || !ra.Full {
		t.Fatalf("first read: %+v, %v", ra, err)
	}
	opens := cf.opens.Load()
	rb, err := b.Read(cf, "history.jsonl")
	if err != nil || !reflect.DeepEqual(ra, rb) || b.State != a.State {
		t.Fatalf("second read %+v (state %+v), %v; want the first's %+v (state %+v)", rb, b.State, err, ra, a.State)
	}
	if n := cf.opens.Load() - opens; n != 0 {
		t.Errorf("the second whole read opened the file %d times, want 0", n)
	}
	ra.Entries[0].Display = "changed by the first reader"
	if rb.Entries[0].Display != "prompt 1" {
		t.Errorf("the readers share their entries: %q", rb.Entries[0].Display)
	}
	// The client appends: a new whole read reads the file, and the
	// second reader's tail goes on from where the first read stopped.
	f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(line("4")); err != nil {
		t.Fatal(err)
	}
	f.Close()
	var c HistoryTail
	opens = cf.opens.Load()
	rc, err := c.Read(cf, "history.jsonl")
	if err != nil || len(rc.Entries) != 3 || rc.Entries[0].Display != "prompt 1" || cf.opens.Load() == opens {
		t.Fatalf("whole read after an append: %+v, %v (opens %d → %d)", rc.Entries, err, opens, cf.opens.Load())
	}
	more, err := b.Read(cf, "history.jsonl")
	if err != nil || more.Full || len(more.Entries) != 1 || more.Entries[0].Display != "prompt 4" || more.Entries[0].Line != 4 {
		t.Fatalf("the shared tail's next read: %+v, %v", more, err)
	}
}

package model

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

func TestParseOwnCopy(t *testing.T) {
	cases := []struct {
		name string
		want OwnCopy
		ok   bool
		orig string
	}{
		{".note.md.memscope-4242-123456", OwnCopy{Of: "note.md", PID: 4242, Tag: "temp"}, true, "note.md"},
		{".note.md.memscope-4242-stage-7", OwnCopy{Of: "note.md", PID: 4242, Tag: "stage"}, true, "note.md"},
		{".note.md.memscope-4242-remove-3", OwnCopy{Of: "note.md", PID: 4242, Tag: "remove"}, true, "note.md"},
		{"..note.md.memscope-4242-stage-7.memscope-4242-99", OwnCopy{Of: ".note.md.memscope-4242-stage-7", PID: 4242, Tag: "temp"}, true, "note.md"},
		{".memscope-4242-probe-55", OwnCopy{PID: 4242, Tag: "probe"}, true, ""},
		// Names from before the pid came first.
		{".note.md.memscope-123456", OwnCopy{Of: "note.md", Tag: "temp"}, true, "note.md"},
		{".note.md.memscope-stage-7-4242", OwnCopy{Of: "note.md", Tag: "stage"}, true, "note.md"},
		{".memscope-write-test-42", OwnCopy{Tag: "probe"}, true, ""},
		// Not memscope's.
		{"note.md.memscope-4242-1", OwnCopy{}, false, ""},
		{".note.md", OwnCopy{}, false, ""},
		{".note.md.memscope-", OwnCopy{}, false, ""},
		{".note.md.memscope-4242-draft", OwnCopy{}, false, ""},
		{".note.md.memscope-abc", OwnCopy{}, false, ""},
		{".memscope-4242-other", OwnCopy{}, false, ""},
		{"..memscope-1-2", OwnCopy{}, false, ""},
	}
	for _, c := range cases {
		got, ok := ParseOwnCopy(c.name)
		if ok != c.ok || got != c.want {
			t.Errorf("ParseOwnCopy(%q) = %+v, %v; want %+v, %v", c.name, got, ok, c.want, c.ok)
		}
		if ok && OriginalOf(c.name) != c.orig {
			t.Errorf("OriginalOf(%q) = %q, want %q", c.name, OriginalOf(c.name), c.orig)
		}
	}
}

// The writer's temporary files carry this process's id, so a later
// memscope can tell they belong to a running write.
func TestAtomicWriterTempCarriesPID(t *testing.T) {
	dir := t.TempDir()
	var seen string
	w := &watchCreate{OSWriteFS: OSWriteFS{}, seen: &seen}
	if err := WriteFileAtomicWith(w, dir+"/x.md", []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	c, ok := ParseOwnCopy(seen)
	if !ok || c.PID != os.Getpid() || c.Of != "x.md" || c.Tag != "temp" {
		t.Fatalf("temporary file %q reads as %+v, %v; want a temp copy of x.md by pid %d", seen, c, ok, os.Getpid())
	}
	if !strings.HasPrefix(seen, OwnPrefix("x.md")) || !strings.Contains(OwnProbePattern(), strconv.Itoa(os.Getpid())) {
		t.Fatalf("names without this pid: %q, %q", seen, OwnProbePattern())
	}
	if !ProcessAlive(os.Getpid()) || ProcessAlive(0) || ProcessAlive(-1) {
		t.Fatal("ProcessAlive is wrong about this process or about pid 0/-1")
	}
}

// watchCreate records the base name of the temporary file created.
type watchCreate struct {
	OSWriteFS
	seen *string
}

func (w *watchCreate) CreateTemp(dir, pattern string) (TempFile, error) {
	f, err := w.OSWriteFS.CreateTemp(dir, pattern)
	if err == nil {
		*w.seen = f.Name()[len(dir)+1:]
	}
	return f, err
}

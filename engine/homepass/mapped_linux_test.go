//go:build linux

package homepass

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/memscope/memscope/model"
)

// rchar is the bytes this process read through read(2) and its kin
// (/proc/self/io), -1 when it cannot say.
func rchar(t *testing.T) int64 {
	b, err := os.ReadFile("/proc/self/io")
	if err != nil {
		t.Skipf("no /proc/self/io: %v", err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "rchar: "); ok {
			n, _ := strconv.ParseInt(v, 10, 64)
			return n
		}
	}
	t.Skip("no rchar in /proc/self/io")
	return -1
}

// bigHome is a home of one transcript of size bytes or a little more.
func bigHome(t *testing.T, size int) (string, []model.TranscriptFile) {
	line := append(bytes.Repeat([]byte("z"), 499), '\n')
	data := bytes.Repeat(line, size/len(line)+1)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "big.jsonl"), data, 0o600); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(filepath.Join(dir, "big.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	return dir, []model.TranscriptFile{{Path: "big.jsonl", Size: info.Size(), ModTime: info.ModTime()}}
}

// TestRunMapsBigTranscripts: the pass reads a big transcript through a
// mapping, not with read(2) (the page cache's copy is a tenth of a cold
// start's CPU), and counts its bytes read all the same.
func TestRunMapsBigTranscripts(t *testing.T) {
	dir, files := bigHome(t, 4<<20)
	plain := newFake("big.jsonl")
	before := rchar(t)
	st, err := Run(model.DirFS(dir), files, 1, plain)
	read := rchar(t) - before
	if err != nil {
		t.Fatal(err)
	}
	if st.Bytes != files[0].Size || !plain.ended["big.jsonl"] || len(plain.lines["big.jsonl"]) != int(files[0].Size/500) {
		t.Fatalf("stats %+v, ended whole %v, %d lines", st, plain.ended, len(plain.lines["big.jsonl"]))
	}
	if read > files[0].Size/4 {
		t.Errorf("%d bytes read with read(2) for a %d-byte transcript: want it mapped", read, files[0].Size)
	}
}

// truncator is a consumer whose file cuts the transcript short on its
// 3000th line and reads on.
type truncator struct {
	path  string
	lines int
	err   error
	n     int64
}

func (c *truncator) Want(model.TranscriptFile, model.FileStamp) File { return c }
func (c *truncator) Done() error                                     { return nil }
func (c *truncator) Line(l model.Line) {
	c.lines++
	if c.lines == 3000 {
		if err := os.Truncate(c.path, 0); err != nil {
			panic(err)
		}
	}
	_ = bytes.IndexByte(l.Bytes, 'q') // touches the line's bytes
}
func (c *truncator) End(n int64, err error, whole bool) { c.n, c.err = n, err }

// TestRunTruncatedWhileMapped: a transcript truncated while the pass has
// it mapped is a read error of that file, not a crash (SIGBUS).
func TestRunTruncatedWhileMapped(t *testing.T) {
	dir, files := bigHome(t, 12<<20) // more than a window
	c := &truncator{path: filepath.Join(dir, "big.jsonl")}
	if _, err := Run(model.DirFS(dir), files, 1, c); err != nil {
		t.Fatal(err)
	}
	if c.err == nil || c.lines < 3000 || c.lines > 3000+8<<20/500 || c.n >= files[0].Size {
		t.Fatalf("after %d lines: n %d, error %v; want an error", c.lines, c.n, c.err)
	}
}

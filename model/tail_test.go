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

// tailFile is a transcript in a temporary folder, appended to and read
// incrementally as a live session's would be.
type tailFile struct {
	t     *testing.T
	dir   string
	name  string
	state TailState
}

func newTailFile(t *testing.T, content string) *tailFile {
	t.Helper()
	f := &tailFile{t: t, dir: t.TempDir(), name: "s.jsonl"}
	f.write(content)
	return f
}

func (f *tailFile) path() string { return filepath.Join(f.dir, f.name) }

func (f *tailFile) write(content string) {
	f.t.Helper()
	if err := os.WriteFile(f.path(), []byte(content), 0o600); err != nil {
		f.t.Fatal(err)
	}
}

func (f *tailFile) append(content string) {
	f.t.Helper()
	w, err := os.OpenFile(f.path(), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		f.t.Fatal(err)
	}
	if _, err := w.WriteString(content); err != nil {
		f.t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		f.t.Fatal(err)
	}
}

// read tails the file and returns the result and the records' "line:uuid".
func (f *tailFile) read() (TailTranscriptResult, []string) {
	f.t.Helper()
	var got []string
	res, err := TailTranscript(os.DirFS(f.dir), f.name, f.state, ScanOptions{}, func(r *Record, line []byte) error {
		if !strings.Contains(string(line), r.UUID) {
			f.t.Errorf("line %d handed with the wrong bytes: %s", r.Line, line)
		}
		got = append(got, fmt.Sprintf("%d:%s", r.Line, r.UUID))
		return nil
	})
	if err != nil {
		f.t.Fatalf("TailTranscript: %v", err)
	}
	f.state = res.State
	return res, got
}

func rec(uuid string) string {
	return fmt.Sprintf(`{"type":"user","uuid":%q,"sessionId":"s","message":{"role":"user","content":"hi"}}`, uuid)
}

func TestTailAppendsAndPartialLines(t *testing.T) {
	f := newTailFile(t, rec("a")+"\n"+rec("b")+"\n")
	res, got := f.read()
	if strings.Join(got, " ") != "1:a 2:b" || res.Reset != "" || res.Pending != 0 {
		t.Fatalf("first read %v %+v", got, res)
	}
	size := int64(2 * (len(rec("a")) + 1))
	if f.state.Offset != size || f.state.Lines != 2 || res.Bytes != size {
		t.Errorf("state %+v bytes %d, want offset %d", f.state, res.Bytes, size)
	}

	// Nothing new: the head is checked and nothing else read.
	res, got = f.read()
	if len(got) != 0 || !res.Unchanged || res.Read != size {
		t.Errorf("unchanged read %v %+v (read %d, want the %d-byte head only)", got, res, res.Read, size)
	}

	// A record written in two pieces: the first piece is left pending.
	c := rec("c")
	f.append(c[:20])
	res, got = f.read()
	if len(got) != 0 || res.Pending != 20 || f.state.Offset != size || res.Problems != nil {
		t.Errorf("after a partial line: %v %+v", got, res)
	}
	f.append(c[20:] + "\n" + rec("d") + "\n")
	res, got = f.read()
	if strings.Join(got, " ") != "3:c 4:d" || res.Pending != 0 || res.Lines != 2 {
		t.Errorf("after completing it: %v %+v", got, res)
	}
	if want := size + int64(len(c)+len(rec("d"))+2); f.state.Offset != want {
		t.Errorf("offset %d, want %d", f.state.Offset, want)
	}
}

func TestTailCRLFAndBlankLines(t *testing.T) {
	f := newTailFile(t, rec("a")+"\r\n\n")
	_, got := f.read()
	f.append(rec("b") + "\r\n")
	_, got2 := f.read()
	if strings.Join(append(got, got2...), " ") != "1:a 3:b" {
		t.Errorf("records %v %v", got, got2)
	}
	if info, _ := os.Stat(f.path()); f.state.Offset != info.Size() {
		t.Errorf("offset %d, size %d", f.state.Offset, info.Size())
	}
}

func TestTailResets(t *testing.T) {
	base := rec("a") + "\n" + rec("b") + "\n" + rec("c") + "\n"
	tests := []struct {
		name   string
		change func(f *tailFile)
		want   TailReset
		// noInode is what is found where inodes are unknown (only the
		// size and the head can tell).
		noInode TailReset
		// after is what a fresh read of the changed file finds.
		after string
	}{
		{"truncated", func(f *tailFile) {
			if err := os.Truncate(f.path(), int64(len(rec("a"))+1)); err != nil {
				t.Fatal(err)
			}
		}, TailTruncated, TailTruncated, "1:a"},
		{"replaced by rename, same size", func(f *tailFile) {
			// Same length, other uuids: only the inode (or the head, where
			// inodes are unknown) tells.
			other := filepath.Join(f.dir, "new.jsonl")
			if err := os.WriteFile(other, []byte(rec("x")+"\n"+rec("y")+"\n"+rec("z")+"\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(other, f.path()); err != nil {
				t.Fatal(err)
			}
		}, TailReplaced, TailRewritten, "1:x 2:y 3:z"},
		{"replaced by rename, same bytes", func(f *tailFile) {
			// Only the inode tells this one.
			other := filepath.Join(f.dir, "new.jsonl")
			if err := os.WriteFile(other, []byte(base), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(other, f.path()); err != nil {
				t.Fatal(err)
			}
		}, TailReplaced, "", "1:a 2:b 3:c"},
		{"rotated, then a new file grew past the old size", func(f *tailFile) {
			if err := os.Rename(f.path(), f.path()+".1"); err != nil {
				t.Fatal(err)
			}
			f.write(rec("p") + "\n" + rec("q") + "\n" + rec("r") + "\n" + rec("s") + "\n")
		}, TailReplaced, TailRewritten, "1:p 2:q 3:r 4:s"},
		{"rewritten in place, longer", func(f *tailFile) {
			f.write(rec("m") + "\n" + rec("b") + "\n" + rec("c") + "\n" + rec("d") + "\n")
		}, TailRewritten, TailRewritten, "1:m 2:b 3:c 4:d"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newTailFile(t, base)
			f.read()
			tt.change(f)
			want := tt.want
			if !f.state.ID.Known {
				want = tt.noInode
				if want == "" {
					return // an identical copy: nothing to tell it by, nothing lost
				}
			}
			res, got := f.read()
			if res.Reset != want || len(got) != 0 || f.state != (TailState{}) {
				t.Fatalf("reset %q records %v state %+v, want reset %q, nothing read, zero state", res.Reset, got, f.state, want)
			}
			res, got = f.read()
			if res.Reset != "" || strings.Join(got, " ") != tt.after {
				t.Errorf("re-read: reset %q records %v, want %s", res.Reset, got, tt.after)
			}
		})
	}
}

// Without inodes (an fs.FS that has none), a same-size replacement is
// caught by the head hash.
func TestTailRewrittenWithoutInodes(t *testing.T) {
	a := rec("a") + "\n"
	fsys := fstest.MapFS{"s.jsonl": {Data: []byte(a)}}
	res, err := TailTranscript(fsys, "s.jsonl", TailState{}, ScanOptions{}, nil)
	if err != nil || res.Records != 1 || res.State.ID.Known {
		t.Fatalf("first read %+v %v", res, err)
	}
	fsys["s.jsonl"] = &fstest.MapFile{Data: []byte(rec("b") + "\n")}
	res, err = TailTranscript(fsys, "s.jsonl", res.State, ScanOptions{}, nil)
	if err != nil || res.Reset != TailRewritten || res.Records != 0 {
		t.Errorf("after a same-size rewrite %+v %v", res, err)
	}
}

func TestTailMalformedLinesNamed(t *testing.T) {
	f := newTailFile(t, rec("a")+"\n{not json\n")
	res, got := f.read()
	if strings.Join(got, " ") != "1:a" || res.Records != 1 || len(res.Problems) != 1 {
		t.Fatalf("first read %v %+v", got, res)
	}
	p := res.Problems[0]
	if p.Kind != ProblemMalformed || p.Line != 2 || !strings.HasPrefix(p.Error(), "s.jsonl:2: ") {
		t.Errorf("problem %+v (%s)", p, p.Error())
	}
	// Numbering goes on in the appended part.
	f.append(rec("b") + "\n" + `{"uuid":"no-type"}` + "\n")
	res, got = f.read()
	if strings.Join(got, " ") != "3:b" || len(res.Problems) != 1 || res.Problems[0].Line != 4 ||
		res.Problems[0].Error() != `s.jsonl:4: record has no "type"` {
		t.Errorf("second read %v %+v", got, res.Problems)
	}
}

func TestTailStopsWhereCallbackFails(t *testing.T) {
	f := newTailFile(t, rec("a")+"\n"+rec("b")+"\n"+rec("c")+"\n")
	stop := errors.New("stop")
	res, err := TailTranscript(os.DirFS(f.dir), f.name, TailState{}, ScanOptions{}, func(r *Record, _ []byte) error {
		if r.UUID == "b" {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) || res.State.Lines != 2 || res.State.Offset != int64(2*(len(rec("a"))+1)) {
		t.Fatalf("state %+v err %v, want it after line 2", res.State, err)
	}
	f.state = res.State
	if _, got := f.read(); strings.Join(got, " ") != "3:c" {
		t.Errorf("resumed with %v", got)
	}
}

func TestTailMissingFile(t *testing.T) {
	_, err := TailTranscript(os.DirFS(t.TempDir()), "gone.jsonl", TailState{}, ScanOptions{}, nil)
	if !errors.Is(err, os.ErrNotExist) {
		t.Errorf("err %v, want not-exist", err)
	}
}

// Reading a real transcript in arbitrary pieces, as a writer appends it,
// finds exactly the records and problems one ScanTranscript finds.
func TestTailPiecewiseMatchesScan(t *testing.T) {
	for _, name := range []string{"transcript-partial-compactions.jsonl", "transcript-interactive-pastes.jsonl"} {
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", "transcripts", name))
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			sum, err := ScanTranscript(strings.NewReader(string(data)), name, ScanOptions{Content: true}, func(r *Record) error {
				want = append(want, describeRec(r))
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			path := filepath.Join(dir, name)
			if err := os.WriteFile(path, nil, 0o600); err != nil {
				t.Fatal(err)
			}
			var got []string
			var st TailState
			var probs []Problem
			// Piece sizes cycle through primes so cuts land everywhere:
			// inside lines, on newlines, across several lines.
			sizes := []int{1, 7, 4093, 61, 150001, 3}
			for off, i := 0, 0; off < len(data); i++ {
				n := min(sizes[i%len(sizes)], len(data)-off)
				w, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
				if err != nil {
					t.Fatal(err)
				}
				w.Write(data[off : off+n])
				w.Close()
				off += n
				res, err := TailTranscript(os.DirFS(dir), name, st, ScanOptions{Content: true}, func(r *Record, _ []byte) error {
					got = append(got, describeRec(r))
					return nil
				})
				if err != nil || res.Reset != "" {
					t.Fatalf("piece %d: %v reset %q", i, err, res.Reset)
				}
				st = res.State
				probs = append(probs, res.Problems...)
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("records differ: %d piecewise, %d in one scan", len(got), len(want))
			}
			if fmt.Sprint(probs) != fmt.Sprint(sum.Problems) {
				t.Errorf("problems %v, want %v", probs, sum.Problems)
			}
			if st.Offset != int64(len(data)) || len(want) == 0 {
				t.Errorf("offset %d of %d, %d records", st.Offset, len(data), len(want))
			}
		})
	}
}

func describeRec(r *Record) string {
	s := fmt.Sprintf("%d@%d %s/%s %s", r.Line, r.Offset, r.Type, r.Subtype, r.UUID)
	if m := r.Message; m != nil {
		s += fmt.Sprintf(" %d blocks %d chars", len(m.Content), m.ContentChars)
		if m.Usage != nil {
			s += fmt.Sprintf(" usage %+v", *m.Usage)
		}
	}
	return s
}

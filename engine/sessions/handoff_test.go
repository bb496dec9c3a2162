package sessions

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/memscope/memscope/engine/homepass"
	"github.com/memscope/memscope/engine/internal/enginetest"
	"github.com/memscope/memscope/internal/testenv"
	"github.com/memscope/memscope/model"
)

// handoffHome copies the test home's transcripts into a temporary home
// and returns it with its transcripts.
func handoffHome(t *testing.T) (string, fs.FS, []model.TranscriptFile) {
	t.Helper()
	src := os.DirFS("../../testdata/home")
	dir := t.TempDir()
	fs.WalkDir(src, "projects", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".jsonl") {
			return err
		}
		data, err := fs.ReadFile(src, p)
		if err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		return os.WriteFile(dst, data, 0o644)
	})
	home := model.DirFS(dir)
	files, _ := model.FindTranscripts(home)
	if len(files) < 3 {
		t.Fatalf("found %d transcripts in the test home", len(files))
	}
	return dir, home, files
}

// followerState is what a follower holds that a caller sees.
type followerState struct {
	Summary     model.TranscriptSummary
	Title       Title
	Offset      int64
	Lines       int
	Size        int64
	HeadLen     int
	Starts, Att int
}

func stateOf(t *testing.T, f *Follower, home fs.FS, name string) followerState {
	t.Helper()
	sum, err := f.Update(home, name)
	if err != nil {
		t.Fatal(err)
	}
	st := f.Read()
	s, a := f.Attachments()
	return followerState{Summary: normal(sum), Title: f.Title(), Offset: st.Offset, Lines: st.Lines, Size: st.Size, HeadLen: st.HeadLen, Starts: s, Att: a}
}

// A follower the shared pass built (Handoff) is the follower a read of
// its own builds: the same summary, title and position, and its Update
// reads no more than the head it checks (not the file again). Before the
// Handoff, the Replay list read each of the open project's transcripts
// the pass had just read. Beside stat's summary in the pass the follower
// takes its reading of each line (homepass.Recorder) and reads itself
// only the lines the summary left to the transcript reader; before, it
// read every line again.
func TestHandoffFollowerIsUpdatesFollower(t *testing.T) {
	dir, _, _ := handoffHome(t)
	slug := "-tmp-rc-work-beta"
	// Lines the summary leaves to the transcript reader among others:
	// no JSON, a message that is no object, a blank line, the session
	// and folder first named late, a response counted twice.
	usage := `{"type":"assistant","requestId":"r1","timestamp":"2026-11-20T10:01:00Z","message":{"id":"m1","role":"assistant","model":"claude-x","content":[{"type":"text","text":"a"}],"usage":{"input_tokens":3,"output_tokens":4}}}` + "\n"
	mixed := `{"type":"user","timestamp":"2026-11-20T10:00:00Z","message":{"role":"user","content":"first prompt"}}` + "\n" +
		"{not json\n\n" + usage + usage +
		`{"type":"user","timestamp":"2026-11-20T10:02:00Z","message":"x","sessionId":"s1"}` + "\n" +
		`{"type":"system","subtype":"compact_boundary","sessionId":"s2","cwd":"/w","timestamp":"2026-11-20T10:03:00Z"}` + "\n" +
		`{"type":"custom-title","customTitle":"mixed","sessionId":"s3"}` + "\n"
	if err := os.WriteFile(filepath.Join(dir, "projects", slug, "mixed.jsonl"), []byte(mixed), 0o644); err != nil {
		t.Fatal(err)
	}
	home := model.DirFS(dir)
	files, _ := model.FindTranscripts(home)
	for _, withSummary := range []bool{false, true} {
		h := NewHandoff()
		var reads homepass.Consumer = enginetest.ReadAll{}
		if withSummary {
			reads = summarizes{}
		}
		if _, err := homepass.Run(home, files, 2, reads, h.Feed(slug)); err != nil {
			t.Fatal(err)
		}
		taken := 0
		for _, tf := range files {
			if tf.ProjectSlug != slug {
				if h.Take(tf) != nil {
					t.Errorf("%s: handed a follower of another project's transcript", tf.Path)
				}
				continue
			}
			want := stateOf(t, NewFollower(), home, tf.Path)
			rc := &testenv.ReadCounter{FS: home, Count: func(string) bool { return true }}
			f := h.Take(tf)
			if f == nil {
				t.Errorf("%s: no follower handed", tf.Path)
				continue
			}
			taken++
			scanned := f.scanned
			got := stateOf(t, f, rc, tf.Path)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("summary %v, %s: the handed follower\n%+v\na read of its own\n%+v", withSummary, tf.Path, got, want)
			}
			if n := rc.N.Load(); n > model.TailHeadMax {
				t.Errorf("%s: the handed follower's Update read %d bytes, want at most its head check", tf.Path, n)
			}
			if h.Take(tf) != nil {
				t.Errorf("%s: a follower handed twice", tf.Path)
			}
			lines, left := summaryLeaves(t, home, tf.Path)
			if withSummary && scanned != left || !withSummary && scanned != lines {
				t.Errorf("summary %v, %s: the follower read %d lines itself, of %d (the summary left %d)", withSummary, tf.Path, scanned, lines, left)
			}
		}
		if taken == 0 {
			t.Fatal("no transcript of the project: the test proves nothing")
		}
	}
}

// summaryLeaves reads the transcript name with stat's summary: its lines
// ending in a line break, and how many of those it left to the
// transcript reader.
func summaryLeaves(t *testing.T, home fs.FS, name string) (lines, left int) {
	t.Helper()
	d, err := fs.ReadFile(home, name)
	if err != nil {
		t.Fatal(err)
	}
	s := NewSummarizing(name)
	lr := model.NewLineReader(bytes.NewReader(d))
	for l, ok := lr.Next(); ok; l, ok = lr.Next() {
		s.Line(l)
		if !l.Terminated {
			continue
		}
		lines++
		if _, how := s.Record(); how == homepass.ReadByModel {
			left++
		}
	}
	s.Summary(int64(len(d)), nil)
	return lines, left
}

// A transcript written after the pass read it is not handed on (the
// load reads it); one appended to after it was handed is followed from
// where the pass stopped, to what a read of its own gives.
func TestHandoffFollowerOfAChangedTranscript(t *testing.T) {
	dir, home, files := handoffHome(t)
	slug := "-tmp-rc-work-beta"
	var mine []model.TranscriptFile
	for _, tf := range files {
		if tf.ProjectSlug == slug {
			mine = append(mine, tf)
		}
	}
	if len(mine) < 2 {
		t.Fatalf("the project has %d transcripts, want 2", len(mine))
	}
	h := NewHandoff()
	if _, err := homepass.Run(home, files, 2, enginetest.ReadAll{}, h.Feed(slug)); err != nil {
		t.Fatal(err)
	}
	line := `{"type":"user","uuid":"u-new","timestamp":"2026-11-30T10:00:00.000Z","sessionId":"s","message":{"role":"user","content":"more"}}` + "\n"
	appendTo := func(name string) model.TranscriptFile {
		p := filepath.Join(dir, name)
		fh, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		fh.WriteString(line)
		fh.Close()
		later := time.Now().Add(time.Hour)
		os.Chtimes(p, later, later)
		info, _ := os.Stat(p)
		tf := model.TranscriptFile{Path: name, ProjectSlug: slug, Size: info.Size(), ModTime: info.ModTime()}
		return tf
	}
	// Written before the load asks: not handed.
	if f := h.Take(appendTo(mine[0].Path)); f != nil {
		t.Errorf("%s: a follower handed for a transcript written since the pass read it", mine[0].Path)
	}
	// Handed, then written: Update reads the new line only.
	f := h.Take(mine[1])
	if f == nil {
		t.Fatalf("%s: no follower handed", mine[1].Path)
	}
	appendTo(mine[1].Path)
	rc := &testenv.ReadCounter{FS: home, Count: func(string) bool { return true }}
	got := stateOf(t, f, rc, mine[1].Path)
	want := stateOf(t, NewFollower(), home, mine[1].Path)
	got.Starts, want.Starts = 0, 0
	if !reflect.DeepEqual(got, want) {
		t.Errorf("after an append the handed follower\n%+v\na read of its own\n%+v", got, want)
	}
	if n := rc.N.Load(); n > int64(len(line))+model.TailHeadMax {
		t.Errorf("the handed follower read %d bytes for a %d-byte append", n, len(line))
	}
}

// A transcript whose last line has no line break yet (being written) is
// not handed on: Update stops before that line, the pass read it.
func TestHandoffLeavesAnUnendedLine(t *testing.T) {
	dir, home, files := handoffHome(t)
	var tf model.TranscriptFile
	for _, f := range files {
		if f.ProjectSlug == "-tmp-rc-work-beta" {
			tf = f
		}
	}
	p := filepath.Join(dir, tf.Path)
	fh, _ := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	fh.WriteString(`{"type":"user","uuid":"half`)
	fh.Close()
	files, _ = model.FindTranscripts(home)
	h := NewHandoff()
	if _, err := homepass.Run(home, files, 2, enginetest.ReadAll{}, h.Feed(tf.ProjectSlug)); err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if f.Path == tf.Path && h.Take(f) != nil {
			t.Errorf("%s: a follower handed for a transcript ending mid-line", f.Path)
		}
	}
}

// A Take asked while a pass is due (Expect) waits for its claims and
// takes the follower it builds, though it asked before the pass began;
// without a pass, Resolve ends the wait and the caller reads. (Without
// the wait, the Replay list's load, which the app starts beside the
// Overview's pass, read every transcript before the pass claimed it.)
func TestHandoffTakeWaitsForADuePass(t *testing.T) {
	_, home, files := handoffHome(t)
	slug := "-tmp-rc-work-beta"
	var tf model.TranscriptFile
	for _, f := range files {
		if f.ProjectSlug == slug && strings.HasSuffix(f.Path, ".jsonl") {
			tf = f
		}
	}
	h := NewHandoff()
	h.Expect()
	got := make(chan *Follower)
	go func() { got <- h.Take(tf) }()
	// The Take waits for the pass (at most homepass.DueWait, 5 s):
	// without the wait it answers at once, with no follower. A tenth of
	// a second gives it the time to (a slow scheduler can only make the
	// test miss that bug, never fail the right code).
	select {
	case f := <-got:
		t.Fatalf("a Take asked while the pass was due answered before it began (follower %v)", f)
	case <-time.After(100 * time.Millisecond):
	}
	if _, err := homepass.Run(home, files, 2, enginetest.ReadAll{}, h.Feed(slug)); err != nil {
		t.Fatal(err)
	}
	h.Resolve()
	if f := <-got; f == nil {
		t.Error("a Take asked before the due pass began took no follower")
	}

	h = NewHandoff()
	h.Expect()
	go func() { got <- h.Take(tf) }()
	h.Resolve()
	if f := <-got; f != nil {
		t.Error("a Take with no pass took a follower")
	}
}

package model

import (
	"fmt"
	"os"
	"reflect"
	"strings"
	"sync"
	"testing"
)

// followLine is one transcript line: a chain record, an assistant
// response with usage, or a compaction boundary.
func followLine(i int) string {
	parent := "null"
	if i > 0 {
		parent = fmt.Sprintf(`"u%d"`, i-1)
	}
	switch {
	case i%7 == 6:
		return fmt.Sprintf(`{"parentUuid":null,"logicalParentUuid":%s,"type":"system","subtype":"compact_boundary","uuid":"u%d","sessionId":"s","timestamp":"2026-11-22T10:00:%02dZ","compactMetadata":{"trigger":"auto","preTokens":1000,"postTokens":100}}`, parent, i, i%60)
	case i%2 == 1:
		return fmt.Sprintf(`{"parentUuid":%s,"type":"assistant","uuid":"u%d","sessionId":"s","requestId":"r%d","timestamp":"2026-11-22T10:00:%02dZ","message":{"id":"m%d","role":"assistant","content":[{"type":"text","text":"ok"}],"usage":{"input_tokens":%d,"output_tokens":5}}}`, parent, i, i, i%60, i, 100*i)
	}
	return fmt.Sprintf(`{"parentUuid":%s,"type":"user","uuid":"u%d","sessionId":"s","cwd":"/w","timestamp":"2026-11-22T10:00:%02dZ","message":{"role":"user","content":"p%d"}}`, parent, i, i%60, i)
}

// sameAsFullRead checks that the follower's snapshot is what a full read
// of the file gives: records (line and uuid), duplicates and the summary.
func sameAsFullRead(t *testing.T, f *tailFile, snap *Transcript) {
	t.Helper()
	want, err := ReadTranscriptWith(os.DirFS(f.dir), f.name, ScanOptions{Content: true})
	if err != nil {
		t.Fatal(err)
	}
	lines := func(tr *Transcript) []string {
		var out []string
		for _, r := range tr.Records {
			out = append(out, fmt.Sprintf("%d:%s:%d", r.Line, r.UUID, r.Offset))
		}
		return out
	}
	if g, w := lines(snap), lines(want); !reflect.DeepEqual(g, w) {
		t.Fatalf("records differ from a full read:\n got %v\nwant %v", g, w)
	}
	if !reflect.DeepEqual(snap.DuplicateUUIDs, want.DuplicateUUIDs) {
		t.Errorf("duplicates %v, full read %v", snap.DuplicateUUIDs, want.DuplicateUUIDs)
	}
	if !reflect.DeepEqual(snap.Summary, want.Summary) {
		t.Errorf("summary differs from a full read:\n got %+v\nwant %+v", snap.Summary, want.Summary)
	}
	for _, r := range want.Records {
		if r.UUID == "" {
			continue
		}
		if g, w := snap.Get(r.UUID), want.Get(r.UUID); g == nil || g.Line != w.Line {
			t.Errorf("Get(%s) = %v, want line %d", r.UUID, g, w.Line)
		}
		if g, w := len(snap.Children(r.UUID)), len(want.Children(r.UUID)); g != w {
			t.Errorf("Children(%s): %d, want %d", r.UUID, g, w)
		}
	}
}

func TestFollowerMatchesFullReadAsLinesArrive(t *testing.T) {
	f := newTailFile(t, followLine(0)+"\n"+followLine(1)+"\n")
	fl := NewTranscriptFollower(f.name, ScanOptions{Content: true})
	res, err := fl.Next(os.DirFS(f.dir))
	if err != nil || !res.Changed || res.Appended != 2 {
		t.Fatalf("first read: %+v, %v", res, err)
	}
	sameAsFullRead(t, f, res.Transcript)
	first := res.Transcript
	firstLen := len(first.Records)

	// A line arrives in two writes: the half is in the snapshot only when
	// it decodes (it does not), as in a full read.
	whole := followLine(2)
	f.append(whole[:20])
	res, err = fl.Next(os.DirFS(f.dir))
	if err != nil || !res.Changed || res.Appended != 0 {
		t.Fatalf("half a line: %+v, %v", res, err)
	}
	sameAsFullRead(t, f, res.Transcript)
	f.append(whole[20:] + "\n")
	for i := 3; i < 30; i++ {
		f.append(followLine(i) + "\n")
		if i%5 == 0 {
			res, err = fl.Next(os.DirFS(f.dir))
			if err != nil || !res.Changed {
				t.Fatalf("after line %d: %+v, %v", i, res, err)
			}
			sameAsFullRead(t, f, res.Transcript)
		}
	}
	// An unterminated last line that decodes is in the snapshot (as in a
	// full read) and is read once more when its newline comes.
	f.append(followLine(30))
	res, err = fl.Next(os.DirFS(f.dir))
	if err != nil {
		t.Fatal(err)
	}
	sameAsFullRead(t, f, res.Transcript)
	withTail := res.Transcript
	f.append("\n" + followLine(31) + "\n")
	res, err = fl.Next(os.DirFS(f.dir))
	if err != nil {
		t.Fatal(err)
	}
	sameAsFullRead(t, f, res.Transcript)
	if got := res.Transcript.Records[len(res.Transcript.Records)-1].UUID; got != "u31" {
		t.Errorf("last record %s, want u31", got)
	}
	// Earlier snapshots did not change.
	if len(first.Records) != firstLen || first.Summary.Records != 2 {
		t.Errorf("the first snapshot changed: %d records, summary %d", len(first.Records), first.Summary.Records)
	}
	if last := withTail.Records[len(withTail.Records)-1]; last.UUID != "u30" {
		t.Errorf("the snapshot with the unterminated line changed: last %s", last.UUID)
	}

	// Nothing new: the same snapshot, and only the head check is read.
	res2, err := fl.Next(os.DirFS(f.dir))
	if err != nil || res2.Changed || res2.Transcript != res.Transcript {
		t.Fatalf("unchanged file: %+v, %v", res2, err)
	}
	if res2.Read > TailHeadMax {
		t.Errorf("an unchanged file cost %d bytes", res2.Read)
	}
}

func TestFollowerStartsOverWhenTheFileIsReplaced(t *testing.T) {
	f := newTailFile(t, followLine(0)+"\n"+followLine(1)+"\n"+followLine(2)+"\n")
	fl := NewTranscriptFollower(f.name, ScanOptions{Content: true})
	if _, err := fl.Next(os.DirFS(f.dir)); err != nil {
		t.Fatal(err)
	}
	f.write(followLine(0) + "\n") // shorter: truncated
	res, err := fl.Next(os.DirFS(f.dir))
	if err != nil || res.Reset == "" || !res.Changed {
		t.Fatalf("truncation not seen: %+v, %v", res, err)
	}
	sameAsFullRead(t, f, res.Transcript)
	if len(res.Transcript.Records) != 1 {
		t.Errorf("%d records after the truncation, want 1", len(res.Transcript.Records))
	}
}

func TestFollowerBlankAndBadLines(t *testing.T) {
	f := newTailFile(t, "\n"+followLine(0)+"\n{not json\n\n"+followLine(1)+"\n")
	fl := NewTranscriptFollower(f.name, ScanOptions{Content: true})
	res, err := fl.Next(os.DirFS(f.dir))
	if err != nil {
		t.Fatal(err)
	}
	sameAsFullRead(t, f, res.Transcript)
	if len(res.Transcript.Summary.Problems) == 0 {
		t.Error("the malformed line is not a problem")
	}
	f.append("  \n" + followLine(1) + "\n") // a duplicate uuid
	res, err = fl.Next(os.DirFS(f.dir))
	if err != nil {
		t.Fatal(err)
	}
	sameAsFullRead(t, f, res.Transcript)
}

// Snapshots are read by other goroutines while the follower reads on;
// run with -race.
func TestFollowerSnapshotsAreSafeToReadWhileFollowing(t *testing.T) {
	f := newTailFile(t, followLine(0)+"\n")
	fl := NewTranscriptFollower(f.name, ScanOptions{Content: true})
	var wg sync.WaitGroup
	for i := 1; i < 60; i++ {
		res, err := fl.Next(os.DirFS(f.dir))
		if err != nil {
			t.Fatal(err)
		}
		snap := res.Transcript
		wg.Add(1)
		go func() {
			defer wg.Done()
			n := 0
			for _, r := range snap.Records {
				if snap.Get(r.UUID) != nil {
					n += len(snap.Children(r.UUID))
				}
			}
			_ = n
			_, _ = snap.Chain(snap.Records[len(snap.Records)-1].UUID)
		}()
		line := followLine(i)
		if i%3 == 0 {
			f.append(line) // unterminated for one round
			if _, err := fl.Next(os.DirFS(f.dir)); err != nil {
				t.Fatal(err)
			}
			f.append("\n")
		} else {
			f.append(line + "\n")
		}
	}
	wg.Wait()
	res, _ := fl.Next(os.DirFS(f.dir))
	sameAsFullRead(t, f, res.Transcript)
	if !strings.HasPrefix(res.Transcript.Records[0].UUID, "u0") {
		t.Errorf("first record %s", res.Transcript.Records[0].UUID)
	}
}

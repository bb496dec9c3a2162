package model

import (
	"os"
	"reflect"
	"testing"
)

// Listing one project, or one session of it, finds what the whole walk
// finds there, subagent transcripts included.
func TestFindProjectAndSessionTranscripts(t *testing.T) {
	fsys := os.DirFS("../testdata/home")
	all, _ := FindTranscripts(fsys)
	bySlug := map[string][]TranscriptFile{}
	bySession := map[[2]string][]TranscriptFile{}
	subagents := 0
	for _, tf := range all {
		if tf.ProjectSlug == "" {
			continue
		}
		bySlug[tf.ProjectSlug] = append(bySlug[tf.ProjectSlug], tf)
		k := [2]string{tf.ProjectSlug, tf.SessionID}
		bySession[k] = append(bySession[k], tf)
		if tf.Kind == TranscriptSubagent {
			subagents++
		}
	}
	if len(bySlug) < 2 || subagents == 0 {
		t.Fatalf("the test home should have projects and a subagent transcript: %d projects, %d subagents", len(bySlug), subagents)
	}
	for slug, want := range bySlug {
		got, _ := FindProjectTranscripts(fsys, slug)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("project %s: %+v, the whole walk %+v", slug, got, want)
		}
	}
	for k, want := range bySession {
		got, _ := FindSessionTranscripts(fsys, k[0], k[1])
		if !reflect.DeepEqual(got, want) {
			t.Errorf("session %s/%s: %+v, the whole walk %+v", k[0], k[1], got, want)
		}
	}
	if got, probs := FindSessionTranscripts(fsys, "-tmp-rc-work-beta", "no-such-session"); len(got)+len(probs) != 0 {
		t.Errorf("a session that does not exist: %v %v", got, probs)
	}
	if got, _ := FindSessionTranscripts(fsys, "-tmp-rc-work-beta", "../../x"); len(got) != 0 {
		t.Errorf("a session id that is a path: %v", got)
	}
}

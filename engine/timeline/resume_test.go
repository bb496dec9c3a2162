package timeline

import (
	"fmt"
	"strings"
	"testing"

	"github.com/memscope/memscope/engine/internal/enginetest"
	"github.com/memscope/memscope/model"
)

func ids(rs []*model.Record) string {
	var out []string
	for _, r := range rs {
		out = append(out, r.UUID)
	}
	return strings.Join(out, " ")
}

// The resume chain of the real transcript was computed with Python: 18
// records from the second boundary to the newest last-prompt's leaf, plus
// the one preserved message relinked after the summary.
func TestResumeRealPartialCompaction(t *testing.T) {
	tr := enginetest.ReadReal(t, "transcript-partial-compactions.jsonl")
	r := ResumeTranscript(tr, ResumeOptions{FileSize: 687786})
	if r.Leaf != "e8b83a07-cc30-47e0-aed3-e0bce2d9ca5a" || r.LeafSource != LeafFromLastPrompt {
		t.Errorf("leaf %s from %s", r.Leaf, r.LeafSource)
	}
	if r.FromBoundary != "fbefccd4-8fb3-4f3e-b7b7-259b07c9b4e7" || r.Fallback || r.ChainEnd != model.ChainRoot {
		t.Errorf("from %s fallback %v (%s) end %s", r.FromBoundary, r.Fallback, r.FallbackReason, r.ChainEnd)
	}
	if len(r.Messages) != 19 || len(r.Preserved) != 1 {
		t.Fatalf("%d messages, %d preserved", len(r.Messages), len(r.Preserved))
	}
	if r.Messages[1].UUID != "492e157f-48d0-4a71-a4a3-53b4f419378f" || r.Messages[2].UUID != "4935c698-c7a9-4e5e-9586-384266894a46" {
		t.Errorf("summary then preserved expected, got %s %s", r.Messages[1].UUID, r.Messages[2].UUID)
	}
	enginetest.AssertAfterBoundary(t, r.FromBoundary, r.Fallback, r.Messages, r.Preserved)
}

func TestResumeRealInteractive(t *testing.T) {
	tr := enginetest.ReadReal(t, "transcript-interactive-pastes.jsonl")
	r := ResumeTranscript(tr, ResumeOptions{})
	if len(r.Messages) != 21 || r.FromBoundary != "" || r.Leaf != "206ef6e0-ea06-4755-9718-192aa506bb26" {
		t.Errorf("%d messages from %q leaf %s", len(r.Messages), r.FromBoundary, r.Leaf)
	}
}

func TestResumeCases(t *testing.T) {
	// u1 a1 u2 a2 | B1 S1 (partial: keeps u2..a2) u3 a3
	base := enginetest.Line("user", "u1", "", "") + enginetest.Line("assistant", "a1", "u1", "") +
		enginetest.Line("user", "u2", "a1", "") + enginetest.Line("assistant", "a2", "u2", "")
	cases := []struct {
		name     string
		in       string
		opts     ResumeOptions
		messages string
		from     string
		fallback bool
		leafSrc  LeafSource
		skipped  int
	}{
		{name: "no boundary", in: base + enginetest.LastPrompt("a2"), messages: "u1 a1 u2 a2", leafSrc: LeafFromLastPrompt},
		{name: "full compaction", in: base + enginetest.Boundary("B", "a2", "") + enginetest.Line("user", "S", "B", `,"isCompactSummary":true`) +
			enginetest.Line("user", "u3", "S", "") + enginetest.LastPrompt("u3"), messages: "B S u3", from: "B", leafSrc: LeafFromLastPrompt},
		{name: "partial compaction relinks", in: base + enginetest.Boundary("B", "a2", enginetest.Segment("u2", "S", "a2")) +
			enginetest.Line("user", "S", "B", `,"isCompactSummary":true`) + enginetest.Line("user", "u3", "S", "") + enginetest.Line("assistant", "a3", "u3", ""),
			messages: "B S u2 a2 u3 a3", from: "B", leafSrc: LeafFromNewest},
		{name: "broken tail link falls back", in: enginetest.Line("user", "u1", "", "") + enginetest.Line("user", "u2", "gone", "") + enginetest.Line("assistant", "a2", "u2", "") +
			enginetest.Boundary("B", "a2", enginetest.Segment("u1", "S", "a2")) + enginetest.Line("user", "S", "B", "") + enginetest.Line("user", "u3", "S", ""),
			messages: "u2 a2 B S u3", fallback: true, leafSrc: LeafFromNewest},
		{name: "missing tail falls back", in: base + enginetest.Boundary("B", "a2", enginetest.Segment("u2", "S", "zz")) + enginetest.Line("user", "S", "B", "") + enginetest.LastPrompt("S"),
			messages: "u1 a1 u2 a2 B S", fallback: true, leafSrc: LeafFromLastPrompt},
		{name: "anchor off the chain falls back", in: base + enginetest.Boundary("B", "a2", enginetest.Segment("u2", "X", "a2")) + enginetest.Line("user", "S", "B", "") + enginetest.LastPrompt("S"),
			messages: "u1 a1 u2 a2 B S", fallback: true, leafSrc: LeafFromLastPrompt},
		{name: "segment ends before head falls back", in: base + enginetest.Boundary("B", "a2", enginetest.Segment("zz", "S", "a2")) + enginetest.Line("user", "S", "B", "") + enginetest.LastPrompt("S"),
			messages: "u1 a1 u2 a2 B S", fallback: true, leafSrc: LeafFromLastPrompt},
		{name: "segment cycle falls back", in: enginetest.Line("user", "x", "y", "") + enginetest.Line("user", "y", "x", "") +
			enginetest.Boundary("B", "x", enginetest.Segment("q", "S", "x")) + enginetest.Line("user", "S", "B", "") + enginetest.LastPrompt("S"),
			messages: "y x B S", fallback: true, leafSrc: LeafFromLastPrompt},
		{name: "last-prompt leaf missing uses newest non-sidechain", in: base + enginetest.Line("user", "side", "a2", `,"isSidechain":true`) + enginetest.LastPrompt("nope"),
			messages: "u1 a1 u2 a2", leafSrc: LeafFromNewest},
		{name: "rewind follows the last prompt", in: base + enginetest.Line("user", "u2b", "a1", "") + enginetest.LastPrompt("u2b") + enginetest.Line("assistant", "late", "a2", ""),
			messages: "u1 a1 u2b", leafSrc: LeafFromLastPrompt},
		{name: "at line", in: base + enginetest.Boundary("B", "a2", "") + enginetest.Line("user", "S", "B", ""), opts: ResumeOptions{AtLine: 3},
			messages: "u1 a1 u2", leafSrc: LeafFromNewest},
		{name: "5 MiB rule cuts at the last plain boundary", in: base + enginetest.Boundary("B1", "a2", "") + enginetest.Line("user", "S1", "B1", "") +
			enginetest.Line("user", "u3", "S1", "") + enginetest.Boundary("B2", "u3", enginetest.Segment("u3", "S2", "u3")) + enginetest.Line("user", "S2", "B2", "") + enginetest.LastPrompt("S2"),
			opts: ResumeOptions{FileSize: LargeTranscriptBytes + 1}, messages: "B2 S2 u3", from: "B2", leafSrc: LeafFromLastPrompt, skipped: 5},
		{name: "5 MiB rule bounds the fallback", in: base + enginetest.Boundary("B1", "a2", "") + enginetest.Line("user", "S1", "B1", "") +
			enginetest.Line("user", "u3", "S1", "") + enginetest.Boundary("B2", "u3", enginetest.Segment("u1", "S2", "u3")) + enginetest.Line("user", "S2", "B2", "") + enginetest.LastPrompt("S2"),
			opts: ResumeOptions{FileSize: LargeTranscriptBytes + 1}, messages: "B1 S1 u3 B2 S2", fallback: true, leafSrc: LeafFromLastPrompt, skipped: 5},
		{name: "small file keeps the whole fallback", in: base + enginetest.Boundary("B1", "a2", "") + enginetest.Line("user", "S1", "B1", "") +
			enginetest.Line("user", "u3", "S1", "") + enginetest.Boundary("B2", "u3", enginetest.Segment("u1", "S2", "u3")) + enginetest.Line("user", "S2", "B2", "") + enginetest.LastPrompt("S2"),
			messages: "u1 a1 u2 a2 B1 S1 u3 B2 S2", fallback: true, leafSrc: LeafFromLastPrompt},
		{name: "empty", in: `{"type":"mode"}` + "\n", leafSrc: LeafNone},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := ResumeTranscript(enginetest.BuildTranscript(t, c.in), c.opts)
			if got := ids(r.Messages); got != c.messages {
				t.Errorf("messages %q, want %q", got, c.messages)
			}
			if r.FromBoundary != c.from || r.Fallback != c.fallback || r.LeafSource != c.leafSrc || r.SkippedBeforeLine != c.skipped {
				t.Errorf("from %q fallback %v (%s) leaf source %s skipped %d", r.FromBoundary, r.Fallback, r.FallbackReason, r.LeafSource, r.SkippedBeforeLine)
			}
			if r.Fallback && r.FallbackReason == "" {
				t.Error("fallback without a reason")
			}
			enginetest.AssertAfterBoundary(t, r.FromBoundary, r.Fallback, r.Messages, r.Preserved)
		})
	}
}

func repeat(s string, n int) string { return strings.Repeat(s, n) }

func itoa(n int) string { return fmt.Sprint(n) }

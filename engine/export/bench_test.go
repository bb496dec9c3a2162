package export

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"
)

// benchExportHome is a session of n turns, each a prompt, an assistant
// reply with a Bash call, its 4 KB result and a closing reply, with a
// compaction every 100 turns.
func benchExportHome(n int) (fstest.MapFS, int) {
	var b fxTranscript
	prev := ""
	out := strings.Repeat("output line of a command\n", 160)
	for i := 0; i < n; i++ {
		id := func(s string) string { return fmt.Sprintf("%s%d", s, i) }
		if i > 0 && i%100 == 0 {
			b.rec(map[string]any{"type": "system", "subtype": "compact_boundary", "uuid": id("b"), "parentUuid": nil, "logicalParentUuid": prev,
				"content": "Conversation compacted", "compactMetadata": map[string]any{"trigger": "auto", "preTokens": 167000, "postTokens": 4000}})
			b.rec(map[string]any{"type": "user", "uuid": id("s"), "parentUuid": id("b"), "isCompactSummary": true,
				"message": map[string]any{"role": "user", "content": strings.Repeat("summary ", 400)}})
			prev = id("s")
		}
		b.user(id("u"), prev, "Please run the tests for package "+id("p")+" and fix what fails.")
		b.assistant(id("a"), id("u"), "claude-opus-5-5", id("m"), 1000, 200, fxText(strings.Repeat("Let me look. ", 40)),
			fxToolUse(id("t"), "Bash", map[string]any{"command": "go test ./" + id("p") + "/..."}))
		b.user(id("r"), id("a"), []any{fxToolRes(id("t"), out, false)})
		b.assistant(id("z"), id("r"), "claude-opus-5-5", id("n"), 1200, 300, fxText(strings.Repeat("All tests pass now. ", 30)))
		prev = id("z")
	}
	b.lastPrompt(prev)
	data := b.String()
	return fstest.MapFS{fxHome + fxSession + ".jsonl": {Data: []byte(data)}}, len(data)
}

// BenchmarkExportSession reads, builds and renders a 2000-turn session
// (about 12 MB) in each format.
func BenchmarkExportSession(b *testing.B) {
	home, size := benchExportHome(2000)
	for _, f := range []Format{Markdown, HTML, JSON} {
		b.Run(string(f), func(b *testing.B) {
			b.SetBytes(int64(size))
			b.ReportAllocs()
			for b.Loop() {
				x, err := LoadSessionExport(SessionSource{FS: home, Transcript: fxHome + fxSession + ".jsonl", Home: home}, exportNow)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := RenderSessionExport(x, f); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

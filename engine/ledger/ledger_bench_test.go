package ledger

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/memscope/memscope/model"
)

// syntheticSession is a transcript of about size bytes ending in one
// automatic compaction: per turn a prompt (every third one carrying a
// rule), a Read and a Bash call with their results (2 KiB of output
// each), a TodoWrite every tenth turn, and an answer.
func syntheticSession(size int) []byte {
	var b bytes.Buffer
	out := strings.Repeat("lorem ipsum dolor sit amet consectetur adipiscing elit\\n", 36)
	common := `"sessionId":"00000000-0000-4000-8000-000000000001","cwd":"/work/app","version":"2.1.332","timestamp":"2026-11-22T11:37:13.690Z"`
	parent, n := "null", 0
	line := func(typ, body string) {
		n++
		uuid := fmt.Sprintf("00000000-0000-4000-8000-%012d", n)
		fmt.Fprintf(&b, `{"parentUuid":%s,"isSidechain":false,"type":%q,"uuid":%q,%s,%s}`+"\n", parent, typ, uuid, common, body)
		parent = `"` + uuid + `"`
	}
	for turn := 0; b.Len() < size; turn++ {
		prompt := fmt.Sprintf("look at module %d and fix the failing case", turn)
		if turn%3 == 0 {
			prompt += fmt.Sprintf(". Never touch the generated file gen_%d.go by hand", turn)
		}
		line("user", fmt.Sprintf(`"message":{"role":"user","content":%q}`, prompt))
		line("assistant", fmt.Sprintf(`"message":{"role":"assistant","id":"m%d","content":[{"type":"tool_use","id":"r%d","name":"Read","input":{"file_path":"/work/app/mod%d/mod%d.go"}},{"type":"tool_use","id":"x%d","name":"Bash","input":{"command":"go test ./mod%d/..."}}],"usage":{"input_tokens":5,"cache_read_input_tokens":90000,"output_tokens":100}},"requestId":"q%d"`, turn, turn, turn, turn, turn, turn, turn))
		line("user", fmt.Sprintf(`"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"r%d","content":"%s"},{"type":"tool_result","tool_use_id":"x%d","content":"Exit code 1\n%s"}]}`, turn, out, turn, out))
		if turn%10 == 0 {
			line("assistant", fmt.Sprintf(`"message":{"role":"assistant","id":"t%d","content":[{"type":"tool_use","id":"t%d","name":"TodoWrite","input":{"todos":[{"content":"fix module %d","status":"pending"},{"content":"write the changelog","status":"in_progress"}]}}]},"requestId":"tq%d"`, turn, turn, turn, turn))
		}
		line("assistant", fmt.Sprintf(`"message":{"role":"assistant","id":"a%d","content":[{"type":"text","text":"Fixed module %d."}]},"requestId":"aq%d"`, turn, turn, turn))
	}
	old := parent
	parent = "null"
	line("system", fmt.Sprintf(`"subtype":"compact_boundary","logicalParentUuid":%s,"compactMetadata":{"trigger":"auto","preTokens":167000,"postTokens":12000}`, old))
	line("user", `"isCompactSummary":true,"message":{"role":"user","content":"This session is being continued from a previous conversation. Summary: modules 0 to 40 fixed; mod3/mod3.go still fails."}`)
	return b.Bytes()
}

func parseSession(b testing.TB, data []byte) *model.Transcript {
	t := model.NewTranscript("bench.jsonl")
	sum, err := model.ScanTranscript(bytes.NewReader(data), "bench.jsonl", ScanOptions, func(r *model.Record) error {
		t.Add(r)
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	t.Summary = sum
	return t
}

// BenchmarkBoundary3MB is the figure: the ledger of one boundary
// of a 3 MB session, with and without reading the transcript (the pane
// has it read already; the CLI reads it).
func BenchmarkBoundary3MB(b *testing.B) {
	data := syntheticSession(3 << 20)
	b.Run("ledger", func(b *testing.B) {
		t := parseSession(b, data)
		bs := t.Boundaries()
		if len(bs) != 1 {
			b.Fatalf("boundaries = %d", len(bs))
		}
		b.ResetTimer()
		for b.Loop() {
			if l := At(t, bs[0], 1); len(l.Lost) == 0 {
				b.Fatal("nothing lost")
			}
		}
	})
	b.Run("read+ledger", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			t := parseSession(b, data)
			if l := Build(t); len(l.Boundaries) != 1 {
				b.Fatal("no boundary")
			}
		}
	})
}

// TestSyntheticSession checks the benchmark's input: one boundary, the
// rules, files, commands and todos it lost, and what the summary kept
// (mod3/mod3.go, named by path).
func TestSyntheticSession(t *testing.T) {
	tr := parseSession(t, syntheticSession(200<<10))
	l := Build(tr)
	if len(l.Boundaries) != 1 {
		t.Fatalf("boundaries = %d", len(l.Boundaries))
	}
	b := l.Boundaries[0]
	for _, k := range []Kind{KindRule, KindFile, KindCommand, KindTodo} {
		if b.Count(k) == 0 {
			t.Errorf("lost no %s: %+v", k, b.Had)
		}
	}
	if b.Had[KindFile] != b.Count(KindFile)+1 {
		t.Errorf("had %d files, lost %d: mod3/mod3.go must survive", b.Had[KindFile], b.Count(KindFile))
	}
	if it, ok := b.Item("c1"); !ok || it.Detail != "exit 1" {
		t.Errorf("c1 = %+v", it)
	}
}

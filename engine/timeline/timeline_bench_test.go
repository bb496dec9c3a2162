package timeline

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/memscope/memscope/engine/window"
	"github.com/memscope/memscope/model"
)

// writeSyntheticTranscript writes a transcript of about size bytes shaped
// like a long real session: per turn a prompt, attachments, an
// api-request-blob, a tool call and its (sometimes large) result, an
// answer with usage, a last-prompt; a compaction every 40 turns. It
// returns the number of lines written.
func writeSyntheticTranscript(w io.Writer, size int) (int, error) {
	bw := bufio.NewWriterSize(w, 1<<20)
	filler := strings.Repeat("lorem ipsum dolor sit amet consectetur adipiscing elit\\n", 40)
	written, lines, parent := 0, 0, ""
	emit := func(s string) {
		n, _ := bw.WriteString(s)
		bw.WriteByte('\n')
		written += n + 1
		lines++
	}
	link := func(uuid string) string {
		p := "null"
		if parent != "" {
			p = `"` + parent + `"`
		}
		parent = uuid
		return p
	}
	common := `"sessionId":"00000000-0000-4000-8000-000000000001","cwd":"/home/me/app","version":"2.1.330","gitBranch":"main","timestamp":"2026-11-22T11:37:13.690Z"`
	for turn := 0; written < size; turn++ {
		if turn > 0 && turn%40 == 0 {
			b := fmt.Sprintf("b%d", turn)
			old := parent
			parent = ""
			emit(fmt.Sprintf(`{"parentUuid":null,"logicalParentUuid":%q,"isSidechain":false,"type":"system","subtype":"compact_boundary","content":"Conversation compacted","isMeta":false,"level":"info","uuid":%q,"compactMetadata":{"trigger":"auto","preTokens":167500,"durationMs":20000,"postTokens":9000},%s}`, old, b, common))
			parent = b
			s := fmt.Sprintf("s%d", turn)
			emit(fmt.Sprintf(`{"parentUuid":%s,"isSidechain":false,"type":"user","message":{"role":"user","content":"This session is being continued from a previous conversation %s"},"isVisibleInTranscriptOnly":true,"isCompactSummary":true,"uuid":%q,%s}`, link(s), filler, s, common))
		}
		u := fmt.Sprintf("u%d", turn)
		emit(fmt.Sprintf(`{"parentUuid":%s,"isSidechain":false,"type":"user","message":{"role":"user","content":"please change the handler %d %s"},"uuid":%q,%s}`, link(u), turn, filler[:300], u, common))
		at := fmt.Sprintf("at%d", turn)
		emit(fmt.Sprintf(`{"parentUuid":%s,"isSidechain":false,"attachment":{"type":"skill_listing","content":"%s"},"type":"attachment","uuid":%q,%s}`, link(at), filler, at, common))
		emit(fmt.Sprintf(`{"type":"api-request-blob","sessionId":"x","hash":"h%d","message":{"role":"system","content":[{"type":"text","text":"%s"}]}}`, turn, strings.Repeat(filler, 8)))
		a := fmt.Sprintf("a%d", turn)
		usage := fmt.Sprintf(`"usage":{"input_tokens":%d,"cache_creation_input_tokens":100,"cache_read_input_tokens":20000,"output_tokens":300}`, 1000+turn%40*3500)
		emit(fmt.Sprintf(`{"parentUuid":%s,"isSidechain":false,"message":{"model":"claude-opus-5-5","id":"msg_%d","type":"message","role":"assistant","content":[{"type":"text","text":"reading it"},{"type":"tool_use","id":"toolu_%d","name":"Read","input":{"file_path":"/home/me/app/main.go"}}],"stop_reason":"tool_use",%s},"requestId":"req_%d","type":"assistant","uuid":%q,%s}`, link(a), turn, turn, usage, turn, a, common))
		tr := fmt.Sprintf("tr%d", turn)
		result := filler
		if turn%7 == 0 {
			result = strings.Repeat(filler, 30)
		}
		emit(fmt.Sprintf(`{"parentUuid":%s,"isSidechain":false,"type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_%d","type":"tool_result","content":"%s"}]},"uuid":%q,%s}`, link(tr), turn, result, tr, common))
		a2 := fmt.Sprintf("a%db", turn)
		emit(fmt.Sprintf(`{"parentUuid":%s,"isSidechain":false,"message":{"model":"claude-opus-5-5","id":"msg_%db","role":"assistant","content":[{"type":"text","text":"done: %s"}],%s},"requestId":"req_%db","type":"assistant","uuid":%q,%s}`, link(a2), turn, filler[:200], usage, turn, a2, common))
		emit(fmt.Sprintf(`{"type":"last-prompt","lastPrompt":"please change the handler","leafUuid":%q,"sessionId":"x"}`, a2))
	}
	return lines, bw.Flush()
}

// BenchmarkReplay100MB reads a generated 100 MB transcript and builds its
// timeline; MB/s is reported through SetBytes. The transcript is written
// to a temporary folder, never committed.
func BenchmarkReplay100MB(b *testing.B) {
	dir := b.TempDir()
	path := filepath.Join(dir, "big.jsonl")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := writeSyntheticTranscript(f, 100<<20); err != nil {
		b.Fatal(err)
	}
	f.Close()
	st, _ := os.Stat(path)
	b.SetBytes(st.Size())
	fsys := os.DirFS(dir)
	var peak uint64
	cpu0 := cpuTime()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		tr, err := model.ReadTranscript(fsys, "big.jsonl")
		if err != nil {
			b.Fatal(err)
		}
		tl := Build(tr, window.Size200k(), st.Size())
		if len(tl.Boundaries) == 0 || len(tl.Turns) == 0 {
			b.Fatal("empty timeline")
		}
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		peak = max(peak, ms.HeapInuse)
	}
	b.StopTimer()
	// The target is per core, and the machine is shared: report MB per
	// CPU-second (all threads, GC included) beside wall-clock MB/s.
	if cpu := cpuTime() - cpu0; cpu > 0 {
		b.ReportMetric(float64(st.Size())*float64(b.N)/(1<<20)/cpu.Seconds(), "MB/cpu-s")
	}
	b.ReportMetric(float64(peak)/(1<<20), "heapMB")
}

// cpuTime is the CPU time this process has used, user plus system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

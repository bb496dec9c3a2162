package live

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/model"
)

// statusHome is a home and a project folder for status line calls.
type statusHome struct {
	t          *testing.T
	home, proj string
	memDir     string
	transcript string
	opts       StatusOptions
}

func newStatusHome(t *testing.T) *statusHome {
	h := &statusHome{t: t, home: t.TempDir(), proj: t.TempDir()}
	slug := model.Slug(filepath.ToSlash(h.proj))
	h.memDir = filepath.Join(h.home, "projects", slug, "memory")
	h.transcript = filepath.Join(h.home, "projects", slug, "s1.jsonl")
	h.opts = StatusOptions{HomeDir: filepath.ToSlash(h.home), Root: testroot.New(t), Getenv: env()}
	return h
}

// input is the client's JSON for this home; usage < 0 leaves
// context_window out, 0 sends it with current_usage null.
func (h *statusHome) input(usage int64, size int64) string {
	cw := ""
	switch {
	case usage > 0:
		cw = fmt.Sprintf(`,"context_window":{"total_input_tokens":999999,"context_window_size":%d,"used_percentage":1,"current_usage":{"input_tokens":%d,"output_tokens":500,"cache_creation_input_tokens":%d,"cache_read_input_tokens":%d}}`,
			size, usage/10, usage/10, usage-2*(usage/10))
	case usage == 0:
		cw = fmt.Sprintf(`,"context_window":{"context_window_size":%d,"used_percentage":42.5,"current_usage":null}`, size)
	}
	p := filepath.ToSlash(h.proj)
	return fmt.Sprintf(`{"hook_event_name":"Status","session_id":"s1","transcript_path":%q,"cwd":%q,"model":{"id":"claude-opus-5-5","display_name":"Opus"},"workspace":{"current_dir":%q,"project_dir":%q},"version":"2.1.331","cost":{"total_cost_usd":0.5}%s}`,
		filepath.ToSlash(h.transcript), p, p, p, cw)
}

func growing(s *script, from, step int64, n int) {
	for i := 0; i < n; i++ {
		s.user("next")
		s.answer(fmt.Sprintf("g%d", i), from+int64(i)*step)
	}
}

func TestStatusline(t *testing.T) {
	tests := []struct {
		name   string
		setup  func(h *statusHome) string // returns the input
		line   string
		reason string // a substring of the reason; "" for none
		source string
	}{
		{"client figure, transcript growth, index over", func(h *statusHome) string {
			s := newScript("s1", h.proj, now)
			growing(s, 100000, 10000, 4) // 100k … 130k, 10k a turn
			writeFile(t, h.home, rel(h, h.transcript), s.String())
			writeFile(t, h.home, rel(h, h.memDir)+"/MEMORY.md", indexLines(212))
			return h.input(122000, 200000)
		}, "ctx 61% · ~5 turns to compact · MEMORY 212/200 ✂ · $0.50", "", "context_window"},
		{"transcript only", func(h *statusHome) string {
			s := newScript("s1", h.proj, now)
			growing(s, 100000, 10000, 4)
			writeFile(t, h.home, rel(h, h.transcript), s.String())
			writeFile(t, h.home, rel(h, h.memDir)+"/MEMORY.md", indexLines(12))
			return h.input(-1, 0)
		}, "ctx 65% · ~4 turns to compact · MEMORY 12/200 · $0.50", "", "transcript"},
		{"current_usage null falls back to the transcript", func(h *statusHome) string {
			s := newScript("s1", h.proj, now)
			growing(s, 100000, 10000, 2)
			writeFile(t, h.home, rel(h, h.transcript), s.String())
			return h.input(0, 200000)
		}, "ctx 55% · ~6 turns to compact · $0.50", "", "transcript"},
		{"used_percentage as a last resort", func(h *statusHome) string {
			return h.input(0, 1000000) // no transcript
		}, "ctx 43% · $0.50", "transcript: ", "used_percentage"},
		{"1M window", func(h *statusHome) string {
			s := newScript("s1", h.proj, now)
			growing(s, 300000, 50000, 3)
			writeFile(t, h.home, rel(h, h.transcript), s.String())
			return h.input(400000, 1000000)
		}, "ctx 40% · ~12 turns to compact · $0.50", "", "context_window"},
		{"size cap over", func(h *statusHome) string {
			writeFile(t, h.home, rel(h, h.memDir)+"/MEMORY.md", strings.Repeat("- [A long entry](a.md) — "+strings.Repeat("x", 400)+"\n", 70))
			return h.input(50000, 200000)
			// 70 lines of 425 characters and a newline, trimmed: 29819
			// characters, 29.1 KB as the client writes sizes.
		}, "ctx 25% · MEMORY 29.1KB/24.4KB ✂ · $0.50", "transcript: ", "context_window"},
		{"autocompact off in settings", func(h *statusHome) string {
			s := newScript("s1", h.proj, now)
			growing(s, 150000, 5000, 3)
			writeFile(t, h.home, rel(h, h.transcript), s.String())
			writeFile(t, h.home, "settings.json", `{"autoCompactEnabled": false}`)
			return h.input(-1, 0)
		}, "ctx 80% · ~4 turns to full · $0.50", "", "transcript"},
		{"env lowers autocompact", func(h *statusHome) string {
			h.opts.Getenv = env("CLAUDE_AUTOCOMPACT_PCT_OVERRIDE", "50")
			s := newScript("s1", h.proj, now)
			growing(s, 80000, 10000, 3)
			writeFile(t, h.home, rel(h, h.transcript), s.String())
			return h.input(-1, 0)
		}, "ctx 50% · compact due · ac 90k CLAUDE_AUTOCOMPACT_PCT_OVERRIDE · $0.50", "", "transcript"},
		{"autoCompactWindow setting moves the forecast and says so", func(h *statusHome) string {
			s := newScript("s1", h.proj, now)
			growing(s, 40000, 5000, 3)
			writeFile(t, h.home, rel(h, h.transcript), s.String())
			writeFile(t, h.home, "settings.json", `{"autoCompactWindow": 100000}`)
			return h.input(-1, 0)
		}, "ctx 25% · ~4 turns to compact · ac 67k autoCompactWindow · $0.50", "", "transcript"},
		{"the client's CLAUDE_CODE_AUTO_COMPACT_WINDOW", func(h *statusHome) string {
			h.opts.Getenv = env("CLAUDE_CODE_AUTO_COMPACT_WINDOW", "100k")
			s := newScript("s1", h.proj, now)
			growing(s, 40000, 5000, 3)
			writeFile(t, h.home, rel(h, h.transcript), s.String())
			return h.input(-1, 0)
		}, "ctx 25% · ~4 turns to compact · ac 67k CLAUDE_CODE_AUTO_COMPACT_WINDOW · $0.50", "", "transcript"},
		{"memory off", func(h *statusHome) string {
			h.opts.Getenv = env("CLAUDE_CODE_DISABLE_AUTO_MEMORY", "1")
			writeFile(t, h.home, rel(h, h.memDir)+"/MEMORY.md", indexLines(212))
			return h.input(50000, 200000)
		}, "ctx 25% · $0.50", "transcript: ", "context_window"},
		{"just compacted", func(h *statusHome) string {
			s := newScript("s1", h.proj, now)
			growing(s, 150000, 10000, 3)
			s.compact("auto", 170000, 12000)
			writeFile(t, h.home, rel(h, h.transcript), s.String())
			return h.input(-1, 0)
		}, "ctx 6% · $0.50", "", "transcript"},
		{"a partial last line is not read as a record", func(h *statusHome) string {
			s := newScript("s1", h.proj, now)
			growing(s, 100000, 10000, 3)
			writeFile(t, h.home, rel(h, h.transcript), s.String()+`{"type":"assistant","message":{"usage":{"input_tok`)
			return h.input(-1, 0)
		}, "ctx 60% · ~5 turns to compact · $0.50", "", "transcript"},
		{"no figure at all", func(h *statusHome) string {
			writeFile(t, h.home, rel(h, h.memDir)+"/MEMORY.md", indexLines(3))
			return h.input(-1, 0)
		}, "MEMORY 3/200 · $0.50", "no context figure", ""},
		{"not JSON", func(h *statusHome) string { return `{"session_id":` }, "", "not the client's JSON", ""},
		{"empty", func(h *statusHome) string { return " \n" }, "", "no input", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newStatusHome(t)
			in := tt.setup(h)
			st := Statusline([]byte(in), h.opts)
			if st.Line != tt.line || st.ContextSource != tt.source {
				t.Errorf("line %q source %q, want %q %q (reason %q)", st.Line, st.ContextSource, tt.line, tt.source, st.Reason)
			}
			if tt.reason == "" && st.Reason != "" || !strings.Contains(st.Reason, tt.reason) {
				t.Errorf("reason %q, want one containing %q", st.Reason, tt.reason)
			}
		})
	}
}

func rel(h *statusHome, abs string) string {
	r, err := filepath.Rel(h.home, abs)
	if err != nil {
		h.t.Fatal(err)
	}
	return filepath.ToSlash(r)
}

// Read backwards in 64 KiB chunks across lines of every length, the
// status line finds the turns the forward Session finds.
func TestStatuslineAgreesWithSession(t *testing.T) {
	for _, blob := range []int{0, 1000, 70000, 200000} {
		t.Run(fmt.Sprint(blob), func(t *testing.T) {
			h := newStatusHome(t)
			s := newScript("s1", h.proj, now)
			growing(s, 20000, 3000, 3)
			s.compact("auto", 167000, 9000)
			for i := 0; i < 9; i++ {
				s.user("next")
				if blob > 0 {
					s.line("api-request-blob", fmt.Sprintf(`,"message":{"role":"user","content":[{"type":"text","text":%q}]}`, strings.Repeat("usage ", blob/6)))
				}
				// Uneven growth: the median decides.
				s.answer(fmt.Sprintf("a%d", i), 10000+int64(i*i)*1500, `{"type":"text","text":"x"}`, `{"type":"tool_use","id":"t","name":"Read","input":{}}`)
			}
			writeFile(t, h.home, rel(h, h.transcript), s.String())
			st := Statusline([]byte(h.input(-1, 0)), h.opts)
			sess := NewSession("s1.jsonl", SessionOptions{})
			feed(t, sess, s.String())
			want := sess.Status(now)
			if st.Context != want.Context || st.Forecast != want.Forecast || !st.Forecast.OK {
				t.Errorf("status line context %d forecast %+v; session %d %+v", st.Context, st.Forecast, want.Context, want.Forecast)
			}
			size := int64(len(s.String()))
			if max := int64(ForecastSteps+2)*int64(blob+4096) + 2*tailChunk; st.Read > max {
				t.Errorf("read %d of %d bytes for %d turns", st.Read, size, ForecastSteps+1)
			}
		})
	}
}

// BenchmarkStatusline answers the status line on a large transcript:
// each turn writes a prompt, a request blob of 150 KB (as the client's
// api-request-blob lines are), a response of three lines and a tool
// result. MEMSCOPE_STATUSLINE_MB sets the size (default 256).
func BenchmarkStatusline(b *testing.B) {
	mb := 256
	if v := os.Getenv("MEMSCOPE_STATUSLINE_MB"); v != "" {
		fmt.Sscan(v, &mb)
	}
	home, proj := b.TempDir(), b.TempDir()
	slug := model.Slug(filepath.ToSlash(proj))
	tp := filepath.Join(home, "projects", slug, "s1.jsonl")
	if err := os.MkdirAll(filepath.Dir(tp), 0o755); err != nil {
		b.Fatal(err)
	}
	f, err := os.Create(tp)
	if err != nil {
		b.Fatal(err)
	}
	blob := strings.Repeat("lorem ipsum dolor sit amet ", 150000/27)
	var size int64
	for turn := 0; size < int64(mb)<<20; turn++ {
		s := newScript("s1", filepath.ToSlash(proj), now.Add(time.Duration(turn)*time.Second))
		s.n = turn * 10
		s.user("next step")
		s.line("api-request-blob", fmt.Sprintf(`,"message":{"role":"user","content":[{"type":"text","text":%q}]}`, blob))
		s.answer(fmt.Sprintf("t%d", turn), 20000+int64(turn%150)*1000, `{"type":"thinking","thinking":"hmm"}`, `{"type":"text","text":"doing it"}`, `{"type":"tool_use","id":"x","name":"Read","input":{"file_path":"/a"}}`)
		s.result("x", false)
		n, err := f.WriteString(s.String())
		if err != nil {
			b.Fatal(err)
		}
		size += int64(n)
	}
	f.Close()
	memDir := filepath.Join(home, "projects", slug, "memory")
	os.MkdirAll(memDir, 0o755)
	os.WriteFile(filepath.Join(memDir, "MEMORY.md"), []byte(indexLines(212)), 0o600)
	in := []byte(fmt.Sprintf(`{"session_id":"s1","transcript_path":%q,"cwd":%q,"workspace":{"current_dir":%q,"project_dir":%q},"model":{"id":"claude-opus-5-5"},"context_window":{"context_window_size":200000,"current_usage":{"input_tokens":3,"cache_read_input_tokens":120000,"cache_creation_input_tokens":1000,"output_tokens":9}}}`,
		filepath.ToSlash(tp), filepath.ToSlash(proj), filepath.ToSlash(proj), filepath.ToSlash(proj)))
	opts := StatusOptions{HomeDir: filepath.ToSlash(home), Root: testroot.New(b), Getenv: env()}
	st := Statusline(in, opts)
	if st.Line == "" || st.Index == nil || !st.Forecast.OK {
		b.Fatalf("status %+v", st)
	}
	b.ReportAllocs()
	var read int64
	for b.Loop() {
		read = Statusline(in, opts).Read
	}
	b.ReportMetric(float64(read), "B-read/op")
	b.ReportMetric(float64(size)/(1<<20), "MB-transcript")
}

// Without the client's cost in the input the line says nothing of cost
// (the status line never guesses one from a partial read).
func TestStatuslineWithoutCost(t *testing.T) {
	in := `{"session_id":"s1","transcript_path":"/nonexistent/s1.jsonl","cwd":"/nonexistent","context_window":{"context_window_size":200000,"current_usage":{"input_tokens":50000,"output_tokens":1}}}`
	st := Statusline([]byte(in), StatusOptions{Root: fstest.MapFS{}})
	if st.Line != "ctx 25%" || st.CostUSD != nil {
		t.Errorf("line %q cost %v, want \"ctx 25%%\" and no cost", st.Line, st.CostUSD)
	}
}

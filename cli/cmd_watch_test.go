package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/memscope/memscope/engine/live"
	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/model"
)

// lockedBuffer is a buffer a running command writes while the test reads.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// watchHome is a home on disk with one running client (pid 4242) and its
// transcript, memory folder, history and a paste; the test appends to it
// as the client would.
type watchHome struct {
	t               *testing.T
	dir, proj, slug string
	n               int
	parent          string
}

func newWatchHome(t *testing.T) *watchHome {
	h := &watchHome{t: t, dir: t.TempDir(), proj: t.TempDir()}
	h.slug = model.Slug(filepath.ToSlash(h.proj))
	h.write("sessions/4242.json", fmt.Sprintf(`{"pid":4242,"sessionId":"s1","cwd":%q,"status":"busy"}`, filepath.ToSlash(h.proj)))
	h.write("projects/"+h.slug+"/memory/MEMORY.md", "- [A](a.md) — first\n")
	h.write("projects/"+h.slug+"/memory/a.md", "---\nname: a\ndescription: a\ntype: user\n---\na\n")
	h.write("paste-cache/abcdef0123456789.txt", "pasted")
	h.write("history.jsonl", fmt.Sprintf(`{"display":"see [Pasted text #1]","pastedContents":{"1":{"id":1,"type":"text","contentHash":"abcdef0123456789"}},"timestamp":%d,"project":%q}`+"\n",
		time.Now().UnixMilli(), filepath.ToSlash(h.proj)))
	h.write("projects/"+h.slug+"/s1.jsonl", "")
	h.line("user", `,"message":{"role":"user","content":"go"}`)
	h.answer(40000)
	h.answer(60000)
	return h
}

// env runs watch on the real clock with pid 4242 alive, the given
// signals delivered, and stop called when it stops listening.
func (h *watchHome) env(out, errb *lockedBuffer, sigs chan os.Signal, stop func()) *env {
	return &env{
		stdout: out, stderr: errb,
		getenv:   func(string) string { return "" },
		userHome: func() (string, error) { return h.dir, nil },
		getwd:    func() (string, error) { return h.proj, nil },
		now:      time.Now,
		root:     testroot.New(h.t),
		writes:   testroot.Writer(h.t, h.dir),
		alive:    func(pid int) bool { return pid == 4242 },
		signals:  func() (<-chan os.Signal, func()) { return sigs, stop },
	}
}

func (h *watchHome) path(rel string) string { return filepath.Join(h.dir, filepath.FromSlash(rel)) }

func (h *watchHome) write(rel, content string) {
	p := h.path(rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		h.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		h.t.Fatal(err)
	}
}

// line appends one record to the session's transcript, now.
func (h *watchHome) line(typ, body string) {
	h.n++
	uuid, parent := fmt.Sprintf("u%d", h.n), "null"
	if h.parent != "" {
		parent = `"` + h.parent + `"`
	}
	h.parent = uuid
	f, err := os.OpenFile(h.path("projects/"+h.slug+"/s1.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		h.t.Fatal(err)
	}
	defer f.Close()
	fmt.Fprintf(f, `{"parentUuid":%s,"type":%q,"uuid":%q,"sessionId":"s1","cwd":%q,"timestamp":%q%s}`+"\n",
		parent, typ, uuid, filepath.ToSlash(h.proj), time.Now().UTC().Format(model.ISOMillis), body)
}

func (h *watchHome) answer(context int) {
	h.line("assistant", fmt.Sprintf(`,"requestId":"r%d","message":{"id":"m%d","role":"assistant","model":"claude-opus-5-5","content":[{"type":"text","text":"ok"}],"usage":{"input_tokens":3,"cache_read_input_tokens":%d,"output_tokens":10}}`, h.n, h.n, context-3))
}

// events decodes the NDJSON watch printed so far.
func events(t *testing.T, out string) []live.Event {
	t.Helper()
	var evs []live.Event
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if l == "" {
			continue
		}
		var e live.Event
		if err := json.Unmarshal([]byte(l), &e); err != nil {
			t.Fatalf("watch --json printed a line that is not one JSON object: %q: %v", l, err)
		}
		evs = append(evs, e)
	}
	return evs
}

// `memscope watch --json` follows a home: each change the client makes
// is one NDJSON line, and SIGINT ends it with exit 0.
func TestWatchFollowsTheHome(t *testing.T) {
	h := newWatchHome(t)
	var out, errb lockedBuffer
	sigs := make(chan os.Signal, 1)
	stopped := make(chan struct{})
	e := h.env(&out, &errb, sigs, func() { close(stopped) })
	code := make(chan int, 1)
	go func() { code <- run(e, []string{"watch", "--json", "--home", h.dir}) }()

	// waitFor waits for an event of kind whose text holds text.
	waitFor := func(kind live.EventKind, text string) live.Event {
		t.Helper()
		deadline := time.Now().Add(30 * time.Second)
		for time.Now().Before(deadline) {
			for _, ev := range events(t, out.String()) {
				if ev.Kind == kind && strings.Contains(ev.Text, text) {
					return ev
				}
			}
			time.Sleep(10 * time.Millisecond)
		}
		t.Fatalf("no %s event with %q; watch printed:\n%s\nstderr:\n%s", kind, text, out.String(), errb.String())
		return live.Event{}
	}
	waitFor(live.EventSessionStarted, "session s1 started in "+filepath.ToSlash(h.proj))
	for !strings.Contains(errb.String(), "following") {
		time.Sleep(5 * time.Millisecond)
	}

	h.answer(150000)
	ev := waitFor(live.EventContextLevel, "reached warning")
	if ev.From != "ok" || ev.To != "warning" || ev.Tokens != 150000 || ev.SessionID != "s1" {
		t.Errorf("level event %+v", ev)
	}

	h.parent = ""
	h.line("system", `,"subtype":"compact_boundary","content":"Conversation compacted","compactMetadata":{"trigger":"auto","preTokens":171000,"postTokens":16000}`)
	ev = waitFor(live.EventCompaction, "compacted (auto)")
	if c := ev.Compaction; c == nil || *c.PreTokens != 171000 || *c.PostTokens != 16000 {
		t.Errorf("compaction event %+v", ev)
	}

	h.write("projects/"+h.slug+"/memory/b.md", "---\nname: b\ndescription: b\ntype: user\n---\nb\n")
	waitFor(live.EventMemoryWritten, "b.md written")
	var index strings.Builder
	for i := range 210 {
		fmt.Fprintf(&index, "- [M%d](m%d.md) — hook\n", i, i)
	}
	h.write("projects/"+h.slug+"/memory/MEMORY.md", index.String())
	ev = waitFor(live.EventIndexCap, "over its lines cap")
	if ev.Over == nil || !*ev.Over || ev.Value != 210 {
		t.Errorf("index event %+v", ev)
	}
	if err := os.Remove(h.path("projects/" + h.slug + "/memory/a.md")); err != nil {
		t.Fatal(err)
	}
	waitFor(live.EventMemoryDeleted, "a.md deleted")
	if err := os.Remove(h.path("paste-cache/abcdef0123456789.txt")); err != nil {
		t.Fatal(err)
	}
	waitFor(live.EventPasteMissing, "abcdef0123456789 went missing")

	// The client exits: its process file goes. (Its transcript, written
	// an hour ago, no longer makes it a -p run.)
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(h.path("projects/"+h.slug+"/s1.jsonl"), old, old); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(h.path("sessions/4242.json")); err != nil {
		t.Fatal(err)
	}
	waitFor(live.EventSessionEnded, "s1 is no longer running")

	sigs <- syscall.SIGINT
	select {
	case c := <-code:
		if c != 0 {
			t.Errorf("SIGINT: exit %d, stderr %s", c, errb.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("watch did not stop on SIGINT")
	}
	select {
	case <-stopped:
	default:
		t.Error("watch did not stop listening for signals")
	}
	// Every line is one event; the same event is never printed twice.
	seen := map[string]bool{}
	for _, ev := range events(t, out.String()) {
		k := string(ev.Kind) + ev.Text
		if seen[k] {
			t.Errorf("printed twice: %s", k)
		}
		seen[k] = true
	}
}

// SIGTERM stops watch as SIGINT does, in text mode too.
func TestWatchStopsOnSIGTERM(t *testing.T) {
	h := newWatchHome(t)
	var out, errb lockedBuffer
	sigs := make(chan os.Signal, 1)
	e := h.env(&out, &errb, sigs, func() {})
	code := make(chan int, 1)
	go func() { code <- run(e, []string{"watch", "--home", h.dir}) }()
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(errb.String(), "following") && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if !strings.Contains(out.String(), "session-started  session s1 started in") {
		t.Errorf("text line for the running session: %q", out.String())
	}
	sigs <- syscall.SIGTERM
	select {
	case c := <-code:
		if c != 0 {
			t.Errorf("SIGTERM: exit %d", c)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("watch did not stop on SIGTERM")
	}
}

// watch --once on a home where nothing runs prints a result: a line
// saying so, or [] with --json (it printed nothing at all).
func TestWatchOnceNothingRunning(t *testing.T) {
	dir := t.TempDir()
	e, out, errb := testEnv(t)
	if code := run(e, []string{"watch", "--once", "--home", dir}); code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	if got := out.String(); got != "no session running in "+dir+"\n" {
		t.Errorf("text: %q", got)
	}
	out.Reset()
	if code := run(e, []string{"watch", "--once", "--json", "--home", dir}); code != 0 {
		t.Fatalf("--json exit %d: %s", code, errb)
	}
	var evs []live.Event
	if err := json.Unmarshal(out.Bytes(), &evs); err != nil || evs == nil || len(evs) != 0 {
		t.Errorf("--json: %q (%v), want []", out, err)
	}
}

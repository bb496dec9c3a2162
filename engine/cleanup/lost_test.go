package cleanup

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/memscope/memscope/model"
)

// History names four sessions: one with its transcript, one with a seed
// transcript, two without (one with two prompts, one with a long
// prompt); a line without a session id; and pastes, one of them gone.
func TestAlreadyLost(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(rel, content string) {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	day := func(d int) int64 { return time.Date(2026, 6, d, 10, 0, 0, 0, time.UTC).UnixMilli() }
	long := strings.Repeat("word ", 40)
	write("projects/-home-me-app/aaaa.jsonl", "{}\n")
	write("sessions/dddd/transcript.jsonl", "{}\n")
	write("paste-cache/1111111111111111.txt", "kept")
	lines := []string{
		`{"display":"kept session","timestamp":` + itoa(day(1)) + `,"project":"/home/me/app","sessionId":"aaaa"}`,
		`{"display":"first of  bbbb\nsecond line","timestamp":` + itoa(day(3)) + `,"project":"/home/me/app","sessionId":"bbbb","pastedContents":{"1":{"id":1,"type":"text","contentHash":"2222222222222222"}}}`,
		`{"display":"old line","timestamp":` + itoa(day(2)) + `,"project":"/home/me/app"}`,
		`{"display":"` + long + `","timestamp":` + itoa(day(5)) + `,"project":"/home/me/other","sessionId":"cccc"}`,
		`{"display":"again bbbb","timestamp":` + itoa(day(9)) + `,"project":"/home/me/app","sessionId":"bbbb","pastedContents":{"1":{"id":1,"type":"text","contentHash":"1111111111111111"}}}`,
		`{"display":"seed","timestamp":` + itoa(day(4)) + `,"project":"/home/me/app","sessionId":"dddd"}`,
	}
	write("history.jsonl", strings.Join(lines, "\n")+"\n")
	h, _ := model.OpenHome(dir, model.HomeFromFlag)
	f := BuildForecast(Options{Home: h, Now: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)})
	l := f.Lost
	if len(l.Sessions) != 2 || l.Sessions[0].SessionID != "bbbb" || l.Sessions[1].SessionID != "cccc" {
		t.Fatalf("lost sessions %+v, want bbbb then cccc", l.Sessions)
	}
	b := l.Sessions[0]
	if b.Prompts != 2 || b.FirstPrompt != "first of bbbb second line" || b.Line != 2 || b.Project != "/home/me/app" ||
		b.First.Day() != 3 || b.Last.Day() != 9 {
		t.Errorf("bbbb: %+v", b)
	}
	if c := l.Sessions[1]; len([]rune(c.FirstPrompt)) > maxPromptRunes+1 || !strings.HasSuffix(c.FirstPrompt, "…") {
		t.Errorf("the long prompt is not cut: %q", c.FirstPrompt)
	}
	if len(l.Pastes) != 1 || l.Pastes[0].Hash != "2222222222222222" || l.Pastes[0].Line != 2 || f.AlreadyMissing != 1 {
		t.Errorf("lost pastes %+v (alreadyMissing %d)", l.Pastes, f.AlreadyMissing)
	}
	if l.Unattributed != 1 {
		t.Errorf("unattributed %d, want 1", l.Unattributed)
	}
	if got, want := l.Summary(time.UTC), "already lost: 2 sessions, 2026-06-03 … 2026-06-09; 1 paste"; got != want {
		t.Errorf("summary %q, want %q", got, want)
	}
	if (Lost{}).Summary(time.UTC) != "" {
		t.Error("nothing lost must say nothing")
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

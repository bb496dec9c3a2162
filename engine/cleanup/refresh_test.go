package cleanup

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// histLine is a history line pasting the paste-cache file of hash.
func histLine(n int, hash string) string {
	return `{"display":"prompt ` + string(rune('a'+n%26)) + ` [Pasted text #1]","pastedContents":{"1":{"id":1,"type":"text","contentHash":"` + hash + `"}},"timestamp":1763632800000,"project":"/w/app","sessionId":"s1"}` + "\n"
}

// histPrompt is a history line of session sid ("" writes none) without
// pastes, n minutes after the first.
func histPrompt(n int, sid string) string {
	s := ""
	if sid != "" {
		s = `,"sessionId":"` + sid + `"`
	}
	return `{"display":"asked ` + string(rune('a'+n%26)) + `","timestamp":` + fmt.Sprint(1763632800000+int64(n)*60000) + `,"project":"/w/app"` + s + "}\n"
}

// Refresh after appends (a transcript, a subagent's transcript, history
// lines pasting a paste the sweep will delete, a half-written line, then
// its end) and a day later gives what BuildForecast gives; a change it
// cannot follow (a new transcript, a paste written, history rewritten)
// says so.
func TestRefreshMatchesBuildForecast(t *testing.T) {
	h := retentionHome(t, map[string]rfile{
		"projects/-w-app/s1.jsonl":                   {`{"type":"user"}` + "\n", 10 * day},
		"projects/-w-app/s1/subagents/agent-a.jsonl": {`{"type":"user"}` + "\n", 12 * day},
		"projects/-w-app/s2.jsonl":                   {`{"type":"user"}` + "\n", 40 * day},
		"paste-cache/aaaaaaaaaaaaaaaa.txt":           {"old paste", 25 * day},
		"paste-cache/bbbbbbbbbbbbbbbb.txt":           {"new paste", time.Hour},
		"history.jsonl":                              {histLine(0, "aaaaaaaaaaaaaaaa") + histLine(1, "cccccccccccccccc") + histPrompt(2, "gone1") + histPrompt(3, ""), time.Hour},
		"file-history/s1/0123456789abcdef@v1":        {"v1", 5 * day},
		"projects/-w-app/memory/note.md":             {"a note", 3 * day},
	}, nil)
	o := Options{Home: h, Settings: period(30), Now: retNow}
	f := BuildForecast(o)
	if len(f.Dangling) != 1 || f.AlreadyMissing != 1 {
		t.Fatalf("fixture: dangling %+v, missing %d", f.Dangling, f.AlreadyMissing)
	}
	abs := func(rel string) string { return filepath.Join(h.Dir, filepath.FromSlash(rel)) }
	appendTo := func(rel, s string, at time.Time) {
		fh, err := os.OpenFile(abs(rel), os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		fh.WriteString(s)
		fh.Close()
		os.Chtimes(abs(rel), at, at)
	}
	same := func(step string, got Forecast) {
		t.Helper()
		want := BuildForecast(o)
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(want)
		if string(g) != string(w) {
			t.Fatalf("%s: Refresh\n%s\nBuildForecast\n%s", step, g, w)
		}
	}
	steps := []struct {
		name  string
		paths []string
		do    func()
	}{
		{"a transcript appended", []string{"projects/-w-app/s1.jsonl"}, func() { appendTo("projects/-w-app/s1.jsonl", `{"type":"assistant"}`+"\n", retNow) }},
		{"a subagent appended", []string{"projects/-w-app/s1/subagents/agent-a.jsonl"}, func() {
			appendTo("projects/-w-app/s1/subagents/agent-a.jsonl", `{"type":"assistant"}`+"\n", retNow)
		}},
		{"history: a dangling paste and a half line", []string{"history.jsonl"}, func() {
			appendTo("history.jsonl", histLine(2, "aaaaaaaaaaaaaaaa")+histPrompt(5, "gone2")+histPrompt(4, "gone1")+histLine(3, "aaaaaaaaaaaaaaaa")[:50], retNow)
		}},
		{"history: the line ends", []string{"history.jsonl"}, func() {
			appendTo("history.jsonl", histLine(3, "aaaaaaaaaaaaaaaa")[50:]+histLine(4, "dddddddddddddddd")+histPrompt(1, "gone3")+histPrompt(6, ""), retNow)
		}},
		{"a memory file written, a process file and the settings touched", []string{"projects/-w-app/memory/note.md", "sessions/42.json", "settings.json"}, func() {
			os.WriteFile(abs("projects/-w-app/memory/note.md"), []byte("a note, longer now"), 0o600)
			o.Settings = period(31)
		}},
		{"a day later", nil, func() { o.Now = retNow.Add(day + time.Hour) }},
	}
	for _, s := range steps {
		s.do()
		next, ok := Refresh(f, o, s.paths)
		if !ok {
			t.Fatalf("%s: Refresh gave up", s.name)
		}
		same(s.name, next)
		f = next
	}
	if len(f.Dangling) != 3 || f.AlreadyMissing != 2 || len(f.Lost.Pastes) != 2 {
		t.Errorf("after the steps: %d dangling, %d missing; want 3 and 2", len(f.Dangling), f.AlreadyMissing)
	}
	// The sessions history names without a transcript, oldest first, with
	// their prompts counted across the appends.
	var lost []string
	for _, s := range f.Lost.Sessions {
		lost = append(lost, fmt.Sprintf("%s:%d", s.SessionID, s.Prompts))
	}
	if fmt.Sprint(lost) != "[gone3:1 gone1:2 gone2:1]" || f.Lost.Unattributed != 2 {
		t.Errorf("lost sessions %v, %d lines without a session; want [gone3:1 gone1:2 gone2:1] and 2", lost, f.Lost.Unattributed)
	}
	os.MkdirAll(abs("sessions/gone2"), 0o700)
	os.WriteFile(abs("sessions/gone2/transcript.jsonl"), []byte(`{"type":"user"}`+"\n"), 0o600)
	if _, ok := Refresh(f, o, []string{"sessions/gone2/transcript.jsonl"}); ok {
		t.Error("a lost session's seed transcript appeared: Refresh went on")
	}
	for name, paths := range map[string][]string{
		"a new transcript": {"projects/-w-app/s3.jsonl"},
		"a paste":          {"paste-cache/bbbbbbbbbbbbbbbb.txt"},
		"file history":     {"file-history/s1/0123456789abcdef@v2"},
		"a debug log":      {"debug/x.txt"},
	} {
		if _, ok := Refresh(f, o, paths); ok {
			t.Errorf("%s: Refresh went on; it must ask for BuildForecast", name)
		}
	}
	os.WriteFile(abs("history.jsonl"), []byte(histLine(9, "bbbbbbbbbbbbbbbb")), 0o600)
	if _, ok := Refresh(f, o, []string{"history.jsonl"}); ok {
		t.Error("history rewritten: Refresh went on")
	}
}

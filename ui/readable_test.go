package ui

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/memscope/memscope/demo"
	"github.com/memscope/memscope/keymap"
	"github.com/memscope/memscope/model"
)

// readableSession is the session the readability home adds to the demo's
// shop-api project: its prompt, its reply, and a memory it writes.
const (
	readableSession = "abcdef01-2345-4678-89ab-cdef01234567"
	readableOld     = "abcdef02-2345-4678-89ab-cdef01234567"
	readableVersion = "abcdef03-2345-4678-89ab-cdef01234567"
)

// compact is s without white space and the pane's frame, so a text
// wrapped at any column (inside a word too) is found as one run.
func compact(s string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case ' ', '\n', '\t', '│', '┃', '║':
			return -1
		}
		return r
	}, s)
}

// readWhole reports whether the whole of v is on the screen s, in order:
// as one run once the wrapping is taken out.
func readWhole(s, v string) bool {
	return strings.Contains(compact(ansi.Strip(s)), compact(v))
}

// transcriptLine is one transcript record as the client writes it.
func transcriptLine(sid, cwd, uuid, parent, typ string, at time.Time, body string) string {
	p := "null"
	if parent != "" {
		p = fmt.Sprintf("%q", parent)
	}
	return fmt.Sprintf(`{"parentUuid":%s,"isSidechain":false,"type":%q,"uuid":%q,"timestamp":%q,"sessionId":%q,"cwd":%q,"version":"2.1.331"%s}`+"\n",
		p, typ, uuid, at.UTC().Format(model.ISOMillis), sid, cwd, body)
}

// readableHome is the demo home (on disk, writable) with a 300-character
// text, tagged for where it goes, in every store a pane shows text from.
func readableHome(t *testing.T) (demo.Layout, map[string]string) {
	t.Helper()
	l, err := demo.Materialize(t.TempDir(), testNow)
	if err != nil {
		t.Fatal(err)
	}
	v := map[string]string{}
	for _, tag := range []string{"idx", "mem", "hst", "pst", "rpl", "prm", "rsn", "act", "ret", "liv", "rev", "prj", "ovw"} {
		v[tag] = longValue(tag)
	}
	put := func(path, data string, at time.Time) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		if !at.IsZero() {
			os.Chtimes(path, at, at)
		}
	}
	appendTo := func(path, data string) {
		t.Helper()
		old, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		put(path, string(old)+data, time.Time{})
	}
	proj := l.Project("shop-api")
	slug := model.Slug(proj)
	memDir := filepath.Join(l.Home, "projects", slug, "memory")
	// Index: a line of MEMORY.md, first.
	idx, err := os.ReadFile(filepath.Join(memDir, "MEMORY.md"))
	if err != nil {
		t.Fatal(err)
	}
	put(filepath.Join(memDir, "MEMORY.md"), "- [Index note](user_role.md) — "+v["idx"]+"\n"+string(idx), time.Time{})
	// Memories: a description. Health: a name lint quotes (linked, so
	// only lint speaks of it), and an unlinked memory's name, which the
	// prune plan's index line quotes.
	gone := strings.ReplaceAll(v["act"], " ", "_") + ".md"
	appendTo(filepath.Join(memDir, "MEMORY.md"), "- [aaa mem](aaa_mem.md)\n- [aaa reason](aaa_reason.md)\n- [aaa gone]("+gone+")\n")
	v["act"] = "it links " + gone
	put(filepath.Join(memDir, "aaa_mem.md"), "---\nname: aaa mem\ndescription: "+v["mem"]+"\ntype: user\n---\n\nbody\n", testNow.Add(-time.Hour))
	put(filepath.Join(memDir, "aaa_reason.md"), "---\nname: "+v["rsn"]+"\ndescription: a reason\ntype: user\n---\n\nbody\n", testNow.Add(-time.Hour))
	// History and Pastes: a prompt, and a pasted text.
	appendTo(filepath.Join(l.Home, "history.jsonl"),
		fmt.Sprintf(`{"display":%q,"pastedContents":{},"timestamp":%d,"project":%q,"sessionId":%q}`+"\n", v["hst"], testNow.Add(-2*time.Minute).UnixMilli(), proj, readableSession)+
			fmt.Sprintf(`{"display":"[Pasted text #1] look","pastedContents":{"1":{"id":1,"type":"text","content":%q}},"timestamp":%d,"project":%q,"sessionId":%q}`+"\n", v["pst"], testNow.Add(-time.Minute).UnixMilli(), proj, readableSession))
	// Pastes: a pasted text in the paste cache, which a prompt refers to.
	pasteHash := pasteHashOf(v["pst"])
	put(filepath.Join(l.Home, "paste-cache", pasteHash+".txt"), v["pst"], testNow.Add(-time.Minute))
	appendTo(filepath.Join(l.Home, "history.jsonl"),
		fmt.Sprintf(`{"display":"[Pasted text #1] cached","pastedContents":{"1":{"id":1,"type":"text","contentHash":%q}},"timestamp":%d,"project":%q,"sessionId":%q}`+"\n", pasteHash, testNow.Add(-30*time.Second).UnixMilli(), proj, readableSession))
	v["pch"] = v["pst"]
	// Replay and Review: a session whose prompt asks for a memory the
	// reply writes.
	at := testNow.Add(-10 * time.Minute)
	revFile := filepath.Join(memDir, "aaa_review.md")
	revBody := "---\nname: aaa review\ndescription: written by Claude\ntype: user\n---\n\nbody\n"
	var tr strings.Builder
	tr.WriteString(transcriptLine(readableSession, proj, "r-1", "", "user", at, fmt.Sprintf(`,"message":{"role":"user","content":%q}`, v["rev"])))
	tr.WriteString(transcriptLine(readableSession, proj, "r-2", "r-1", "assistant", at.Add(time.Second), fmt.Sprintf(`,"requestId":"req_r2","message":{"id":"msg_r2","role":"assistant","model":"claude-opus-5-5","content":[{"type":"tool_use","id":"toolu_r2","name":"Write","input":{"file_path":%q,"content":%q}}],"usage":{"input_tokens":3,"cache_read_input_tokens":1000,"cache_creation_input_tokens":0,"output_tokens":20}}`, revFile, revBody)))
	tr.WriteString(transcriptLine(readableSession, proj, "r-2b", "r-2", "user", at.Add(time.Second), `,"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_r2","content":"File created successfully"}]},"sourceToolAssistantUUID":"r-2"`))
	tr.WriteString(transcriptLine(readableSession, proj, "r-3", "r-2b", "assistant", at.Add(2*time.Second), fmt.Sprintf(`,"requestId":"req_r3","message":{"id":"msg_r3","role":"assistant","model":"claude-opus-5-5","content":[{"type":"text","text":%q}],"usage":{"input_tokens":3,"cache_read_input_tokens":1000,"cache_creation_input_tokens":0,"output_tokens":20}}`, v["rpl"])))
	// Replay's session list: the session's name (/rename), long but
	// under the client's 200-character cap on titles.
	v["ttl"] = strings.Join(strings.Fields(longValue("ttl"))[:30], " ") + " ttl-END"
	tr.WriteString(fmt.Sprintf(`{"type":"custom-title","customTitle":%q,"sessionId":%q}`+"\n", v["ttl"], readableSession))
	put(filepath.Join(l.Home, "projects", slug, readableSession+".jsonl"), tr.String(), at.Add(2*time.Second))
	put(revFile, revBody, at.Add(time.Second))
	// Retention: a session the cleanup deletes soon (29 days old).
	old := testNow.Add(-29 * 24 * time.Hour)
	put(filepath.Join(l.Home, "projects", slug, readableOld+".jsonl"), transcriptLine(readableOld, proj, "o-1", "", "user", old, fmt.Sprintf(`,"message":{"role":"user","content":%q}`, v["ret"])), old)
	// Prompt: a line of the project's CLAUDE.md.
	appendTo(filepath.Join(proj, "CLAUDE.md"), "\n"+v["prm"]+"\n")
	// Projects: a project whose folder has a 300-character path.
	far := "/work/" + v["prj"]
	put(filepath.Join(l.Home, "projects", model.Slug(far), readableVersion+".jsonl"), transcriptLine(readableVersion, far, "p-1", "", "user", at, `,"message":{"role":"user","content":"hello"}`), at)
	// Overview: the client version doctor's line quotes.
	put(filepath.Join(l.Home, "projects", model.Slug(far), "abcdef04-2345-4678-89ab-cdef01234567.jsonl"),
		strings.Replace(transcriptLine("abcdef04-2345-4678-89ab-cdef01234567", far, "v-1", "", "user", at, `,"message":{"role":"user","content":"hi"}`), `"2.1.331"`, fmt.Sprintf("%q", "9."+v["ovw"]), 1), at)
	// Live: a running session (this test's process) whose first prompt is long.
	// Live: a running session (this test's process) in a folder with a
	// 300-character path.
	liveDir := "/work/" + v["liv"]
	livePath := filepath.Join(l.Home, "projects", model.Slug(liveDir), "abcdef05-2345-4678-89ab-cdef01234567.jsonl")
	put(livePath, transcriptLine("abcdef05-2345-4678-89ab-cdef01234567", liveDir, "l-1", "", "user", testNow.Add(-time.Minute), `,"message":{"role":"user","content":"go"}`), testNow.Add(-time.Minute))
	put(filepath.Join(l.Home, "sessions", fmt.Sprintf("%d.json", os.Getpid())), fmt.Sprintf(`{"pid":%d,"sessionId":"abcdef05-2345-4678-89ab-cdef01234567","cwd":%q,"startedAt":%q,"status":"busy"}`, os.Getpid(), liveDir, testNow.Add(-time.Minute).UTC().Format(model.ISOMillis)), testNow.Add(-time.Minute))
	v["liv"] = "in " + liveDir
	// Retention: a session of the far project the cleanup deletes
	// tomorrow; its path (the project's long folder name) is the text.
	swept := "projects/" + model.Slug(far) + "/abcdef06-2345-4678-89ab-cdef01234567.jsonl"
	put(filepath.Join(l.Home, filepath.FromSlash(swept)), transcriptLine("abcdef06-2345-4678-89ab-cdef01234567", far, "g-1", "", "user", old, `,"message":{"role":"user","content":"old"}`), old)
	v["ret"] = swept
	// Files: that session kept a backup; the detail names its transcript.
	put(filepath.Join(l.Home, "file-history", "abcdef06-2345-4678-89ab-cdef01234567", "0123456789abcdef@v1"), "old text\n", old)
	v["fil"] = "transcript " + swept
	// Security: a secret in a memory whose file name is 250 characters.
	secName := strings.ReplaceAll(longValue("sec"), " ", "_") + ".md"
	put(filepath.Join(memDir, secName), "---\nname: sec\ndescription: a token\ntype: reference\n---\n\ntoken ghp_"+strings.Repeat("Zq7xR2mK9", 4)+"\n", testNow.Add(-time.Hour))
	v["sec"] = secName
	return l, v
}

// pasteHashOf is the paste cache's name for a pasted text.
func pasteHashOf(text string) string {
	sum := sha256.Sum256([]byte(text))
	return hex.EncodeToString(sum[:])[:16]
}

// readableCase is where one tagged text is on screen: the keys that
// reach its row from the Overview (the pane's key, the row); z, then G,
// follow while the text is not whole yet.
type readableCase struct {
	name, tag string
	keys      []string
}

// Every pane that shows text from the user, a transcript or a memory
// shows a 300-character value whole at 80×24 and at 120×40: in its row, its detail
// (wrapped), or after z (and G, to the zoom's end), reached from the
// pane's key and the row's selection; a text a pane cuts with "…" by
// design (Review quotes a prompt's first 200 characters) is read whole
// where the pane's own key opens it (o: its turn in Replay). The check is
// the text as one run once the wrapping is taken out, so a cut anywhere
// fails it. Before, Replay's messages, Live's and Files' paths,
// Retention's items, Security's places and Projects' folders were cut
// with no way to read them.
func TestEveryPaneShowsALongTextWhole(t *testing.T) {
	l, v := readableHome(t)
	base := demoModelAt(t, l, false, 80, 24)
	pk := func(name string) string { return keymap.Panes[keymap.PaneIndex(name)].Key }
	filter := func(pane, q string) []string {
		keys := []string{pk(pane), "/"}
		for _, r := range q {
			keys = append(keys, string(r))
		}
		return append(keys, "enter")
	}
	cases := []readableCase{
		{"Index", "idx", []string{pk("Index")}},
		{"Memories", "mem", []string{pk("Memories"), "g"}},
		{"History", "hst", []string{pk("History"), "g", "j", "j"}},
		{"History paste", "pst", []string{pk("History"), "g", "j", "space"}},
		{"Pastes", "pch", append(filter("Pastes", pasteHashOf(v["pch"])), "enter")},
		{"Replay", "rpl", []string{pk("Replay"), "g", "enter", "G"}},
		// The session list cuts a title; the selected one is whole
		// under the rows.
		{"Replay title", "ttl", []string{pk("Replay"), "g"}},
		{"Prompt", "prm", []string{pk("Prompt"), "g", "j", "j", "j", "j"}},
		{"Health reason", "rsn", filter("Health", "aaa_reason")},
		{"Health action", "act", filter("Health", "act00")},
		{"Retention", "ret", []string{pk("Retention"), "g", "j"}},
		{"Files", "fil", filter("Files", "abcdef06")},
		{"Live", "liv", []string{pk("Live"), "g"}},
		// The detail quotes the prompt's first 200 characters; o opens
		// the turn in Replay, where it is whole.
		{"Review", "rev", append(filter("Review", "aaa_review"), "o")},
		{"Security", "sec", filter("Security", "sec00")},
		{"Projects", "prj", []string{pk("Projects"), "G"}},
		{"Overview", "ovw", []string{pk("Overview"), "G", "k"}},
	}
	// At 120×40 too: a pane laid out for the wider screen must not cut
	// what it wraps at 80 columns.
	wide := demoModelAt(t, l, false, 120, 40)
	for _, start := range []struct {
		size string
		m    Model
	}{{"80x24", base}, {"120x40", wide}} {
		// The forks below have panes of their own but share the feeds,
		// and the open project's feed makes the prune plan once, when
		// Health is first shown: only the first fork to show Health
		// would be handed it. Show Health on the start first, so every
		// fork's Health pane holds the plan (the cases start on the
		// Overview).
		start.m = press(t, start.m, pk("Health"), pk("Overview"))
		for _, c := range cases {
			m := press(t, fork(start.m), c.keys...)
			s := screen(m)
			for _, k := range []string{"z", "G"} {
				if !readWhole(s, v[c.tag]) {
					m = press(t, m, k)
					s = screen(m)
				}
			}
			if !readWhole(s, v[c.tag]) {
				t.Errorf("%s at %s: the %d-character text is not whole on screen (keys %q, then z, G):\n%s", c.name, start.size, len(v[c.tag]), c.keys, s)
			}
		}
	}
}

package feed

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/engine/diskcache"
	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/views/history"
	"github.com/memscope/memscope/views/pastes"
)

// runAll runs cmd and every command its messages batch, and returns the
// messages that are not batches, in order.
func runAll(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	msg := cmd()
	if b, ok := msg.(tea.BatchMsg); ok {
		var out []tea.Msg
		for _, c := range b {
			out = append(out, runAll(c)...)
		}
		return out
	}
	if msg == nil {
		return nil
	}
	return []tea.Msg{msg}
}

// pasteHome writes a home with n pastes, each referenced by one prompt
// of project /w/app, and returns it with the first paste's hash.
func pasteHome(t *testing.T, n int) (dir, first string) {
	t.Helper()
	dir = t.TempDir()
	var hist string
	os.MkdirAll(filepath.Join(dir, model.PasteCacheDir), 0o700)
	for i := range n {
		content := fmt.Sprintf("pasted text %d", i)
		sum := sha256.Sum256([]byte(content))
		hash := hex.EncodeToString(sum[:])[:16]
		if i == 0 {
			first = hash
		}
		os.WriteFile(filepath.Join(dir, model.PasteCacheDir, hash+".txt"), []byte(content), 0o600)
		hist += fmt.Sprintf(`{"display":"p %d [Pasted text #1]","pastedContents":{"1":{"id":1,"type":"text","contentHash":%q}},"timestamp":1763632800000,"project":"/w/app","sessionId":"s"}`+"\n", i, hash)
	}
	if err := os.WriteFile(filepath.Join(dir, model.HistoryPath), []byte(hist), 0o600); err != nil {
		t.Fatal(err)
	}
	return dir, first
}

// testHome opens the home at dir.
func testHome(t *testing.T, dir string) *model.Home {
	t.Helper()
	h, err := model.OpenHome(dir, model.HomeFromFlag)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

var app = Open{Slug: model.Slug("/w/app"), Path: "/w/app"}

// settle hands every message of cmd to the feed, and the commands those
// return, until nothing is left; it returns the panes' last messages.
func settle(t *testing.T, h *History, cmd tea.Cmd) (hist, paste tea.Msg) {
	t.Helper()
	for queue := runAll(cmd); len(queue) > 0; {
		msg := queue[0]
		queue = queue[1:]
		var out HistoryOut
		switch msg := msg.(type) {
		case HistoryRead:
			out = h.Loaded(msg, app, testNow)
		case PastesChecked:
			out = h.Checked(msg, app, testNow)
		default:
			t.Fatalf("the feed sent %T", msg)
		}
		if out.Err != nil {
			t.Logf("error: %v", out.Err)
		}
		if out.History != nil {
			hist = out.History
		}
		if out.Pastes != nil {
			paste = out.Pastes
		}
		queue = append(queue, runAll(out.Cmd)...)
	}
	return hist, paste
}

// With a cache, the paste files hashed at one start are not hashed at
// the next; a paste changed in between is. (Moved from the shell's
// tests: it built the whole root to count the feed's hashing.)
func TestPasteVerdictsOutliveTheRun(t *testing.T) {
	dir, first := pasteHome(t, 5)
	cache := diskcache.New(filepath.Join(t.TempDir(), "cache"), testroot.New(t), model.OSWriteFS{})
	start := func() *History {
		h := NewHistory(testHome(t, dir), cache)
		h.ShowPastes()
		settle(t, h, h.Init())
		return h
	}
	if n := start().Hashed(); n != 5 {
		t.Fatalf("first start hashed %d pastes, want 5", n)
	}
	if n := start().Hashed(); n != 0 {
		t.Errorf("second start hashed %d pastes, want 0 (the verdicts were kept)", n)
	}
	// Rewritten in place: same name, other content.
	os.WriteFile(filepath.Join(dir, model.PasteCacheDir, first+".txt"), []byte("pasted text X"), 0o600)
	h := start()
	if n := h.Hashed(); n != 1 {
		t.Errorf("after a paste changed: %d hashed, want 1", n)
	}
	if s := h.Inventory().Summary; s.HashMismatch != 1 || s.Resolved != 4 {
		t.Errorf("after a paste changed: %+v, want 1 mismatch and 4 resolved", s)
	}
}

// The History feed reads history.jsonl whole at start, then only what is
// appended; it checks the pastes once a pane that shows them is shown
// (not at start: on the old code the start listed and hashed every
// paste file), then when history refers to new ones or a paste file
// changes, and reads nothing for a file it does not read.
func TestHistoryFeedReadsWhatChanged(t *testing.T) {
	dir, first := pasteHome(t, 3)
	h := NewHistory(testHome(t, dir), nil)
	if !h.ReadingAll() {
		t.Fatal("a new feed does not count its start-up read")
	}
	hist, paste := settle(t, h, h.Init())
	em, ok := hist.(history.EntriesMsg)
	if !ok || len(em.Entries) != 3 || em.Project != app.Slug {
		t.Fatalf("the start's History message: %#v", hist)
	}
	if paste != nil || h.Hashed() != 0 || h.Inventory() != nil {
		t.Fatalf("the start checked the pastes before a pane showing them was shown: %#v, %d hashed", paste, h.Hashed())
	}
	_, paste = settle(t, h, h.ShowPastes())
	if cmd := h.ShowPastes(); cmd != nil {
		t.Error("the pastes shown again checked them again")
	}
	inv, ok := paste.(pastes.InventoryMsg)
	if !ok || inv.Inventory.Summary.Resolved != 3 || h.Reading() {
		t.Fatalf("the start's Pastes message: %#v (reading %v)", paste, h.Reading())
	}
	if cmd := h.Changed(map[string]bool{"projects/-w-app/x.jsonl": true, "settings.json": true}); cmd != nil {
		t.Errorf("a change to files the feed does not read read %v", runAll(cmd))
	}

	// An appended prompt without pastes: one read of the new line, no
	// check, the prompt shown.
	f, _ := os.OpenFile(filepath.Join(dir, model.HistoryPath), os.O_APPEND|os.O_WRONLY, 0)
	fmt.Fprintln(f, `{"display":"appended","pastedContents":{},"timestamp":1763632900000,"project":"/w/app","sessionId":"s"}`)
	f.Close()
	msgs := runAll(h.Changed(map[string]bool{model.HistoryPath: true}))
	if len(msgs) != 1 {
		t.Fatalf("an appended line made %d reads", len(msgs))
	}
	read := msgs[0].(HistoryRead).Read()
	if read.Full || len(read.Entries) != 1 {
		t.Fatalf("the appended line's read: full %v, %d entries", read.Full, len(read.Entries))
	}
	out := h.Loaded(msgs[0].(HistoryRead), app, testNow)
	if em, ok := out.History.(history.EntriesMsg); !ok || len(em.Entries) != 4 || out.Cmd != nil {
		t.Fatalf("after the append: %#v, next %v", out.History, out.Cmd != nil)
	}

	// A read asked while one runs waits and is merged: one more read.
	c1, c2, c3 := h.Request(false), h.Request(true), h.Request(false)
	if c1 == nil || c2 != nil || c3 != nil {
		t.Fatalf("requests while one runs started: %v %v %v", c1 != nil, c2 != nil, c3 != nil)
	}
	out = h.Loaded(c1().(HistoryRead), app, testNow)
	if out.Cmd == nil || !h.ReadingAll() {
		t.Fatalf("the waiting whole read did not start (reading all %v)", h.ReadingAll())
	}

	// A paste file changed: the inventory is checked for it.
	os.WriteFile(filepath.Join(dir, model.PasteCacheDir, first+".txt"), []byte("changed"), 0o600)
	settle(t, h, out.Cmd)
	_, paste = settle(t, h, h.Changed(map[string]bool{model.PasteCacheDir + "/" + first + ".txt": true}))
	if inv, ok := paste.(pastes.InventoryMsg); !ok || inv.Inventory.Summary.HashMismatch != 1 {
		t.Fatalf("after a paste changed: %#v", paste)
	}
}

// history.jsonl that cannot be read (here a folder where the file should
// be) drops what was read and tells both panes why.
func TestHistoryFeedUnreadable(t *testing.T) {
	dir, _ := pasteHome(t, 1)
	h := NewHistory(testHome(t, dir), nil)
	settle(t, h, h.Init())
	os.Remove(filepath.Join(dir, model.HistoryPath))
	os.Mkdir(filepath.Join(dir, model.HistoryPath), 0o700)
	out := h.Loaded(h.Request(true)().(HistoryRead), app, testNow)
	hu, ok1 := out.History.(history.UnavailableMsg)
	pu, ok2 := out.Pastes.(pastes.UnavailableMsg)
	if out.Err == nil || !ok1 || !ok2 || hu.Why == "" || pu.Why != hu.Why || h.History() != nil {
		t.Fatalf("an unreadable history: err %v, %#v, %#v, history kept %v", out.Err, out.History, out.Pastes, h.History() != nil)
	}
}

// A request made while a load runs waits, merged with the others that
// arrive meanwhile, and starts when the running load is done.
func TestFlightRunsOneAtATime(t *testing.T) {
	var f Flight[PastesReq]
	if !f.Start(PastesReq{}, MergePastes) {
		t.Fatal("the first request did not start")
	}
	if f.Start(PastesReq{}, MergePastes) || f.Start(PastesReq{Full: true}, MergePastes) || f.Start(PastesReq{Names: map[string]bool{"a": true}}, MergePastes) {
		t.Fatal("a request started while one ran")
	}
	r, ok := f.Done()
	if !ok || !r.Full || !r.Names["a"] || !f.Running() {
		t.Fatalf("after the first: next %+v (%v), running %v; want the merged request, running", r, ok, f.Running())
	}
	if _, ok := f.Done(); ok || f.Running() {
		t.Fatalf("after the second: another request (%v), running %v", ok, f.Running())
	}
	if !f.Start(PastesReq{}, MergePastes) {
		t.Fatal("a request after all were done did not start")
	}
}

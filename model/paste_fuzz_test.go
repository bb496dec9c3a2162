package model

import (
	"bytes"
	"io/fs"
	"path"
	"strings"
	"testing"
	"testing/fstest"
)

// FuzzPasteResolve resolves fuzzed hashes against a paste folder holding
// fuzzed content under its right name, under a wrong name and in the seed
// store, and checks: a hash that is not one path element never opens a
// file; content under its own hash resolves exactly; content under another
// cache name is a mismatch naming the right hash; Check agrees with
// Resolve without keeping the content; and the inventory's counts add up.
func FuzzPasteResolve(f *testing.F) {
	f.Add([]byte("one\ntwo\nthree"), "6726f7554468d737", "../history.jsonl")
	f.Add([]byte(""), "paste-cache/x", "abc123def4567890abc")
	f.Add([]byte("\x1b]52;c;AAAA\x07\xff\xfe"), "..", "0000000000000000")
	f.Fuzz(func(t *testing.T, content []byte, wrong, probe string) {
		right := HashPaste(content)
		fsys := fstest.MapFS{
			"paste-cache/" + string(right) + ".txt": {Data: content},
			"history.jsonl":                         {Data: []byte("secret\n")},
		}
		wrongHash := PasteHash(wrong)
		wrongFile := "paste-cache/" + wrong + ".txt"
		wrongOK := wrongHash != right && wrongHash.validName() && fs.ValidPath(wrongFile)
		if wrongOK {
			fsys[wrongFile] = &fstest.MapFile{Data: content}
		}
		c := NewPasteCache(fsys)

		got := c.Resolve(right)
		if got.Status != PasteOK || got.Content != string(content) || got.Size != int64(len(content)) || !got.Verified {
			t.Fatalf("own hash: %+v", got)
		}
		if wrongOK && wrongHash.IsCacheForm() {
			bad := c.Resolve(wrongHash)
			if bad.Status != PasteHashMismatch || bad.Actual != right {
				t.Fatalf("content under %q: %+v, want a mismatch naming %s", wrong, bad, right)
			}
		}
		for _, h := range []PasteHash{PasteHash(probe), wrongHash, right} {
			r, chk := c.Resolve(h), c.Check(h)
			if r.Status != chk.Status || r.Size != chk.Size || r.Path != chk.Path || chk.Content != "" {
				t.Fatalf("Resolve and Check disagree on %q: %+v vs %+v", h, r, chk)
			}
			if !h.validName() && (r.Status != PasteMissing || r.Content != "") {
				t.Fatalf("hash %q is not a file name but resolved to %+v", h, r)
			}
			if r.Status == PasteOK {
				if dir := path.Dir(r.Path); dir != PasteCacheDir && dir != PasteStoreDir {
					t.Fatalf("hash %q opened %s, outside the paste folders", h, r.Path)
				}
				if !bytes.Equal([]byte(r.Content), content) {
					t.Fatalf("hash %q resolved to content that was never stored", h)
				}
			}
		}

		var entries []HistoryEntry
		for i, h := range []PasteHash{right, wrongHash, PasteHash(probe), right} {
			entries = append(entries, HistoryEntry{PastedContents: map[PasteID]PastedContent{
				1: {ID: 1, Kind: "text", Hash: h},
				2: {ID: 2, Kind: "text", Content: strings.Repeat("x", i), Inline: true},
			}})
		}
		inv := InventoryPastes(fsys, NewHistory("history.jsonl", entries, nil))
		s := inv.Summary
		if s.Inline != 4 || s.Resolved+s.Missing+s.HashMismatch+s.Unreadable != s.Referenced || s.Referenced != len(inv.Resolutions) {
			t.Fatalf("inventory counts do not add up: %+v", s)
		}
		if s.Files != len(inv.Files) || s.Orphans != len(inv.Orphans) || s.Orphans > s.Files {
			t.Fatalf("inventory file counts: %+v", s)
		}
		for _, pf := range inv.Files {
			if pf.Hash == right && pf.Refs < 2 {
				t.Fatalf("%s is referenced twice, counted %d", right, pf.Refs)
			}
		}
	})
}

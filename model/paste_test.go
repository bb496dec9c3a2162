package model

import (
	"os"
	"strings"
	"testing"
	"testing/fstest"
)

// Hashes of the fixture's paste files, computed with sha256sum when the
// fixture was made.
const (
	fixtureLongPaste  = PasteHash("b20ad400088fc484") // 40 lines, 2320 bytes
	fixtureTampered   = PasteHash("b61e285b0ad77c1c") // named for "original text"
	fixtureTamperedIs = PasteHash("c79e27d36a912497") // sha256("tampered text")
	fixtureOrphan     = PasteHash("f5342cd0294e9bc4")
	fixtureMissing    = PasteHash("0123456789abcdef")
	fixtureSeedStore  = PasteHash("abc123def456ghi")
)

func TestHashPaste(t *testing.T) {
	// printf 'hello\n' | sha256sum → 5891b5b522d5df08…
	if got := HashPaste([]byte("hello\n")); got != "5891b5b522d5df08" {
		t.Errorf("HashPaste = %s", got)
	}
	if !PasteHash("5891b5b522d5df08").IsCacheForm() || PasteHash("5891B5B522D5DF08").IsCacheForm() || PasteHash("abc").IsCacheForm() {
		t.Error("IsCacheForm wrong")
	}
}

func TestPasteResolveFixture(t *testing.T) {
	c := NewPasteCache(os.DirFS(fixtureHome))
	tests := []struct {
		hash     PasteHash
		status   PasteStatus
		source   PasteSource
		path     string
		size     int64
		verified bool
		actual   PasteHash
	}{
		{fixtureLongPaste, PasteOK, PasteSourceCache, "paste-cache/b20ad400088fc484.txt", 2320, true, ""},
		{fixtureTampered, PasteHashMismatch, PasteSourceCache, "paste-cache/b61e285b0ad77c1c.txt", 13, true, fixtureTamperedIs},
		{fixtureMissing, PasteMissing, PasteSourceCache, "paste-cache/0123456789abcdef.txt", 0, false, ""},
		{fixtureSeedStore, PasteOK, PasteSourceStore, "paste-store/abc123def456ghi", 17, false, ""},
		{"../history", PasteMissing, PasteSourceCache, "paste-cache/../history.txt", 0, false, ""},
		{"", PasteMissing, PasteSourceCache, "paste-cache/.txt", 0, false, ""},
	}
	for _, tt := range tests {
		t.Run(string(tt.hash), func(t *testing.T) {
			r := c.Resolve(tt.hash)
			if r.Status != tt.status || r.Source != tt.source || r.Path != tt.path || r.Size != tt.size || r.Verified != tt.verified || r.Actual != tt.actual {
				t.Errorf("got %+v", r)
			}
			if (r.Status == PasteOK) == (r.Reason != "") {
				t.Errorf("reason %q with status %s", r.Reason, r.Status)
			}
			if int64(len(r.Content)) != tt.size {
				t.Errorf("content %d bytes, want %d", len(r.Content), tt.size)
			}
			if ch := c.Check(tt.hash); ch.Status != r.Status || ch.Content != "" {
				t.Errorf("Check = %+v, differs from Resolve or keeps content", ch)
			}
		})
	}
	if r := c.Resolve(fixtureLongPaste); !strings.HasPrefix(r.Content, "line 01 of the pasted build log") || strings.Count(r.Content, "\n") != 40 {
		t.Errorf("content not the paste: %.40q", r.Content)
	}
}

func TestPasteResolveVariants(t *testing.T) {
	hello := "hello\n"
	fsys := fstest.MapFS{
		// A seed store file named by a 16-hex prefix is verified too.
		"paste-store/0000000000000000": {Data: []byte(hello)},
		"paste-store/5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03": {Data: []byte(hello)},
		"paste-store/5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be04": {Data: []byte(hello)},
		// A folder where a file should be cannot be read.
		"paste-cache/1111111111111111.txt/x": {Data: []byte("x")},
		// The cache wins over the store.
		"paste-cache/5891b5b522d5df08.txt": {Data: []byte(hello)},
		"paste-store/5891b5b522d5df08":     {Data: []byte("other")},
		// A non-hex name in the cache can never match.
		"paste-cache/notahash.txt": {Data: []byte(hello)},
	}
	c := NewPasteCache(fsys)
	tests := []struct {
		hash     PasteHash
		status   PasteStatus
		source   PasteSource
		verified bool
	}{
		{"0000000000000000", PasteHashMismatch, PasteSourceStore, true},
		{"5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03", PasteOK, PasteSourceStore, true},
		{"5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be04", PasteHashMismatch, PasteSourceStore, true},
		{"1111111111111111", PasteUnreadable, PasteSourceCache, false},
		{"5891b5b522d5df08", PasteOK, PasteSourceCache, true},
		{"notahash", PasteHashMismatch, PasteSourceCache, true},
	}
	for _, tt := range tests {
		t.Run(string(tt.hash), func(t *testing.T) {
			r := c.Resolve(tt.hash)
			if r.Status != tt.status || r.Source != tt.source || r.Verified != tt.verified {
				t.Errorf("got %+v", r)
			}
		})
	}
}

func TestPasteListAndInventoryFixture(t *testing.T) {
	fsys := os.DirFS(fixtureHome)
	h := readFixtureHistory(t)
	inv := InventoryPastes(fsys, h)
	want := PasteSummary{Inline: 2, References: 5, Referenced: 4, Resolved: 2, Missing: 1, HashMismatch: 1, Files: 4, Orphans: 1}
	if inv.Summary != want {
		t.Errorf("summary = %+v, want %+v", inv.Summary, want)
	}
	if len(inv.Orphans) != 1 || inv.Orphans[0].Hash != fixtureOrphan || inv.Orphans[0].Size != 28 {
		t.Errorf("orphans = %+v", inv.Orphans)
	}
	var hashes []string
	refs := map[PasteHash]int{}
	for _, f := range inv.Files {
		hashes = append(hashes, string(f.Hash)+"@"+string(f.Source))
		refs[f.Hash] = f.Refs
		if f.ModTime.IsZero() {
			t.Errorf("%s has no mtime", f.Path)
		}
	}
	if got := strings.Join(hashes, " "); got != "b20ad400088fc484@paste-cache b61e285b0ad77c1c@paste-cache f5342cd0294e9bc4@paste-cache abc123def456ghi@paste-store (seed)" {
		t.Errorf("files = %s", got)
	}
	if refs[fixtureLongPaste] != 2 || refs[fixtureTampered] != 1 || refs[fixtureSeedStore] != 1 {
		t.Errorf("refs = %v", refs)
	}
	if len(inv.Problems) != 0 {
		t.Errorf("problems = %+v", inv.Problems)
	}
}

func TestPasteListReportsOddEntries(t *testing.T) {
	fsys := fstest.MapFS{
		"paste-cache/5891b5b522d5df08.txt": {Data: []byte("hello\n")},
		"paste-cache/README":               {Data: []byte("x")},
		"paste-cache/sub.txt/inner":        {Data: []byte("x")},
	}
	files, probs := NewPasteCache(fsys).List()
	if len(files) != 1 || files[0].Hash != "5891b5b522d5df08" || files[0].Size != 6 {
		t.Errorf("files = %+v", files)
	}
	if len(probs) != 2 || probs[0].File != "paste-cache/README" || probs[1].File != "paste-cache/sub.txt" {
		t.Errorf("problems = %+v", probs)
	}
	if inv := InventoryPastes(fstest.MapFS{}, nil); inv.Summary != (PasteSummary{}) || len(inv.Problems) != 0 {
		t.Errorf("empty home inventory = %+v", inv)
	}
}

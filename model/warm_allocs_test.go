package model

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"testing/fstest"
	"time"
)

// Allocation counts of a warm start's paste inventory and listings
// (issue 28, i28a3): each grows what it builds once, to the size it
// knows, instead of doubling its way there.

// Restoring many saved verdicts into fresh verdicts sizes the map once.
func TestPasteVerdictsRestoreAllocs(t *testing.T) {
	saved := make([]PasteVerdict, 4096)
	for i := range saved {
		saved[i] = PasteVerdict{Path: fmt.Sprintf("paste-cache/%016x.txt", i), Stamp: FileStamp{Size: 10, ModTime: 1, ChangeTime: 1}, Status: PasteOK, Verified: true}
	}
	var v *PasteVerdicts
	allocs := testing.AllocsPerRun(5, func() {
		v = NewPasteVerdicts()
		v.Restore(saved)
	})
	if v.Kept() != len(saved) {
		t.Fatalf("kept %d verdicts, want %d", v.Kept(), len(saved))
	}
	// Sized once: the map's tables and directory (21 allocations for
	// 4096 entries); grown from empty it took 51.
	t.Logf("%.0f allocations", allocs)
	if allocs > 30 {
		t.Errorf("restoring %d verdicts took %.0f allocations, want at most 30 (the map sized once)", len(saved), allocs)
	}
	// Its bytes: a key holds the stamp's fields, not its zero head (64
	// bytes, not 104): 1.05 MB for 4096 (8192 slots of 128 bytes); with
	// the head in each key it was 1.38 MB (sized once).
	bytes := testing.Benchmark(func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			NewPasteVerdicts().Restore(saved)
		}
	}).AllocedBytesPerOp()
	t.Logf("%d bytes", bytes)
	if bytes > 1200<<10 {
		t.Errorf("restoring %d verdicts allocated %d bytes, want at most %d", len(saved), bytes, 1200<<10)
	}
}

// A listing followed joins each entry's path once.
func TestFollowListedJoinsOnce(t *testing.T) {
	fsys := fstest.MapFS{}
	const n = 200
	for i := range n {
		fsys[fmt.Sprintf("d/f%03d", i)] = &fstest.MapFile{Data: []byte("x")}
	}
	ents, err := fsys.ReadDir("d")
	if err != nil {
		t.Fatal(err)
	}
	var probs []Problem
	var out []Followed
	allocs := testing.AllocsPerRun(5, func() {
		out = followListed(fsys, "d", ents, nil, &probs)
	})
	if len(out) != n || out[7].Path != "d/f007" || out[7].Name != "f007" || len(probs) != 0 {
		t.Fatalf("followed %d entries (%+v), problems %v", len(out), out[7], probs)
	}
	// Per entry: its path, joined once (MapFS's information costs
	// none); joined again for the answer it was two.
	t.Logf("%.2f allocations an entry", allocs/n)
	if per := allocs / n; per > 1.5 {
		t.Errorf("%.2f allocations an entry, want at most 1.5 (the path joined once)", per)
	}
}

// Grouping transcripts by project copies them into one array.
func TestTranscriptsBySlugAllocs(t *testing.T) {
	var ts []TranscriptFile
	for i := range 2000 {
		slug := fmt.Sprintf("-p%d", i%7)
		if i%100 == 0 {
			slug = ""
		}
		ts = append(ts, TranscriptFile{Path: fmt.Sprintf("projects/%s/%d.jsonl", slug, i), ProjectSlug: slug, ModTime: time.Unix(int64(i), 0)})
	}
	want := map[string][]TranscriptFile{}
	for _, tf := range ts {
		if tf.ProjectSlug != "" {
			want[tf.ProjectSlug] = append(want[tf.ProjectSlug], tf)
		}
	}
	var got map[string][]TranscriptFile
	allocs := testing.AllocsPerRun(5, func() { got = transcriptsBySlug(ts) })
	if !reflect.DeepEqual(got, want) {
		t.Fatal("grouped transcripts differ from the plain grouping")
	}
	// Sorting one group leaves the others and ts as they were.
	SetTranscripts := (&Project{}).SetTranscripts
	SetTranscripts(got["-p1"])
	if !reflect.DeepEqual(got["-p2"], want["-p2"]) || ts[1].ProjectSlug != "-p1" || ts[1].Path != "projects/-p1/1.jsonl" {
		t.Fatal("sorting one group changed another or the input")
	}
	// Two small maps and one array (3); appended group by group it
	// was 65 (each of the 7 groups doubling to 283).
	t.Logf("%.0f allocations", allocs)
	if allocs > 8 {
		t.Errorf("grouping took %.0f allocations, want at most 8", allocs)
	}
}

// The inventory's resolutions are one array of the referenced hashes'
// number.
func TestInventoryResolutionsAllocs(t *testing.T) {
	fsys := pasteHome(300)
	h, err := ReadHistory(fsys, HistoryPath)
	if err != nil {
		t.Fatal(err)
	}
	refs := PasteRefsOf(h)
	v := NewPasteVerdicts()
	c := NewPasteCacheWith(fsys, v)
	files, probs := c.List()
	want := inventoryOf(c, v, refs, files, probs)
	if want.Summary.Resolved != 300 {
		t.Fatalf("the home is not what the test meant: %+v", want.Summary)
	}
	base := testing.AllocsPerRun(3, func() { inventoryOf(c, v, PasteRefs{}, files, probs) })
	var got *PasteInventory
	allocs := testing.AllocsPerRun(3, func() { got = inventoryOf(c, v, refs, files, probs) })
	if !reflect.DeepEqual(got, want) {
		t.Fatal("the inventory changed from one call to the next")
	}
	// Beyond an inventory of nothing: one resolutions array (1);
	// grown by append it was 10.
	t.Logf("%.0f allocations beyond %.0f", allocs-base, base)
	if extra := allocs - base; extra > 4 {
		t.Errorf("inventory of 302 hashes took %.0f allocations beyond an empty one's, want at most 4", extra)
	}
}

// The session files of the projects are joined into arrays sized once.
func TestFindSessionFilesSizedOnce(t *testing.T) {
	fsys := fstest.MapFS{}
	for p := range 5 {
		for s := range 37 {
			fsys[fmt.Sprintf("projects/-p%d/%08x-0000-0000-0000-000000000000.jsonl", p, s)] = &fstest.MapFile{Data: []byte("{}\n")}
			fsys[fmt.Sprintf("projects/-p%d/%08x-0000-0000-0000-000000000000/tool-results/t%d.txt", p, s, s)] = &fstest.MapFile{Data: []byte("r")}
		}
	}
	sf, probs := findSessionFilesAll(fsys)
	if len(sf.Transcripts) != 5*37 || len(sf.ToolResults) != 5*37 || len(probs) != 0 {
		t.Fatalf("found %d transcripts, %d tool results, problems %v", len(sf.Transcripts), len(sf.ToolResults), probs)
	}
	// Appended part by part, the arrays doubled past their length.
	if cap(sf.Transcripts) != len(sf.Transcripts) || cap(sf.ToolResults) != len(sf.ToolResults) {
		t.Errorf("transcripts %d of capacity %d, tool results %d of %d: want each sized once", len(sf.Transcripts), cap(sf.Transcripts), len(sf.ToolResults), cap(sf.ToolResults))
	}
}

// An entry of a kept listing read through ListOnce is one allocation:
// no closure, no wrapper, no path joined before its information is
// wanted.
func TestListedKeptEntryAllocs(t *testing.T) {
	dir := t.TempDir()
	const n = 200
	sub := filepath.Join(dir, "projects", "p1", "s1", "tool-results")
	if err := os.MkdirAll(sub, 0o700); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if err := os.WriteFile(filepath.Join(sub, fmt.Sprintf("t%03d.txt", i)), []byte("r"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	// The clock a minute ahead: the folders are settled.
	now := time.Now().Add(time.Minute)
	var kept KeptFolders
	trustedFind(t, dir, true, "cold", now, &kept)
	const name = "projects/p1/s1/tool-results"
	var tr *TrustedFolders
	var ents []fs.DirEntry
	list := func(info bool) {
		tr = NewTrustedFolders(dir, kept, now)
		var err error
		ents, err = fs.ReadDir(ListOnce(TrustingFS(HomeFS(dir), tr)), name)
		if err != nil {
			t.Fatal(err)
		}
		if info {
			for _, e := range ents {
				if _, err := e.Info(); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	names := testing.AllocsPerRun(3, func() { list(false) })
	if trusted, lists := tr.Counts(); trusted == 0 || lists != 0 || len(ents) != n || ents[5].Name() != "t005.txt" || ents[5].IsDir() {
		t.Fatalf("%d trusted, %d listed, %d entries", trusted, lists, len(ents))
	}
	infos := testing.AllocsPerRun(3, func() { list(true) })
	info, err := ents[5].Info()
	if err != nil || info.Name() != "t005.txt" || info.Size() != 1 {
		t.Fatalf("info %v, %v", info, err)
	}
	t.Logf("%.0f allocations listed, %.0f with each entry's information", names, infos)
	// Per entry, listed: 1.1 (it was 5.1: the kept entry, its closure,
	// its path joined, the ListOnce wrapper); with each one's
	// information 5.1 (it was 7.1).
	if per := names / n; per > 2 {
		t.Errorf("%.2f allocations an entry listed, want at most 2", per)
	}
	if per := infos / n; per > 6 {
		t.Errorf("%.2f allocations an entry with its information, want at most 6", per)
	}
}

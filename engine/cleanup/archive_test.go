package cleanup

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/memscope/memscope/engine/internal/enginetest"
	"github.com/memscope/memscope/engine/inventory"
	"github.com/memscope/memscope/model"
)

// realTranscript reads one of the real transcripts (testdata's copies).
func realTranscript(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(enginetest.RealDir, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// oldFiles are the files of archiveHome older than 30 days: what the next
// sweep deletes and so what the default archive copies.
var oldFiles = []string{
	"projects/-home-me-app/11111111-1111-4111-8111-111111111111.jsonl",
	"projects/-home-me-app/11111111-1111-4111-8111-111111111111/subagents/agent-a1.jsonl",
	"projects/-home-me-app/11111111-1111-4111-8111-111111111111/tool-results/toolu_1.txt",
	"paste-cache/" + pasteA + ".txt",
	"file-history/11111111-1111-4111-8111-111111111111/0123456789abcdef@v1",
	"file-history/11111111-1111-4111-8111-111111111111/0123456789abcdef@v2",
	"todos/t.json",
}

// archiveHome is a home with real transcripts: an old session (with its
// folder, a paste and file history) and a young one, memory and history.
func archiveHome(t *testing.T) *model.Home {
	old := 40 * day
	files := map[string]rfile{
		"history.jsonl": {historyLine("p", hashed("1", pasteA)), 0},
		"projects/-home-me-app/11111111-1111-4111-8111-111111111111.jsonl":                    {realTranscript(t, "transcript-partial-compactions.jsonl"), old},
		"projects/-home-me-app/11111111-1111-4111-8111-111111111111/subagents/agent-a1.jsonl": {realTranscript(t, "transcript-interactive-pastes.jsonl"), old + time.Hour},
		"projects/-home-me-app/11111111-1111-4111-8111-111111111111/tool-results/toolu_1.txt": {strings.Repeat("result line\n", 5000), old},
		"projects/-home-me-app/22222222-2222-4222-8222-222222222222.jsonl":                    {realTranscript(t, "transcript-interactive-pastes.jsonl"), day},
		"projects/-home-me-app/memory/MEMORY.md":                                              {"- [a](a.md) — a\n", old},
		"paste-cache/" + pasteA + ".txt":                                                      {"a paste", old},
		"paste-cache/" + pasteB + ".txt":                                                      {"young paste", day},
		"file-history/11111111-1111-4111-8111-111111111111/0123456789abcdef@v1":               {"v1", day},
		"file-history/11111111-1111-4111-8111-111111111111/0123456789abcdef@v2":               {"v2", day},
		"todos/t.json": {"[]", old},
	}
	h := retentionHome(t, files, map[string]time.Duration{"file-history/11111111-1111-4111-8111-111111111111": old})
	// One transcript keeps the client's 0600; the file-history copy 0644.
	os.Chmod(h.Abs("file-history/11111111-1111-4111-8111-111111111111/0123456789abcdef@v2"), 0o644)
	return h
}

// fileState is what must survive a copy: bytes, mode and mtime.
type fileState struct {
	sum  string
	mode fs.FileMode
	mod  time.Time
}

// snapshotTree records every file and folder under dir.
func snapshotTree(t *testing.T, dir string) map[string]fileState {
	t.Helper()
	out := map[string]fileState{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		info, err := d.Info()
		if err != nil {
			return err
		}
		st := fileState{mode: info.Mode(), mod: info.ModTime()}
		if !d.IsDir() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			sum := sha256.Sum256(b)
			st.sum = hex.EncodeToString(sum[:])
		}
		out[filepath.ToSlash(rel)] = st
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func defaultSelection(t *testing.T, h *model.Home) []Item {
	t.Helper()
	f := BuildForecast(Options{Home: h, Now: retNow})
	items, err := f.ArchiveSelection(-1)
	if err != nil {
		t.Fatal(err)
	}
	return items
}

// checkCopies asserts that every old file is in the archive with the
// source's bytes, mode and mtime, that the file-history folder kept its
// mtime, and that nothing else was archived.
func checkCopies(t *testing.T, src, arch map[string]fileState) {
	t.Helper()
	var got []string
	for rel, st := range arch {
		if st.sum != "" {
			got = append(got, rel)
		}
	}
	sort.Strings(got)
	want := append([]string(nil), oldFiles...)
	sort.Strings(want)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("archived files =\n%v\nwant\n%v", got, want)
	}
	for _, rel := range oldFiles {
		if a, s := arch[rel], src[rel]; !(a.sum == s.sum && a.mode == s.mode && a.mod.Equal(s.mod)) {
			t.Errorf("%s: archive %+v, source %+v", rel, a, s)
		}
	}
	fh := "file-history/11111111-1111-4111-8111-111111111111"
	if !arch[fh].mod.Equal(src[fh].mod) {
		t.Errorf("file-history folder mtime %s, source %s", arch[fh].mod, src[fh].mod)
	}
}

// sameStat compares the stat figures of what was archived.
func sameStat(t *testing.T, a, b inventory.Report) {
	t.Helper()
	type figures struct {
		Transcripts, Subagents, ToolResults, Records, Boundaries, Micro, PasteFiles int
		Bytes                                                                       int64
		Types                                                                       map[string]int
		Usage                                                                       model.Usage
	}
	fa := figures{a.Transcripts, a.SubagentTranscripts, a.ToolResultFiles, a.Records, a.CompactBoundaries, a.MicrocompactBoundaries, a.Pastes.Files, a.TranscriptBytes, a.RecordTypes, a.Usage}
	fb := figures{b.Transcripts, b.SubagentTranscripts, b.ToolResultFiles, b.Records, b.CompactBoundaries, b.MicrocompactBoundaries, b.Pastes.Files, b.TranscriptBytes, b.RecordTypes, b.Usage}
	if !reflect.DeepEqual(fa, fb) {
		t.Errorf("stat of the archive %+v\nstat of the source %+v", fa, fb)
	}
	if fa.Records == 0 || fa.Transcripts == 0 {
		t.Errorf("stat found nothing: %+v", fa)
	}
}

func TestArchiveFolderRoundTrip(t *testing.T) {
	h := archiveHome(t)
	before := snapshotTree(t, h.Dir)
	to := filepath.Join(t.TempDir(), "archive")
	rep, err := Archive(ArchiveOptions{Home: h, Items: defaultSelection(t, h), To: to})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Format != ArchiveFolder || rep.Copied != len(oldFiles) || rep.Verified != len(oldFiles) || rep.Identical != 0 || len(rep.Problems) != 0 {
		t.Errorf("report: format %s copied %d verified %d identical %d problems %v", rep.Format, rep.Copied, rep.Verified, rep.Identical, rep.Problems)
	}
	arch := snapshotTree(t, to)
	checkCopies(t, before, arch)
	for _, f := range rep.Files {
		if f.SHA256 != before[f.Path].sum || !f.Verified {
			t.Errorf("%s: report sha %s verified %v, source sha %s", f.Path, f.SHA256, f.Verified, before[f.Path].sum)
		}
	}
	if after := snapshotTree(t, h.Dir); !reflect.DeepEqual(before, after) {
		t.Error("the source home changed")
	}

	// Everything archived, stat of the archive = stat of the source's
	// transcripts and pastes.
	all := filepath.Join(t.TempDir(), "all")
	f := BuildForecast(Options{Home: h, Now: retNow})
	items, _ := f.ArchiveSelection(0)
	if _, err := Archive(ArchiveOptions{Home: h, Items: items, To: all}); err != nil {
		t.Fatal(err)
	}
	ah, err := model.OpenHome(all, model.HomeFromFlag)
	if err != nil {
		t.Fatal(err)
	}
	sameStat(t, inventory.Stat(inventory.Options{Home: ah}), inventory.Stat(inventory.Options{Home: h}))
}

func TestArchiveTarRoundTrip(t *testing.T) {
	h := archiveHome(t)
	before := snapshotTree(t, h.Dir)
	to := filepath.Join(t.TempDir(), "old.tar.gz")
	rep, err := Archive(ArchiveOptions{Home: h, Items: defaultSelection(t, h), To: to})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Format != ArchiveTarGz || rep.Verified != len(oldFiles) || rep.Copied != len(oldFiles) {
		t.Errorf("report: format %s copied %d verified %d", rep.Format, rep.Copied, rep.Verified)
	}
	if !model.IsTarHome(to) {
		t.Fatalf("%s is not recognised as a home archive", to)
	}
	ah, closeHome, probs, err := model.OpenTarHome(to)
	if err != nil || len(probs) != 0 {
		t.Fatalf("open: %v %v", err, probs)
	}
	arch := snapshotTree(t, ah.Dir)
	for rel, st := range arch {
		if st.sum != "" {
			st.mode |= 0o200 // extracted read-only on purpose
			arch[rel] = st
		}
	}
	checkCopies(t, before, arch)
	if os.Geteuid() != 0 {
		if err := os.WriteFile(filepath.Join(ah.Dir, "todos", "t.json"), []byte("x"), 0o600); err == nil {
			t.Error("the extracted archive is writable")
		}
	}
	if after := snapshotTree(t, h.Dir); !reflect.DeepEqual(before, after) {
		t.Error("the source home changed")
	}
	if err := closeHome(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(ah.Dir); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("extracted copy not removed: %v", err)
	}

	f := BuildForecast(Options{Home: h, Now: retNow})
	items, _ := f.ArchiveSelection(0)
	allTar := filepath.Join(t.TempDir(), "all.tgz")
	if _, err := Archive(ArchiveOptions{Home: h, Items: items, To: allTar}); err != nil {
		t.Fatal(err)
	}
	all, closeAll, _, err := model.OpenTarHome(allTar)
	if err != nil {
		t.Fatal(err)
	}
	defer closeAll()
	sameStat(t, inventory.Stat(inventory.Options{Home: all}), inventory.Stat(inventory.Options{Home: h}))
}

func TestArchiveIntoExistingFolder(t *testing.T) {
	h := archiveHome(t)
	to := filepath.Join(t.TempDir(), "archive")
	items := defaultSelection(t, h)
	if _, err := Archive(ArchiveOptions{Home: h, Items: items, To: to}); err != nil {
		t.Fatal(err)
	}

	// Again: every file is already there and identical.
	rep, err := Archive(ArchiveOptions{Home: h, Items: items, To: to})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Copied != 0 || rep.Identical != len(oldFiles) || rep.Verified != len(oldFiles) {
		t.Errorf("second run: copied %d identical %d verified %d", rep.Copied, rep.Identical, rep.Verified)
	}

	// A different file in the archive stops everything, even new files.
	changed := filepath.Join(to, "todos", "t.json")
	if err := os.WriteFile(changed, []byte("edited"), 0o600); err != nil {
		t.Fatal(err)
	}
	newRel := "plans/new.md"
	p := h.Abs(newRel)
	os.MkdirAll(filepath.Dir(p), 0o700)
	os.WriteFile(p, []byte("plan"), 0o600)
	mt := retNow.Add(-50 * day)
	os.Chtimes(p, mt, mt)
	before := snapshotTree(t, to)
	_, err = Archive(ArchiveOptions{Home: h, Items: defaultSelection(t, h), To: to})
	var conflict *ArchiveConflictError
	if !errors.As(err, &conflict) || !reflect.DeepEqual(conflict.Paths, []string{"todos/t.json"}) {
		t.Fatalf("err = %v, want a conflict on todos/t.json", err)
	}
	if !strings.Contains(err.Error(), "todos/t.json") || !strings.Contains(err.Error(), "nothing was copied") {
		t.Errorf("unclear error: %v", err)
	}
	if after := snapshotTree(t, to); !reflect.DeepEqual(before, after) {
		t.Error("a refused archive changed the archive folder")
	}
}

func TestArchiveTarNeverOverwrites(t *testing.T) {
	h := archiveHome(t)
	to := filepath.Join(t.TempDir(), "a.tar.gz")
	os.WriteFile(to, []byte("precious"), 0o600)
	_, err := Archive(ArchiveOptions{Home: h, Items: defaultSelection(t, h), To: to})
	if err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Fatalf("err = %v, want a refusal", err)
	}
	if b, _ := os.ReadFile(to); string(b) != "precious" {
		t.Errorf("existing file became %q", b)
	}
	left, _ := filepath.Glob(filepath.Join(filepath.Dir(to), ".*memscope-*"))
	if len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

func TestArchiveSelection(t *testing.T) {
	h := archiveHome(t)
	zero := 0
	f := BuildForecast(Options{Home: h, Now: retNow, Days: &zero})
	if _, err := f.ArchiveSelection(-1); err == nil || !strings.Contains(err.Error(), "--older-than") {
		t.Errorf("disabled sweep: err = %v, want advice to use --older-than", err)
	}
	tests := []struct {
		olderThan int
		want      int
	}{{0, 8}, {2, 6}, {39, 6}, {40, 1}, {41, 0}}
	for _, tt := range tests {
		items, err := f.ArchiveSelection(tt.olderThan)
		if err != nil || len(items) != tt.want {
			t.Errorf("older than %d: %d items (%v), want %d", tt.olderThan, len(items), err, tt.want)
		}
	}
}

// The client may sweep a file between the forecast and the archive: it is
// reported, and everything else is archived.
func TestArchiveFileGoneSinceTheForecast(t *testing.T) {
	for _, dest := range []string{"arch", "arch.tar.gz"} {
		t.Run(dest, func(t *testing.T) {
			h := archiveHome(t)
			items := defaultSelection(t, h)
			if err := os.Remove(h.Abs("todos/t.json")); err != nil {
				t.Fatal(err)
			}
			rep, err := Archive(ArchiveOptions{Home: h, Items: items, To: filepath.Join(t.TempDir(), dest)})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Verified != len(oldFiles)-1 || len(rep.Problems) != 1 || rep.Problems[0].File != "todos/t.json" {
				t.Errorf("verified %d problems %+v; want %d and todos/t.json", rep.Verified, rep.Problems, len(oldFiles)-1)
			}
		})
	}
}

package ui

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestWatchSetStatsOnlyLinks: the watch set's listing of the file-history
// and memory folders stats only the entries whose type the listing does
// not give (links), not every file (on the code before, with the same
// count put in its two os.Stat calls, each of the 11 entries of the
// memory and file-history folders here, W's 2 430 memory files);
// the folders watched are the ones a stat of each name found: linked
// folders in, files, links to files and hidden memory folders out.
func TestWatchSetStatsOnlyLinks(t *testing.T) {
	home := t.TempDir()
	mkdir := func(rel string) {
		if err := os.MkdirAll(filepath.Join(home, rel), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(rel string) {
		mkdir(filepath.Dir(rel))
		if err := os.WriteFile(filepath.Join(home, rel), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	link := func(target, rel string) {
		if err := os.Symlink(target, filepath.Join(home, rel)); err != nil {
			t.Fatal(err)
		}
	}
	mkdir("file-history/s1")
	mkdir("file-history/.s2")
	write("file-history/stray.txt")
	mem := "projects/-w-app/memory"
	for _, f := range []string{"a.md", "b.md", "c.md", "MEMORY.md"} {
		write(mem + "/" + f)
	}
	mkdir(mem + "/team")
	mkdir(mem + "/.hidden")
	mkdir("elsewhere")
	link("../../../elsewhere", mem+"/linked")
	link("a.md", mem+"/alias.md")
	mkdir("projects/-w-app/s1/subagents")
	write("projects/-w-app/s1.jsonl")

	var stats []string
	old := watchStat
	watchStat = func(name string) (os.FileInfo, error) {
		stats = append(stats, name)
		return os.Stat(name)
	}
	defer func() { watchStat = old }()
	msg := startWatchCmd(home)().(watchStartedMsg)
	if msg.err != nil {
		t.Fatal(msg.err)
	}
	watched := msg.w.w.WatchList()
	msg.w.w.Close()
	<-msg.w.done

	j := func(rel string) string { return filepath.Join(home, filepath.FromSlash(rel)) }
	if want := []string{j(mem + "/alias.md"), j(mem + "/linked")}; !slices.Equal(stats, want) {
		t.Errorf("stat'ed %q, want only the links %q", stats, want)
	}
	for _, want := range []string{"file-history/s1", "file-history/.s2", mem, mem + "/team", mem + "/linked", "projects/-w-app/s1", "projects/-w-app/s1/subagents"} {
		if !slices.Contains(watched, j(want)) {
			t.Errorf("%s not watched: %q", want, watched)
		}
	}
	for _, not := range []string{"file-history/stray.txt", mem + "/a.md", mem + "/.hidden", mem + "/alias.md"} {
		if slices.Contains(watched, j(not)) {
			t.Errorf("%s watched", not)
		}
	}
}

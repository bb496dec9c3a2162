package hostilehome

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// noteName is the file name of ManyFiles' i-th note.
func noteName(i int) string { return fmt.Sprintf("note_%07d.md", i) }

// writeManyFiles writes a plain home plus n tiny memory files in its memory
// folder and a MEMORY.md that indexes the first 250 (over the 200-line cap).
func writeManyFiles(w *homeWriter, n int) {
	contentHome(w, " plain text")
	if w.err != nil {
		return
	}
	dir := w.path(w.res.MemoryDir)
	var idx strings.Builder
	idx.WriteString("# Memory index\n")
	for i := 0; i < n && i < 250; i++ {
		fmt.Fprintf(&idx, "- [Note %d](%s) — tiny note %d\n", i, noteName(i), i)
	}
	w.file(w.res.MemoryDir+"/MEMORY.md", []byte(idx.String()))

	// Creating a million files is bound by system calls: a few writers in
	// parallel roughly halve the time on a two-core machine.
	const workers = 4
	var wg sync.WaitGroup
	errs := make([]error, workers)
	for k := 0; k < workers; k++ {
		wg.Add(1)
		go func(k int) {
			defer wg.Done()
			for i := k; i < n; i += workers {
				body := fmt.Sprintf("---\nname: note-%d\ndescription: Tiny note %d\ntype: project\n---\n\nNote %d.\n", i, i, i)
				if err := os.WriteFile(filepath.Join(dir, noteName(i)), []byte(body), 0o644); err != nil {
					errs[k] = fmt.Errorf("write note %d: %w", i, err)
					return
				}
			}
		}(k)
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil && w.err == nil {
			w.err = err
		}
	}
	w.res.MemoryFiles = countTopicFiles(w.res.Files, w.res.MemoryDir) + n
}

// OddNames are the hostile file-name fragments NewlineNames uses.
var OddNames = []string{
	"line\nbreak",
	"tab\tname",
	"esc\x1b[2Jclear",
	"title\x1b]0;PWNED\x07",
	"bell\a",
	"cr\roverwrite",
	"bidi\u202eevil",
	"c1\u009bcsi",
}

// writeOddNames writes a plain home plus memory files, a memory
// sub-folder, a project folder, session transcripts and a paste file whose
// names carry newlines, tabs and escapes.
func writeOddNames(w *homeWriter) {
	contentHome(w, " plain text")
	mem := w.res.MemoryDir
	var idx strings.Builder
	idx.WriteString("# Memory index\n")
	for i, odd := range OddNames {
		name := "odd_" + odd + ".md"
		w.file(mem+"/"+name, memoryFile(fmt.Sprintf("odd-%d", i), "A memory whose file name is odd", "reference", "Body of "+fmt.Sprint(i)))
		w.res.Names = append(w.res.Names, mem+"/"+name)
		if !strings.Contains(name, "\n") {
			// A newline cannot sit in an index line; the file is unindexed.
			fmt.Fprintf(&idx, "- [Odd %d](%s) — odd name\n", i, name)
		}
	}
	sub := mem + "/dir\nname/inner.md"
	w.file(sub, memoryFile("inner", "Inside a folder with a newline in its name", "user", "inner"))
	w.res.Names = append(w.res.Names, sub)
	w.file(mem+"/MEMORY.md", []byte(idx.String()))

	// A session id with a newline: the file name and the records agree.
	oddSession := "sess1on\nbreak-\x1b[2J"
	tr := "projects/" + w.res.Slug + "/" + oddSession + ".jsonl"
	w.jsonl(tr, transcriptRecords(oddSession, ProjectPath, " odd session")...)
	w.res.Names = append(w.res.Names, tr)

	// A project folder whose name is not a slug at all.
	oddCwd := "/home/me/new\nline\x1b]0;PWNED\x07"
	folder := "projects/-home-me-new\nline\x1b]0;PWNED\x07"
	otr := folder + "/" + uuidN(77) + ".jsonl"
	w.jsonl(otr, transcriptRecords(uuidN(77), oddCwd, " odd folder")...)
	w.file(folder+"/memory/MEMORY.md", []byte("- [A](a\tb.md) — tab link\n"))
	w.file(folder+"/memory/a\tb.md", memoryFile("a-b", "tab in name", "user", "tab"))
	w.res.Names = append(w.res.Names, otr, folder+"/memory/a\tb.md")

	paste := "paste-cache/evil\nname\x1b[2J.txt"
	w.file(paste, []byte("a paste with an odd name\n"))
	w.res.Names = append(w.res.Names, paste)
}

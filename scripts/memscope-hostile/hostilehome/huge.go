package hostilehome

import (
	"fmt"
	"os"
	"strings"
)

// DefaultHugeSize is Huge's default run of NUL bytes: what a power loss
// can leave at the end of a file being appended to.
const DefaultHugeSize = 1 << 30

// writeHuge writes a content home where a run of size NUL bytes (sparse
// on disk, so a gigabyte costs nothing) is a line of the main transcript
// and of history.jsonl, the whole of MEMORY.md, a memory file's body, a
// cached paste, CLAUDE.md and a tool result; and a memory file whose
// frontmatter nests depth levels deep. Lines after the NUL runs must still
// be read.
func writeHuge(w *homeWriter, size int64, depth int) {
	contentHome(w, " plain text")
	mem := w.res.MemoryDir
	after := string(w.marshal(with(chain(11, uuidN(8), w.res.SessionID, w.res.Project), "type", "user", "message", map[string]any{"role": "user", "content": "after the NUL line"})))
	w.sparse(w.res.Transcript, size, "\n"+after+"\n")
	w.res.BadTranscriptLines++
	hafter := string(w.marshal(historyLine(9, "after the NUL line", ProjectPath, SessionID, map[string]any{})))
	w.sparse("history.jsonl", size, "\n"+hafter+"\n")
	w.res.HistoryLines++
	w.res.BadHistoryLines++
	w.replaceSparse(mem+"/MEMORY.md", size)
	w.replaceSparse("CLAUDE.md", size)
	w.replaceSparse(w.res.Paste, size)
	w.replaceSparse("projects/"+w.res.Slug+"/"+SessionID+"/tool-results/toolu_01.txt", size)
	w.file(mem+"/nul_body.md", memoryFile("nul-body", "A memory whose body is NUL bytes", "project", ""))
	w.sparse(mem+"/nul_body.md", size, "")
	var deep strings.Builder
	deep.WriteString("---\nname: deep\ndescription: nested frontmatter\n")
	for i := 0; i < depth; i++ {
		deep.WriteString(strings.Repeat(" ", i) + "k:\n")
	}
	deep.WriteString("---\n\nbody\n")
	w.file(mem+"/deep_yaml.md", []byte(deep.String()))
}

// sparse appends a hole of n bytes (read as NUL bytes) and then tail to
// rel, which exists.
func (w *homeWriter) sparse(rel string, n int64, tail string) {
	if w.err != nil {
		return
	}
	p := w.path(rel)
	st, err := os.Stat(p)
	if err == nil {
		err = os.Truncate(p, st.Size()+n)
	}
	if err == nil && tail != "" {
		var f *os.File
		if f, err = os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0); err == nil {
			_, err = f.WriteString(tail)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}
	}
	if err != nil {
		w.err = fmt.Errorf("sparse %s: %w", rel, err)
	}
}

// replaceSparse makes rel an n-byte run of NUL bytes.
func (w *homeWriter) replaceSparse(rel string, n int64) {
	if w.err != nil {
		return
	}
	if err := os.Truncate(w.path(rel), 0); err != nil {
		w.err = fmt.Errorf("sparse %s: %w", rel, err)
		return
	}
	w.sparse(rel, n, "")
}

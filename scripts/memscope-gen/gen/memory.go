package gen

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"
)

// Index caps of MEMORY.md (FORMATS.md): lines and characters.
const (
	indexMaxLines = 200
	indexMaxChars = 25000
)

var memoryTypes = []string{"user", "feedback", "project", "reference"}

// MemoryStats is what the generator wrote to one project's memory folder.
type MemoryStats struct {
	Dir string `json:"dir"`
	// Files counts topic files (MEMORY.md not included).
	Files int `json:"files"`
	// NestedType and FlatType count the two frontmatter forms; Untyped
	// files have a type memscope does not know.
	NestedType int `json:"nestedType"`
	FlatType   int `json:"flatType"`
	Untyped    int `json:"untyped"`
	// IndexLines and IndexChars measure MEMORY.md after trimming (chars as
	// UTF-16 units; all generated text is in the Basic Multilingual Plane).
	IndexLines     int  `json:"indexLines"`
	IndexChars     int  `json:"indexChars"`
	IndexOverLines bool `json:"indexOverLines"`
	IndexOverChars bool `json:"indexOverChars"`
}

// writeMemory writes n typed memory files and a MEMORY.md index for
// project number idx. Some indexes go over the line cap, some over the
// character cap, as heavy users' do.
func writeMemory(home, slug string, idx, n int, now time.Time, seed uint64) (MemoryStats, error) {
	r := rand.New(rand.NewPCG(seed, uint64(idx)<<8|0x3e))
	rel := path.Join("projects", slug, "memory")
	dir := filepath.Join(home, filepath.FromSlash(rel))
	st := MemoryStats{Dir: rel}
	var index strings.Builder
	index.WriteString("# Memory index\n\n")
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("%s-%s-%d", words[r.IntN(len(words))], words[r.IntN(len(words))], i)
	}
	longHooks := idx%5 == 3
	for i := 0; i < n; i++ {
		typ := memoryTypes[i%len(memoryTypes)]
		file := strings.ReplaceAll(names[i], "-", "_") + ".md"
		if i%20 == 7 {
			file = "notes/" + file
		}
		desc := sentence(r, 4+r.IntN(10))
		var fm string
		switch {
		case i%17 == 5:
			fm = fmt.Sprintf("name: %s\ndescription: %s\ntype: scratch\n", names[i], desc)
			st.Untyped++
		case i%3 == 0:
			fm = fmt.Sprintf("name: %s\ndescription: %s\ntype: %s\n", names[i], desc, typ)
			st.FlatType++
		default:
			modified := now.Add(-time.Duration(r.IntN(90*24)) * time.Hour)
			fm = fmt.Sprintf("name: %s\ndescription: %s\nmetadata:\n  node_type: memory\n  type: %s\n  originSessionId: %s\n  modified: %s\n", names[i], desc, typ, newUUID(r), isoMillis(modified))
			st.NestedType++
		}
		body := plainText(r, 200+r.IntN(2500))
		if typ == "feedback" || typ == "project" {
			body = fmt.Sprintf("%s\n\n**Why:** %s\n\n**How to apply:** %s\n", body, sentence(r, 12), sentence(r, 14))
		}
		if i%9 == 4 {
			body += fmt.Sprintf("\nSee [[%s]].\n", names[r.IntN(n)])
		}
		if i%40 == 13 {
			body += plainText(r, 4200)
		}
		p := filepath.Join(dir, filepath.FromSlash(file))
		if err := writeFileMkdir(p, []byte("---\n"+fm+"---\n\n"+body)); err != nil {
			return st, err
		}
		age := time.Duration(r.IntN(120*24)) * time.Hour
		if err := os.Chtimes(p, now.Add(-age), now.Add(-age)); err != nil {
			return st, fmt.Errorf("set mtime of %s: %w", p, err)
		}
		st.Files++
		hook := sentence(r, 5+r.IntN(8))
		if longHooks {
			hook += " " + sentence(r, 50)
		}
		fmt.Fprintf(&index, "- [%s](%s) — %s\n", names[i], file, hook)
	}
	if idx%5 == 1 {
		for i := 0; i < 170; i++ {
			fmt.Fprintf(&index, "- %s\n", sentence(r, 6))
		}
	}
	text := index.String()
	if err := writeFileMkdir(filepath.Join(dir, "MEMORY.md"), []byte(text)); err != nil {
		return st, err
	}
	trimmed := strings.TrimSpace(text)
	st.IndexLines = strings.Count(trimmed, "\n") + 1
	st.IndexChars = utf8.RuneCountInString(trimmed)
	st.IndexOverLines = st.IndexLines > indexMaxLines
	st.IndexOverChars = st.IndexChars > indexMaxChars
	return st, nil
}

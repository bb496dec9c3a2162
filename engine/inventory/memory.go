package inventory

import (
	"io/fs"
	"strings"

	"github.com/memscope/memscope/model"
)

// MemoryCount is how many memory files a memory folder holds, and their
// size: THE count every pane and command shows (Projects' MEMORY column,
// the Memories pane's rows, stat's topic files). A memory file is a topic
// file by the client's rule (model.IsMemoryTopicPath): a *.md file other
// than MEMORY.md, outside team/, logs/, sessions/, proposals/ and hidden
// folders. MEMORY.md itself, daily logs and other files are not counted.
type MemoryCount struct {
	Files int   `json:"files"`
	Bytes int64 `json:"bytes"`
}

// CountMemory counts the memory files of the memory folder dir (an fs
// name) without reading them: only their names and sizes. A missing or
// unreadable folder counts nothing. A memory file that cannot be read
// is counted (and reported as a problem by the readers, which list only
// what they could read).
func CountMemory(fsys fs.FS, dir string) MemoryCount {
	var c MemoryCount
	// The prefix is made once: made for each entry, it was a string on
	// the heap for each of a warm start's some 2 500 memory files on W.
	prefix := dir + "/"
	fs.WalkDir(fsys, dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == dir {
			return nil
		}
		rel := strings.TrimPrefix(p, prefix)
		if d.IsDir() {
			// A folder no topic file can be in is not walked.
			if !model.IsMemoryTopicPath(rel + "/x.md") {
				return fs.SkipDir
			}
			return nil
		}
		if !model.IsMemoryTopicPath(rel) {
			return nil
		}
		info, err := followedInfo(fsys, p, d)
		if err != nil || !info.Mode().IsRegular() {
			// A link to a folder, a pipe or a device is not a memory
			// (the readers refuse them too).
			return nil
		}
		c.Files++
		c.Bytes += info.Size()
		return nil
	})
	return c
}

// followedInfo is fs.Stat(fsys, name) for the entry d the walk listed:
// an entry that is not a symbolic link is what it is, so its own Info
// (one lstat by the listed folder's path) answers, and only a link is
// looked up through the file system, which follows it by the home's
// rule. A cold stat counts some 2 400 memory files: the lookup through a
// home is three system calls a name (issue 28).
func followedInfo(fsys fs.FS, name string, d fs.DirEntry) (fs.FileInfo, error) {
	if d.Type()&fs.ModeSymlink == 0 {
		return d.Info()
	}
	return fs.Stat(fsys, name)
}

package model

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode/utf8"
)

// MemoryDir is a memory folder as read from disk: the MEMORY.md index and
// the typed topic files beside it.
type MemoryDir struct {
	// Dir is the folder's fs name.
	Dir string `json:"dir"`
	// Exists is false when the folder is missing (not an error: a project
	// may have no memory yet).
	Exists bool `json:"exists"`
	// Index is MEMORY.md, nil when there is none.
	Index        *MemoryIndex `json:"-"`
	IndexSize    int64        `json:"indexSize,omitempty"`
	IndexModTime time.Time    `json:"indexMtime,omitzero"`
	// IndexPartial is set when MEMORY.md is larger than memscope reads
	// whole (MaxDocumentBytes): Index then holds its first
	// MaxIndexHeadBytes, more than the client loads (200 lines, 25 000
	// characters), IndexSize is the file's size, and nothing may rewrite
	// it from Index.
	IndexPartial bool `json:"indexPartial,omitempty"`
	// IndexUnread says why a MEMORY.md that is there was not read ("is a
	// named pipe, not a regular file", a permission error): Index is then
	// nil, and nothing may write a MEMORY.md over what is there.
	IndexUnread string `json:"indexUnread,omitempty"`
	// IndexListed is set by ListMemoryDir when there is a MEMORY.md.
	IndexListed bool `json:"-"`
	// Files are the topic files, sorted by path.
	Files []*MemoryFile `json:"files"`
	// Other lists files that are not memory files (not *.md), by path.
	Other []string `json:"other,omitempty"`
}

// skippedMemoryFolders are top-level folders of a memory folder that hold
// something other than topic files.
var skippedMemoryFolders = map[string]bool{"team": true, "logs": true, "sessions": true, "proposals": true}

// IsMemoryTopicPath reports whether rel (a slash path relative to a memory
// folder) is a topic file by the client's rules: a *.md file, not
// MEMORY.md, not under team/, logs/, sessions/ or proposals/, and no path
// segment starting with ".".
func IsMemoryTopicPath(rel string) bool {
	if !strings.HasSuffix(rel, ".md") || path.Base(rel) == MemoryIndexName {
		return false
	}
	segs := strings.Split(rel, "/")
	if len(segs) > 1 && skippedMemoryFolders[segs[0]] {
		return false
	}
	for _, s := range segs {
		if strings.HasPrefix(s, ".") {
			return false
		}
	}
	return true
}

// ReadMemoryDir reads the memory folder dir (an fs name) of fsys. Files
// that cannot be read or have bad frontmatter are reported; a file with
// bad frontmatter is still listed, marked Invalid.
func ReadMemoryDir(fsys fs.FS, dir string) (*MemoryDir, []Problem) {
	return readMemoryDir(fsys, dir, nil, false)
}

// ListMemoryDir lists dir as ReadMemoryDir reads it, by the same rules,
// without reading a file: each topic file (a regular file; any other
// kind is a problem, as ReadMemoryDir reports) has only its Path, Size and
// ModTime, and Index is nil (IndexListed says there is a MEMORY.md, with
// its IndexSize and IndexModTime). A search, which reads each file
// itself, lists a folder of thousands of memories in the time of a walk.
func ListMemoryDir(fsys fs.FS, dir string) (*MemoryDir, []Problem) {
	return readMemoryDir(fsys, dir, nil, true)
}

// ScanMemoryDir reads dir as ReadMemoryDir does but hands each topic file
// to each instead of keeping it: md.Files stays empty, so a folder of a
// million memories is counted in the memory of one (memscope stat).
func ScanMemoryDir(fsys fs.FS, dir string, each func(*MemoryFile)) (*MemoryDir, []Problem) {
	return readMemoryDir(fsys, dir, each, false)
}

func readMemoryDir(fsys fs.FS, dir string, each func(*MemoryFile), list bool) (*MemoryDir, []Problem) {
	md := &MemoryDir{Dir: dir}
	st, err := fs.Stat(fsys, dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return md, nil
	case err != nil:
		return md, []Problem{{File: dir, Kind: ProblemUnreadable, Reason: fmt.Sprintf("read memory folder: %v", err)}}
	case !st.IsDir():
		return md, []Problem{{File: dir, Kind: ProblemUnreadable, Reason: "memory folder is not a folder"}}
	}
	md.Exists = true
	var probs []Problem
	// The files at the top of a held home's memory folder are opened by
	// their bare names from one descriptor of it (readHeldMemoryFile).
	var held heldFolder
	direct := false
	if !list {
		if held, direct = openHeldFolder(fsys, dir); direct {
			defer held.close()
		}
	}
	walkErr := fs.WalkDir(fsys, dir, func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			probs = append(probs, Problem{File: name, Kind: ProblemUnreadable, Reason: fmt.Sprintf("read memory folder: %v", err)})
			if d != nil && d.IsDir() && name != dir {
				return fs.SkipDir
			}
			return nil
		}
		if name == dir {
			return nil
		}
		rel := strings.TrimPrefix(name, dir+"/")
		if dir == "." {
			rel = name
		}
		if d.IsDir() {
			if strings.HasPrefix(d.Name(), ".") || !strings.Contains(rel, "/") && skippedMemoryFolders[rel] {
				return fs.SkipDir
			}
			return nil
		}
		switch {
		case rel == MemoryIndexName && list:
			if st, err := fs.Stat(fsys, name); err == nil {
				md.IndexListed, md.IndexSize, md.IndexModTime = true, st.Size(), st.ModTime()
			} else {
				probs = append(probs, Problem{File: name, Kind: ProblemUnreadable, Reason: fmt.Sprintf("read MEMORY.md: %v", err)})
			}
		case rel == MemoryIndexName:
			probs = append(probs, md.readIndex(fsys, name)...)
		case IsMemoryTopicPath(rel):
			if d.Type()&fs.ModeSymlink != 0 {
				if st, err := fs.Stat(fsys, name); err == nil && st.IsDir() {
					probs = append(probs, Problem{File: name, Kind: ProblemUnreadable, Reason: "symbolic link to a folder: not followed"})
					return nil
				}
			}
			if list {
				if st, err := fs.Stat(fsys, name); err != nil || !st.Mode().IsRegular() {
					if err == nil {
						err = notRegular("open", name, st.Mode())
					}
					probs = append(probs, Problem{File: name, Kind: ProblemUnreadable, Reason: fmt.Sprintf("read memory file: %v", err)})
				} else {
					md.Files = append(md.Files, &MemoryFile{Path: rel, Size: st.Size(), ModTime: st.ModTime(), Symlink: d.Type()&fs.ModeSymlink != 0})
				}
				return nil
			}
			f, prob := readTopic(fsys, d, held, direct, name, rel, each == nil)
			if prob != nil {
				probs = append(probs, *prob)
			}
			if f != nil {
				f.Symlink = d.Type()&fs.ModeSymlink != 0
				probs = append(probs, encodingProblem(name, f.raw)...)
				if each != nil {
					each(f)
				} else {
					md.Files = append(md.Files, f)
				}
			}
		case !strings.HasPrefix(path.Base(rel), "."):
			md.Other = append(md.Other, rel)
		}
		return nil
	})
	if walkErr != nil {
		probs = append(probs, Problem{File: dir, Kind: ProblemUnreadable, Reason: fmt.Sprintf("read memory folder: %v", walkErr)})
	}
	sort.Slice(md.Files, func(i, j int) bool { return md.Files[i].Path < md.Files[j].Path })
	return md, probs
}

// readTopic reads the topic file name (rel in its folder) a memory
// folder's walk found as d: an unchanged regular file another read of it
// parsed from the memo (memdir_memo.go), opened no more; else by its bare
// name from the held folder when direct, else through fsys. keep says
// the file read is kept in the memo (not by a scan).
func readTopic(fsys fs.FS, d fs.DirEntry, held heldFolder, direct bool, name, rel string, keep bool) (f *MemoryFile, prob *Problem) {
	var id memoID
	var claim *memoEntry
	if d.Type().IsRegular() {
		if info, err := d.Info(); err == nil {
			if key, stamp, ok := memoKey(info, rel); ok {
				id = key
				if raw := memoTakeBytes(id, stamp, !keep); raw != nil {
					// Read by another reader (memdir_share.go): parsed
					// here, kept parsed by a read that keeps (a file
					// with a problem stays kept as bytes).
					f, prob = parseKept(name, rel, raw, stamp.mtime)
					if keep && prob == nil {
						if _, c := memoClaim(id, stamp, true); c != nil {
							memoDone(id, c, f)
						}
					}
					return f, prob
				}
				if f, claim = memoClaim(id, stamp, keep); f != nil {
					return f, nil
				}
			}
		}
	}
	if claim != nil {
		defer func() {
			if prob != nil {
				memoDoneUnparsed(id, claim, f)
				return
			}
			memoDone(id, claim, f)
		}()
	}
	ok := false
	if direct && d.Type().IsRegular() {
		f, prob, ok = readHeldMemoryFile(held, name, rel)
	}
	if !ok {
		f, prob = ReadMemoryFile(fsys, name, rel)
	}
	return f, prob
}

// memoIndexRel is the memo's path of a folder's MEMORY.md (its bytes,
// parsed again by each reader, which may edit what it parsed): no topic
// file's path holds a NUL.
const memoIndexRel = "\x00" + MemoryIndexName

// readIndexBytes reads MEMORY.md (name, as st, a stat of it, shows it)
// whole, from the memo when another read of it found it unchanged.
func readIndexBytes(fsys fs.FS, name string, st fs.FileInfo) (data []byte, err error) {
	var claim *memoEntry
	id, stamp, ok := memoKey(st, memoIndexRel)
	if ok {
		var f *MemoryFile
		if f, claim = memoClaim(id, stamp, true); f != nil {
			return f.raw, nil
		}
	}
	if claim != nil {
		defer func() {
			var kept *MemoryFile
			if err == nil {
				kept = &MemoryFile{raw: data, Size: int64(len(data)), ModTime: st.ModTime()}
			}
			memoDone(id, claim, kept)
		}()
	}
	return ReadFileBounded(fsys, name, MaxDocumentBytes)
}

func (md *MemoryDir) readIndex(fsys fs.FS, name string) []Problem {
	st, err := fs.Stat(fsys, name)
	if err == nil && st.Mode().IsRegular() && st.Size() > MaxDocumentBytes {
		return md.readIndexHead(fsys, name, st)
	}
	var data []byte
	if err == nil {
		data, err = readIndexBytes(fsys, name, st)
	}
	if err != nil {
		md.IndexUnread = unreadReason(err)
		return []Problem{{File: name, Kind: ProblemUnreadable, Reason: fmt.Sprintf("read MEMORY.md: %v", err)}}
	}
	md.Index, md.IndexSize, md.IndexModTime = ParseMemoryIndex(data), int64(len(data)), st.ModTime()
	return encodingProblem(name, data)
}

// unreadReason is why a file that is there was not read: the error
// without the operation and path an fs.PathError puts before it.
func unreadReason(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// readIndexHead reads the head of a MEMORY.md too large to read whole:
// the client loads no more of it, so what it loads can still be shown.
func (md *MemoryDir) readIndexHead(fsys fs.FS, name string, st fs.FileInfo) []Problem {
	f, err := OpenRegular(fsys, name)
	if err != nil {
		return []Problem{{File: name, Kind: ProblemUnreadable, Reason: fmt.Sprintf("read MEMORY.md: %v", err)}}
	}
	defer f.Close()
	head := make([]byte, MaxIndexHeadBytes)
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
		return []Problem{{File: name, Kind: ProblemUnreadable, Reason: fmt.Sprintf("read MEMORY.md: %v", err)}}
	}
	head = head[:n]
	// Whole lines only: the line cut by the read is not the file's.
	if i := bytes.LastIndexByte(head, '\n'); i >= 0 {
		head = head[:i+1]
	}
	md.Index, md.IndexSize, md.IndexModTime, md.IndexPartial = ParseMemoryIndex(head), st.Size(), st.ModTime(), true
	return append(encodingProblem(name, head), Problem{File: name, Kind: ProblemTooLarge, Reason: fmt.Sprintf(
		"MEMORY.md is %s, more than the %s memscope reads whole: only its first %s were read (the client loads 200 lines or 25 000 characters of it), and memscope will not rewrite it",
		sizeText(st.Size()), sizeText(MaxDocumentBytes), sizeText(int64(len(head))))})
}

// encodingProblem reports the first line of data that is not valid UTF-8.
// The text is kept as it is; the client would see U+FFFD there.
func encodingProblem(name string, data []byte) []Problem {
	if utf8.Valid(data) {
		return nil
	}
	for n, off := 1, 0; off < len(data); n++ {
		end := bytes.IndexByte(data[off:], '\n')
		if end < 0 {
			end = len(data) - off
		}
		if !utf8.Valid(data[off : off+end]) {
			return []Problem{{File: name, Line: n, Kind: ProblemEncoding, Reason: "text is not valid UTF-8 (kept as is)"}}
		}
		off += end + 1
	}
	return nil
}

// File returns the topic file at rel, or nil.
func (md *MemoryDir) File(rel string) *MemoryFile {
	// Files are sorted by path: search first, so callers that look up
	// every file stay linear in a folder of a million files.
	if i, ok := slices.BinarySearchFunc(md.Files, rel, func(f *MemoryFile, rel string) int { return strings.Compare(f.Path, rel) }); ok {
		return md.Files[i]
	}
	// A folder built by hand may not be sorted.
	for _, f := range md.Files {
		if f.Path == rel {
			return f
		}
	}
	return nil
}

package model

import (
	"bytes"
	"io/fs"
	"sort"
	"strings"
	"testing"
	"testing/fstest"
)

// fuzzMemoryFS builds a memory folder "mem" from fuzz bytes: records
// "name\x00content\x00" (the last content may lack its NUL). Names that
// are not valid fs paths, or that would make a file and a folder of the
// same path, are skipped. It returns the files written, by path relative
// to the folder.
func fuzzMemoryFS(data []byte) (fstest.MapFS, map[string][]byte) {
	fsys := fstest.MapFS{}
	files := map[string][]byte{}
	parts := bytes.Split(data, []byte{0})
	for i := 0; i+1 < len(parts); i += 2 {
		rel := string(parts[i])
		full := "mem/" + rel
		if rel == "" || !fs.ValidPath(full) || clashes(files, rel) {
			continue
		}
		files[rel] = parts[i+1]
		fsys[full] = &fstest.MapFile{Data: parts[i+1], Mode: 0o644}
	}
	if len(files) == 0 {
		fsys["mem"] = &fstest.MapFile{Mode: fs.ModeDir | 0o755}
	}
	return fsys, files
}

// clashes reports whether rel would be a file inside an existing file, or
// a file where an existing file needs a folder.
func clashes(files map[string][]byte, rel string) bool {
	for other := range files {
		if strings.HasPrefix(rel, other+"/") || strings.HasPrefix(other, rel+"/") {
			return true
		}
	}
	return false
}

// FuzzReadMemoryDir reads fuzzed memory folders and checks: every topic
// file by the client's rules is listed exactly once with its exact bytes
// and size, nothing else is listed, the list is sorted, MEMORY.md is read
// when present, and every problem names a file in the folder (with a line
// for encoding problems).
func FuzzReadMemoryDir(f *testing.F) {
	f.Add([]byte("MEMORY.md\x00- [T](t.md) — hook\n\x00t.md\x00---\nname: t\ndescription: d\ntype: user\n---\n\nBody\n\x00notes.txt\x00x"))
	f.Add([]byte("team/a.md\x00x\x00.hidden/b.md\x00y\x00sub/c.md\x00---\nname: [\n---\n\x00logs/d.md\x00z\x00sub/.e.md\x00q"))
	f.Add([]byte("bad.md\x00\xff\xfe\n\x1b[2J\n\x00MEMORY.md\x00\xef\xbb\xbfline\r\nnext"))
	f.Fuzz(func(t *testing.T, data []byte) {
		fsys, files := fuzzMemoryFS(data)
		md, probs := ReadMemoryDir(fsys, "mem")
		if !md.Exists {
			t.Fatal("an existing folder read as missing")
		}
		want := 0
		for rel, content := range files {
			if !IsMemoryTopicPath(rel) || hiddenOrSkipped(rel) {
				continue
			}
			want++
			mf := md.File(rel)
			if mf == nil {
				t.Fatalf("topic file %q not listed", rel)
			}
			if !bytes.Equal(mf.Raw(), content) || mf.Size != int64(len(content)) {
				t.Fatalf("%q read as %d bytes %q, wrote %d", rel, mf.Size, mf.Raw(), len(content))
			}
		}
		if len(md.Files) != want {
			t.Fatalf("%d files listed, %d topic files written", len(md.Files), want)
		}
		if !sort.SliceIsSorted(md.Files, func(i, j int) bool { return md.Files[i].Path < md.Files[j].Path }) {
			t.Fatal("files not sorted by path")
		}
		for i := 1; i < len(md.Files); i++ {
			if md.Files[i].Path == md.Files[i-1].Path {
				t.Fatalf("%q listed twice", md.Files[i].Path)
			}
		}
		if _, ok := files[MemoryIndexName]; ok != (md.Index != nil) {
			t.Fatalf("MEMORY.md written: %v, index read: %v", ok, md.Index != nil)
		}
		for _, p := range probs {
			if p.File != "mem" && !strings.HasPrefix(p.File, "mem/") {
				t.Fatalf("problem outside the folder: %+v", p)
			}
			if p.Kind == ProblemEncoding && p.Line < 1 {
				t.Fatalf("encoding problem without a line: %+v", p)
			}
		}
	})
}

// hiddenOrSkipped reports whether the walk never enters rel's folders: a
// dot folder anywhere or a skipped top-level folder. IsMemoryTopicPath
// covers the same rules; this is the test's own statement of them.
func hiddenOrSkipped(rel string) bool {
	segs := strings.Split(rel, "/")
	for _, s := range segs[:len(segs)-1] {
		if strings.HasPrefix(s, ".") {
			return true
		}
	}
	return len(segs) > 1 && skippedMemoryFolders[segs[0]]
}

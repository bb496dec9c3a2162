package memindex

import "github.com/memscope/memscope/model"

// OverflowDescription is the description of the topic file prune's
// move-overflow writes, and how it is known again: the file holds the
// lines moved out of MEMORY.md because they were past the load cap.
const OverflowDescription = "Lines moved out of MEMORY.md because they were past the load cap"

// IsOverflowFile reports whether f is a file move-overflow wrote.
func IsOverflowFile(f *model.MemoryFile) bool { return f.Description == OverflowDescription }

// OverflowLinked maps each topic file an overflow file's index lines link
// to the overflow file linking it. Those lines never loaded (that is why
// they were moved), so the files are parked there on purpose: lint does
// not call them orphans, and prune does not put their lines back into
// MEMORY.md, where they would only overflow again.
func OverflowLinked(md *model.MemoryDir) map[string]string {
	out := map[string]string{}
	res := NewResolver(md)
	for _, f := range md.Files {
		if !IsOverflowFile(f) {
			continue
		}
		for _, l := range model.ParseMemoryIndex([]byte(f.Body)).Lines {
			if l.Entry == nil {
				continue
			}
			if rel, ok := res.File(l.Entry); ok && rel != f.Path {
				if _, seen := out[rel]; !seen {
					out[rel] = f.Path
				}
			}
		}
	}
	return out
}

package model

import (
	"io/fs"
	"path"
)

// ReadDirFollowFiles is ReadDirFollow whose regular files (by the
// listing's type; a link is followed as ReadDirFollow does) come without
// their information: Info is nil. It is for a walk that opens each file
// it keeps and takes the file's information from the open (OpenedInfo:
// the fstat that checks it is a regular file), or asks it only for the
// files it may leave unopened: the vault's first sync asked an lstat of
// each of the bench home's 3 616 files while listing them, on one core
// before the workers had files, then an fstat at each open.
func ReadDirFollowFiles(fsys fs.FS, dir string, probs *[]Problem) []Followed {
	ents, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return followListed(fsys, dir, ents, err, probs)
	}
	var files []Followed
	others := make([]fs.DirEntry, 0, len(ents))
	for _, e := range ents {
		if e.Type().IsRegular() {
			files = append(files, Followed{Name: e.Name(), Path: path.Join(dir, e.Name())})
		} else {
			others = append(others, e)
		}
	}
	fol := followListed(fsys, dir, others, nil, probs)
	// Both in the listing's order (by name, as fs.ReadDir gives it).
	out := make([]Followed, 0, len(files)+len(fol))
	i, j := 0, 0
	for i < len(files) || j < len(fol) {
		if j == len(fol) || i < len(files) && files[i].Name < fol[j].Name {
			out = append(out, files[i])
			i++
		} else {
			out = append(out, fol[j])
			j++
		}
	}
	return out
}

package model

import (
	"crypto/sha256"
	"fmt"
	"io"
	"io/fs"
)

// FileStamp says which version of a file something was computed from, so
// that a result kept across runs (memscope's cache) is used only for the
// very bytes it came from. Two stamps of one path are Equal only when the
// size, modification time, change time and inode agree and the file's
// first bytes hash the same. The change time cannot be set back by a
// program (touch -d sets the mtime only) and moves on every write, so a
// file rewritten in place to the same size with its mtime restored is
// still told apart, and where the platform has no change time or inode
// (an fs.FS in memory, another OS) the head hash is what catches it. It
// is plain data: it can be kept across runs.
type FileStamp struct {
	Size int64 `json:"size"`
	// ModTime and ChangeTime are in nanoseconds since 1970; ChangeTime is
	// 0 where the platform does not give it.
	ModTime    int64  `json:"modTime"`
	ChangeTime int64  `json:"changeTime"`
	ID         FileID `json:"id"`
	// Head is the SHA-256 of the first HeadLen bytes (min(size,
	// TailHeadMax)); HeadLen is 0 for a stamp taken from the file's
	// information alone (StampOf).
	Head    [sha256.Size]byte `json:"head"`
	HeadLen int               `json:"headLen"`
}

// StampOf is the stamp of what info describes, without a head hash: for
// files whose name says what they hold (content-addressed pastes) or that
// are too many to open.
func StampOf(info fs.FileInfo) FileStamp {
	return FileStamp{Size: info.Size(), ModTime: info.ModTime().UnixNano(), ChangeTime: changeTimeOf(info), ID: FileIDOf(info)}
}

// StampFile opens the regular file name in fsys and stamps it, head hash
// included (one read of up to TailHeadMax bytes).
// Through ListOnce, a file is stamped once for every caller (Unchanged
// still asks the file itself).
func StampFile(fsys fs.FS, name string) (FileStamp, error) {
	if l, ok := fsys.(*listedFS); ok {
		return l.stamp(name)
	}
	return stampFile(fsys, name)
}

// stampFile is StampFile of fsys itself.
func stampFile(fsys fs.FS, name string) (FileStamp, error) {
	f, err := OpenRegular(fsys, name)
	if err != nil {
		return FileStamp{}, err
	}
	defer f.Close()
	return StampOpened(f, name)
}

// StampOpened stamps f, the file name opened (head hash included), as
// StampFile would, for a reader that stamps the file it opened to read
// before reading it (one open, not two). The head is read with ReadAt,
// so f's offset is where it was; a file without ReadAt is sought back
// to its start.
func StampOpened(f fs.File, name string) (FileStamp, error) {
	info, err := OpenedInfo(f)
	if err != nil {
		return FileStamp{}, fmt.Errorf("stat %s: %w", name, err)
	}
	st := StampOf(info)
	if n := int(min(st.Size, TailHeadMax)); n > 0 {
		h, _, err := hashHead(readerAt(f), n)
		if err == nil {
			err = rewind(f)
		}
		if err != nil {
			return FileStamp{}, fmt.Errorf("read %s: %w", name, err)
		}
		st.Head, st.HeadLen = h, n
	}
	return st, nil
}

// rewind puts a file read through seekReaderAt back at its start.
func rewind(f fs.File) error {
	if _, ok := f.(io.ReaderAt); ok {
		return nil
	}
	sk, ok := f.(io.Seeker)
	if !ok {
		return fs.ErrInvalid
	}
	_, err := sk.Seek(0, io.SeekStart)
	return err
}

// Known says the stamp can vouch for a file on its own, without a head
// hash: the platform gave its change time. (Without it, a rewrite of
// the same size within the mtime's resolution would go unseen.)
func (s FileStamp) Known() bool { return s.ChangeTime != 0 }

// Same says the file's information matches o's: size, mtime, change
// time and inode (the head hashes are not compared).
func (s FileStamp) Same(o FileStamp) bool {
	return s.Size == o.Size && s.ModTime == o.ModTime && s.ChangeTime == o.ChangeTime && s.ID == o.ID
}

// Equal says s and o stamp the same version of a file: Same, and the
// same head hash.
func (s FileStamp) Equal(o FileStamp) bool {
	return s.Same(o) && s.HeadLen == o.HeadLen && s.Head == o.Head
}

// Unchanged says the file name in fsys still has the stamp st (size,
// mtime, change time, inode). A cache checks it after reading a file
// stamped before the read, and keeps what it read only then: a file
// written meanwhile is read again next time.
func Unchanged(fsys fs.FS, name string, st FileStamp) bool {
	info, err := fs.Stat(fsys, name)
	return err == nil && StampOf(info).Same(st)
}

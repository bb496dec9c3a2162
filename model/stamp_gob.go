package model

import (
	"encoding/binary"
	"errors"
)

// stampGobVersion starts a FileStamp's gob form.
const stampGobVersion = 1

// GobEncode writes the stamp as one byte string: its numbers as varints
// and the head hash as 32 bytes when there is one. encoding/gob's own
// form of the struct writes the [32]byte hash byte by byte through
// reflection, and memscope's caches hold a stamp for each of a home's
// some 12 000 transcripts, pastes and backups: decoding them was half of
// a warm start's cache decoding.
func (s FileStamp) GobEncode() ([]byte, error) {
	b := make([]byte, 0, 1+5*binary.MaxVarintLen64+2+len(s.Head))
	b = append(b, stampGobVersion)
	b = binary.AppendVarint(b, s.Size)
	b = binary.AppendVarint(b, s.ModTime)
	b = binary.AppendVarint(b, s.ChangeTime)
	b = binary.AppendUvarint(b, s.ID.Dev)
	b = binary.AppendUvarint(b, s.ID.Ino)
	known := byte(0)
	if s.ID.Known {
		known = 1
	}
	b = append(b, known)
	b = binary.AppendVarint(b, int64(s.HeadLen))
	if s.HeadLen != 0 || s.Head != [len(s.Head)]byte{} {
		b = append(b, s.Head[:]...)
	}
	return b, nil
}

var errStampGob = errors.New("model: a file stamp's gob form is damaged")

// GobDecode reads what GobEncode wrote.
func (s *FileStamp) GobDecode(b []byte) error {
	if len(b) == 0 || b[0] != stampGobVersion {
		return errStampGob
	}
	b = b[1:]
	var out FileStamp
	uvarint := func() uint64 {
		v, n := binary.Uvarint(b)
		if n <= 0 {
			b = nil
			return 0
		}
		b = b[n:]
		return v
	}
	// binary.AppendVarint's zig-zag form, read as an unsigned varint.
	varint := func() int64 {
		u := uvarint()
		return int64(u>>1) ^ -int64(u&1)
	}
	out.Size, out.ModTime, out.ChangeTime = varint(), varint(), varint()
	out.ID.Dev, out.ID.Ino = uvarint(), uvarint()
	if len(b) == 0 || b[0] > 1 {
		return errStampGob
	}
	out.ID.Known = b[0] == 1
	b = b[1:]
	hl := varint()
	if b == nil {
		return errStampGob
	}
	out.HeadLen = int(hl)
	switch len(b) {
	case 0:
	case len(out.Head):
		copy(out.Head[:], b)
	default:
		return errStampGob
	}
	*s = out
	return nil
}

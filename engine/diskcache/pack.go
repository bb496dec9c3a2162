package diskcache

import (
	"encoding/binary"
	"errors"

	"github.com/memscope/memscope/model"
)

// Packer and Unpacker write and read a cache value's packed form (one
// byte string, varints; its strings read back as slices of one string),
// for a value's GobEncode/GobDecode: encoding/gob writes a map of
// entries field by field through reflection, with an allocation or more
// an entry read back (the secrets counts: some 15 000 entries on W, read
// at every warm start; stat's cache, engine/inventory's cache_pack).

// ErrPacked is Unpacker.Done's error for a damaged packed form.
var ErrPacked = errors.New("diskcache: a packed cache value is damaged")

// Packer appends a packed form to B.
type Packer struct{ B []byte }

func (p *Packer) Uint(v uint64) { p.B = binary.AppendUvarint(p.B, v) }
func (p *Packer) Int(v int64)   { p.B = binary.AppendVarint(p.B, v) }

func (p *Packer) Str(s string) {
	p.Uint(uint64(len(s)))
	p.B = append(p.B, s...)
}

func (p *Packer) Bool(v bool) {
	if v {
		p.B = append(p.B, 1)
	} else {
		p.B = append(p.B, 0)
	}
}

// Stamp packs what a FileStamp's GobEncode writes, inline.
func (p *Packer) Stamp(s model.FileStamp) {
	p.Int(s.Size)
	p.Int(s.ModTime)
	p.Int(s.ChangeTime)
	p.Uint(s.ID.Dev)
	p.Uint(s.ID.Ino)
	p.Bool(s.ID.Known)
	p.Int(int64(s.HeadLen))
	hashed := s.HeadLen != 0 || s.Head != [len(s.Head)]byte{}
	p.Bool(hashed)
	if hashed {
		p.B = append(p.B, s.Head[:]...)
	}
}

// Unpacker reads a packed form; its strings are slices of all, the
// whole form as one string (one allocation for every string in it).
type Unpacker struct {
	b   []byte
	all string
	at  int
	bad bool
}

// Start begins reading b, which must start with the byte version.
func (u *Unpacker) Start(b []byte, version byte) { u.start(b, string(b), version) }

// start reads b, whose strings are all's (b's bytes as a string), from
// its version byte on.
func (u *Unpacker) start(b []byte, all string, version byte) {
	u.b, u.all = b, all
	if len(u.all) == 0 || u.all[0] != version {
		u.bad = true
		return
	}
	u.at = 1
}

func (u *Unpacker) Uint() uint64 {
	if u.bad {
		return 0
	}
	v, n := binary.Uvarint(u.b[u.at:])
	if n <= 0 {
		u.bad = true
		return 0
	}
	u.at += n
	return v
}

// Int reads what binary.AppendVarint wrote (zig-zag).
func (u *Unpacker) Int() int64 {
	x := u.Uint()
	return int64(x>>1) ^ -int64(x&1)
}

func (u *Unpacker) Str() string {
	n := u.Uint()
	if u.bad || n > uint64(len(u.all)-u.at) {
		u.bad = true
		return ""
	}
	s := u.all[u.at : u.at+int(n)]
	u.at += int(n)
	return s
}

func (u *Unpacker) Bool() bool {
	if u.bad || u.at >= len(u.all) || u.all[u.at] > 1 {
		u.bad = true
		return false
	}
	u.at++
	return u.all[u.at-1] == 1
}

func (u *Unpacker) Stamp() model.FileStamp {
	var s model.FileStamp
	s.Size, s.ModTime, s.ChangeTime = u.Int(), u.Int(), u.Int()
	s.ID.Dev, s.ID.Ino, s.ID.Known = u.Uint(), u.Uint(), u.Bool()
	s.HeadLen = int(u.Int())
	if u.Bool() {
		if len(u.all)-u.at < len(s.Head) {
			u.bad = true
			return s
		}
		copy(s.Head[:], u.all[u.at:])
		u.at += len(s.Head)
	}
	return s
}

// Count reads a count of items that take at least min bytes each: one
// the rest cannot hold is damage (and is not allocated for).
func (u *Unpacker) Count(min int) int {
	n := u.Uint()
	if u.bad || n > uint64((len(u.all)-u.at)/min) {
		u.bad = true
		return 0
	}
	return int(n)
}

// Done says the whole form was read without damage.
func (u *Unpacker) Done() error {
	if u.bad || u.at != len(u.all) {
		return ErrPacked
	}
	return nil
}

// Bytes packs b as Str packs a string.
func (p *Packer) Bytes(b []byte) {
	p.Uint(uint64(len(b)))
	p.B = append(p.B, b...)
}

// Bytes reads what Packer.Bytes wrote: a slice of the form itself (not a
// copy: valid while the form's bytes are).
func (u *Unpacker) Bytes() []byte {
	n := u.Uint()
	if u.bad || n > uint64(len(u.b)-u.at) {
		u.bad = true
		return nil
	}
	b := u.b[u.at : u.at+int(n)]
	u.at += int(n)
	return b
}

// OK says nothing read so far was damaged.
func (u *Unpacker) OK() bool { return !u.bad }

// Fail marks the form damaged (a value read from it did not decode).
func (u *Unpacker) Fail() { u.bad = true }

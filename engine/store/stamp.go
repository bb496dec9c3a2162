package store

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"time"

	"github.com/memscope/memscope/engine/scan"
)

// FileStamp is what memscope saw of a file when it read it: whether it
// existed, its size, mtime and the SHA-256 of its bytes. A write is
// refused when the file on disk no longer matches the stamp taken when
// memscope read it.
type FileStamp struct {
	Exists  bool      `json:"exists"`
	Size    int64     `json:"size,omitempty"`
	ModTime time.Time `json:"mtime,omitzero"`
	SHA256  string    `json:"sha256,omitempty"`
}

// StampOf stamps data read from a file with info (nil info: no mtime).
func StampOf(data []byte, exists bool, info fs.FileInfo) FileStamp {
	if !exists {
		return FileStamp{}
	}
	s := FileStamp{Exists: true, Size: int64(len(data)), SHA256: hashBytes(data)}
	if info != nil {
		s.ModTime = info.ModTime()
	}
	return s
}

// Hash is the hex SHA-256 of data: what stamps and the journal's
// after name a file's bytes by (provenance and the review state compare
// files with it).
func Hash(data []byte) string {
	h := sha256.Sum256(data)
	return hex.EncodeToString(h[:])
}

func hashBytes(data []byte) string { return Hash(data) }

// ConflictError refuses a write because a file changed on disk since
// memscope read it (someone else, often Claude Code, wrote it). Nothing
// was written; reload and try again.
type ConflictError struct {
	// Path is the file, relative to the memory folder.
	Path string `json:"path"`
	// Read is the file as memscope read it; Now as it is on disk.
	Read FileStamp `json:"read"`
	Now  FileStamp `json:"now"`
	// During names what was being done, e.g. "undo".
	During string `json:"during,omitempty"`
}

// ScanBlockedError refuses a write because the security scan found
// high-severity issues in what would be written. Nothing was written;
// WriteOptions.Force writes anyway.
type ScanBlockedError struct {
	Findings []scan.Finding `json:"findings"`
}

// ErrNothingToUndo is returned by Undo when the journal is empty.
var ErrNothingToUndo = errors.New("nothing to undo: the journal is empty")

// SameContent reports whether two stamps describe the same bytes. The
// mtime is not compared: a file touched without a change loses nothing
// when it is overwritten, while a change within the mtime's granularity
// still shows in the hash.
func (s FileStamp) SameContent(o FileStamp) bool {
	return s.Exists == o.Exists && s.Size == o.Size && s.SHA256 == o.SHA256
}

func (s FileStamp) describe() string {
	if !s.Exists {
		return "absent"
	}
	d := fmt.Sprintf("%d bytes", s.Size)
	if s.Size == 0 && s.ModTime.IsZero() && len(s.SHA256) >= 12 {
		// A journaled state: only the hash is known.
		d = "sha256 " + s.SHA256[:12] + "…"
	}
	if !s.ModTime.IsZero() {
		d += ", modified " + s.ModTime.UTC().Format(time.RFC3339)
	}
	return d
}

func (e *ConflictError) Error() string {
	what := "write"
	if e.During != "" {
		what = e.During
	}
	return fmt.Sprintf("%s refused: %s changed on disk since memscope read it (then %s, now %s); nothing was written — reload and try again",
		what, e.Path, e.Read.describe(), e.Now.describe())
}

func (e *ScanBlockedError) Error() string {
	var b strings.Builder
	// How to write anyway is the caller's to say (a y/n, a --force).
	b.WriteString("write blocked by the security scan: ")
	for i, f := range e.Findings {
		if i == 5 {
			fmt.Fprintf(&b, "; and %d more", len(e.Findings)-5)
			break
		}
		if i > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "%s:%d %s: %s", f.Path, f.Line, f.Rule, f.Message)
	}
	return b.String()
}

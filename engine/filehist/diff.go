package filehist

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"

	"github.com/memscope/memscope/engine/internal/udiff"
	"github.com/memscope/memscope/engine/store"
	"github.com/memscope/memscope/model"
)

// VersionRef names one side of a file-history diff: a version of the
// file, or the file on disk now.
type VersionRef struct {
	Version int  `json:"version,omitempty"`
	Disk    bool `json:"disk,omitempty"`
}

// DiskRef is the file on disk now.
var DiskRef = VersionRef{Disk: true}

// ParseVersionRef reads "3", "v3" or "disk".
func ParseVersionRef(s string) (VersionRef, error) {
	if s == "disk" {
		return DiskRef, nil
	}
	n, err := strconv.Atoi(strings.TrimPrefix(s, "v"))
	if err != nil || n < 0 {
		return VersionRef{}, fmt.Errorf("version %q: want a version number or disk", s)
	}
	return VersionRef{Version: n}, nil
}

// ParseVersionRange reads "V1..V2", "V1..disk" or "V" (V and the next
// version, or disk when V is the newest). It needs the file to know the
// next version.
func ParseVersionRange(s string, f *TrackedFile) (from, to VersionRef, err error) {
	a, b, two := strings.Cut(s, "..")
	if from, err = ParseVersionRef(a); err != nil {
		return from, to, err
	}
	if two {
		to, err = ParseVersionRef(b)
		return from, to, err
	}
	to = DiskRef
	for _, v := range f.Versions {
		if !from.Disk && v.Version > from.Version && (to.Disk || v.Version < to.Version) {
			to = VersionRef{Version: v.Version}
		}
	}
	return from, to, nil
}

// ReadFileVersion reads one side of a diff: a version's backup from the
// home fsys (exists false for a null backup), or the file on disk. A
// missing backup, or a target that is a folder, is an error.
func ReadFileVersion(fsys fs.FS, f *TrackedFile, ref VersionRef) (data []byte, exists bool, err error) {
	if ref.Disk {
		st, err := os.Lstat(f.Target)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, false, nil
		}
		if err != nil {
			return nil, false, fmt.Errorf("read %s: %w", f.Target, err)
		}
		if !st.Mode().IsRegular() {
			// A link or a device could stand for anything (/dev/zero
			// never ends); restores refuse them too.
			return nil, false, fmt.Errorf("read %s: %s", f.Target, model.NotRegularReason(st.Mode()))
		}
		data, err := model.ReadRegularFile(f.Target, model.MaxBackupBytes)
		if err != nil {
			return nil, false, fmt.Errorf("read %s: %w", f.Target, err)
		}
		return data, true, nil
	}
	v, ok := f.Version(ref.Version)
	if !ok {
		return nil, false, fmt.Errorf("%s has no version %d", f.TrackingPath, ref.Version)
	}
	if v.Absent {
		return nil, false, nil
	}
	if v.Mode.Type() != 0 {
		return nil, false, fmt.Errorf("backup %s of %s v%d %s", v.BackupPath, f.TrackingPath, v.Version, model.NotRegularReason(v.Mode))
	}
	data, err = model.ReadFileBounded(fsys, v.BackupPath, model.MaxBackupBytes)
	if err != nil {
		return nil, false, fmt.Errorf("read backup %s of %s v%d: %w", v.BackupPath, f.TrackingPath, v.Version, err)
	}
	return data, true, nil
}

// FileVersionDiff is the unified diff from one version of a tracked file
// to another (or to the file on disk); "" when they are the same. Binary
// content (a NUL byte) is reported in one line instead of diffed.
func FileVersionDiff(fsys fs.FS, f *TrackedFile, from, to VersionRef) (string, error) {
	a, aok, err := ReadFileVersion(fsys, f, from)
	if err != nil {
		return "", err
	}
	b, bok, err := ReadFileVersion(fsys, f, to)
	if err != nil {
		return "", err
	}
	return contentDiff(f.TrackingPath+"@"+from.String(), f.TrackingPath+"@"+to.String(), a, aok, b, bok), nil
}

// contentDiff is unifiedDiff, or one line for binary content.
func contentDiff(fromName, toName string, a []byte, aok bool, b []byte, bok bool) string {
	if (bytes.IndexByte(a, 0) >= 0 || bytes.IndexByte(b, 0) >= 0) && (aok != bok || !bytes.Equal(a, b)) {
		return fmt.Sprintf("Binary files %s and %s differ\n", fromName, toName)
	}
	return udiff.Named(fromName, toName, a, aok, b, bok)
}

// StampBytes stamps bytes read from a file: exists, size and SHA-256.
func StampBytes(data []byte) store.FileStamp { return store.StampOf(data, true, nil) }

func (r VersionRef) String() string {
	if r.Disk {
		return "disk"
	}
	return "v" + strconv.Itoa(r.Version)
}

package secrets

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/memscope/memscope/engine/store"
	"io"
	"io/fs"
	"path"
	"path/filepath"
	"time"

	"github.com/memscope/memscope/model"
)

// A scrub's copy is one file, written and read as a stream so that what
// memscope writes it can always read back, however many secrets it holds
// (520 000 secrets make some 80 MiB): manifest.jsonl, one JSON value per
// line:
//
//	{"id":…,"time":…,"files":[{"file":…,"edits":N},…]}   the header
//	{"file":…,"mode":…,"mtime":…,"before":…,"after":…,"edits":N}
//	{"rule":…,"offset":…,"afterOffset":…,"marker":…,"bytes":…}   N lines
//	…                                                   the next file
//
// Each line is bounded (manifestLineMax), not the file. A copy written
// before, manifest.json (one JSON value, at most model.MaxJournalBytes),
// is still read.
const (
	manifestName    = "manifest.jsonl"
	oldManifestName = "manifest.json"
)

// manifestLineMax bounds one line of a manifest: a header naming every
// file, or one saved secret. A variable so a test can make it small.
var manifestLineMax = 16 << 20

// manifestHeader is a manifest's first line: enough to list the copy.
type manifestHeader struct {
	ID    string        `json:"id"`
	Time  time.Time     `json:"time"`
	Files []headerEntry `json:"files"`
}

type headerEntry struct {
	File  string `json:"file"`
	Edits int    `json:"edits"`
}

// fileLine is a file's line: the file without its edits, and how many
// edit lines follow.
type fileLine struct {
	manifestFile
	Edits int `json:"edits"`
}

// saveManifest writes m into dir (made 0700), atomically, streamed. The
// edits of m's file i are put by edits(i, put) when edits is set (a
// scrub reads them from the file as the copy is written; m's files
// count them in listed), else they are m's.
func saveManifest(wfs model.WriteFS, dir string, m manifest, edits func(i int, put func(savedEdit) error) error) error {
	if err := wfs.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("mkdir %s: %w", dir, err)
	}
	err := model.WriteFileAtomicFrom(wfs, filepath.Join(dir, manifestName), 0o600, func(w io.Writer) error {
		bw := bufio.NewWriterSize(w, 1<<20)
		enc := json.NewEncoder(bw)
		h := manifestHeader{ID: m.ID, Time: m.Time}
		for _, f := range m.Files {
			h.Files = append(h.Files, headerEntry{File: f.File, Edits: len(f.Edits) + f.listed})
		}
		if err := enc.Encode(h); err != nil {
			return err
		}
		for i, f := range m.Files {
			fl := fileLine{manifestFile: f, Edits: len(f.Edits) + f.listed}
			fl.manifestFile.Edits = nil
			if err := enc.Encode(fl); err != nil {
				return err
			}
			n := 0
			put := func(e savedEdit) error {
				n++
				return enc.Encode(e)
			}
			var err error
			if edits != nil {
				err = edits(i, put)
			} else {
				for _, e := range f.Edits {
					if err = put(e); err != nil {
						break
					}
				}
			}
			if err != nil {
				return err
			}
			if n != fl.Edits {
				return fmt.Errorf("%s: %d secrets saved, %d planned", f.File, n, fl.Edits)
			}
		}
		return bw.Flush()
	})
	if err != nil {
		removeCopy(wfs, dir)
		return err
	}
	return nil
}

// readManifest reads copy id's manifest; with edits false only its
// header (what a listing shows): the files and how many secrets each.
func readManifest(h *model.Home, id string, edits bool) (manifest, error) {
	var m manifest
	if err := checkID(id); err != nil {
		return m, err
	}
	name := path.Join(CopyDir, id, manifestName)
	f, err := model.OpenRegularFile(h.Abs(name))
	if errors.Is(err, fs.ErrNotExist) {
		return readOldManifest(h, id)
	}
	if err != nil {
		return m, err
	}
	defer f.Close()
	lr := model.NewLineReader(f)
	lr.MaxLine = manifestLineMax
	line := 0 // the last line next read
	next := func(v any) error {
		l, ok := lr.Next()
		line = l.Number
		switch {
		case !ok && lr.Err() != nil:
			return fmt.Errorf("read scrub %s: %w", id, lr.Err())
		case !ok:
			return fmt.Errorf("read scrub %s: %s ends early", id, h.Abs(name))
		case l.TooLong:
			return fmt.Errorf("read scrub %s: %s line %d is longer than %d bytes", id, h.Abs(name), l.Number, manifestLineMax)
		}
		if err := json.Unmarshal(l.Bytes, v); err != nil {
			return fmt.Errorf("read scrub %s: %s line %d: %w", id, h.Abs(name), l.Number, err)
		}
		return nil
	}
	var hdr manifestHeader
	l, ok := lr.Next()
	if !ok || l.TooLong {
		return m, fmt.Errorf("read scrub %s: %s has no header line", id, h.Abs(name))
	}
	if err := json.Unmarshal(l.Bytes, &hdr); err != nil {
		return m, fmt.Errorf("read scrub %s: %s line 1: %w", id, h.Abs(name), err)
	}
	m.ID, m.Time = hdr.ID, hdr.Time
	if m.ID != id {
		return m, fmt.Errorf("scrub copy %s names itself %q", id, m.ID)
	}
	for _, e := range hdr.Files {
		mf := manifestFile{File: e.File}
		if edits {
			var fl fileLine
			if err := next(&fl); err != nil {
				return m, err
			}
			if fl.File != e.File || fl.Edits != e.Edits {
				return m, fmt.Errorf("read scrub %s: %s: file %s is not the one its header names", id, h.Abs(name), fl.File)
			}
			mf = fl.manifestFile
			if err := mf.checkSizes(); err != nil {
				return m, fmt.Errorf("read scrub %s: %s line %d: %w", id, h.Abs(name), line, err)
			}
			mf.Edits = make([]savedEdit, fl.Edits)
			for i := range mf.Edits {
				if err := next(&mf.Edits[i]); err != nil {
					return m, err
				}
			}
		} else {
			mf.listed = e.Edits
		}
		m.Files = append(m.Files, mf)
	}
	return m, nil
}

// readOldManifest reads a copy written as one JSON value (manifest.json).
func readOldManifest(h *model.Home, id string) (manifest, error) {
	var m manifest
	data, err := model.ReadFileBounded(h.FS, path.Join(CopyDir, id, oldManifestName), model.MaxJournalBytes)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return m, fmt.Errorf("%w: no scrub %s in %s (memscope secrets lists them)", ErrNoCopy, id, h.Abs(CopyDir))
		}
		return m, err
	}
	if err := json.Unmarshal(data, &m); err != nil {
		return m, fmt.Errorf("read scrub %s: %w", id, err)
	}
	if m.ID != id {
		return m, fmt.Errorf("scrub copy %s names itself %q", id, m.ID)
	}
	for _, f := range m.Files {
		if err := f.checkSizes(); err != nil {
			return m, fmt.Errorf("read scrub %s: %s: %w", id, h.Abs(path.Join(CopyDir, id, oldManifestName)), err)
		}
	}
	return m, nil
}

// checkSizes refuses a file's stamps that no file can have: a negative
// size (a damaged or hand-edited manifest; a restore cut the file at
// it and crashed).
func (f manifestFile) checkSizes() error {
	for _, s := range []struct {
		name  string
		stamp store.FileStamp
	}{{"before", f.Before}, {"after", f.After}} {
		if s.stamp.Size < 0 {
			return fmt.Errorf("file %s: its size %s the scrub is %d", f.File, s.name, s.stamp.Size)
		}
	}
	return nil
}

// removeCopy deletes a copy folder (its manifest, then the folder).
func removeCopy(wfs model.WriteFS, dir string) error {
	for _, name := range []string{manifestName, oldManifestName} {
		if err := wfs.Remove(filepath.Join(dir, name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	if err := wfs.Remove(dir); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

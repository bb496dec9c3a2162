package enginetest

import (
	"github.com/memscope/memscope/engine/homepass"
	"github.com/memscope/memscope/model"
)

// ReadAll is a homepass consumer that wants every file and keeps
// nothing: a test's stand-in for the passes that have the shared reader
// read a file, so that the consumers riding on them (homepass.Rider) are
// fed.
type ReadAll struct{}

func (ReadAll) Want(model.TranscriptFile, model.FileStamp) homepass.File { return nopFile{} }

func (ReadAll) Done() error { return nil }

type nopFile struct{}

func (nopFile) Line(model.Line) {}

func (nopFile) End(int64, error, bool) {}

package model_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/memscope/memscope/internal/faultfs"
	"github.com/memscope/memscope/model"
)

func TestProbeWritable(t *testing.T) {
	tests := []struct {
		name     string
		sub      string // probed folder under a fresh temp dir
		fault    *faultfs.FS
		readOnly bool  // want a *model.ReadOnlyError
		errno    error // want errors.Is
		leftover bool  // the probe's file may stay (its removal failed)
	}{
		{name: "writable", sub: "memory"},
		{name: "missing folder probed at its parent", sub: "projects/x/memory"},
		{name: "read-only mount", sub: "memory", fault: &faultfs.FS{Step: faultfs.StepCreateTemp, Err: syscall.EROFS}, readOnly: true, errno: syscall.EROFS},
		{name: "no permission", sub: "memory", fault: &faultfs.FS{Step: faultfs.StepCreateTemp, Err: syscall.EACCES}, readOnly: true, errno: syscall.EACCES},
		{name: "full disk is not read-only", sub: "memory", fault: &faultfs.FS{Step: faultfs.StepCreateTemp, Err: syscall.ENOSPC}, errno: syscall.ENOSPC},
		{name: "unreadable parent", sub: "a/b", fault: &faultfs.FS{Step: faultfs.StepStat, Err: syscall.EACCES}, readOnly: true, errno: syscall.EACCES},
		{name: "probe file not removable", sub: "memory", fault: &faultfs.FS{Step: faultfs.StepRemove, Err: syscall.EIO}, errno: syscall.EIO, leftover: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			if err := os.MkdirAll(filepath.Join(root, "memory"), 0o755); err != nil {
				t.Fatal(err)
			}
			dir := filepath.Join(root, tt.sub)
			var w model.WriteFS = model.OSWriteFS{}
			if tt.fault != nil {
				w = tt.fault
			}
			err := model.ProbeWritable(w, dir)
			var ro *model.ReadOnlyError
			if got := errors.As(err, &ro); got != tt.readOnly {
				t.Errorf("err = %v, read-only %v, want %v", err, got, tt.readOnly)
			}
			if ro != nil && (ro.Dir != dir || !strings.Contains(err.Error(), dir)) {
				t.Errorf("%v does not name %s", err, dir)
			}
			if tt.errno == nil && err != nil || tt.errno != nil && !errors.Is(err, tt.errno) {
				t.Errorf("err = %v, want %v", err, tt.errno)
			}
			var left []string
			filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
				if err == nil && strings.Contains(d.Name(), "-probe-") {
					left = append(left, p)
				}
				return nil
			})
			if len(left) > 0 != tt.leftover {
				t.Errorf("probe files left: %q", left)
			}
			if tt.sub == "projects/x/memory" {
				if _, err := os.Stat(filepath.Join(root, "projects")); !errors.Is(err, os.ErrNotExist) {
					t.Error("the probe created the missing folders")
				}
			}
		})
	}
}

// model.AsReadOnly wraps only refusals, and only once.
func TestAsReadOnly(t *testing.T) {
	rofs := &os.PathError{Op: "open", Path: "/x", Err: syscall.EROFS}
	tests := []struct {
		err  error
		want bool
	}{
		{nil, false},
		{rofs, true},
		{&os.PathError{Op: "open", Path: "/x", Err: syscall.EPERM}, true},
		{&os.PathError{Op: "open", Path: "/x", Err: syscall.ENOSPC}, false},
		{&model.ReadOnlyError{Dir: "/inner", Err: rofs}, true},
	}
	for _, tt := range tests {
		got := model.AsReadOnly("/home/memory", tt.err)
		var ro *model.ReadOnlyError
		if errors.As(got, &ro) != tt.want {
			t.Errorf("model.AsReadOnly(%v) = %v", tt.err, got)
		}
		if tt.err == nil && got != nil || tt.err != nil && !errors.Is(got, tt.err) {
			t.Errorf("model.AsReadOnly(%v) lost the error: %v", tt.err, got)
		}
		if strings.Count(got2s(got), "read-only: memscope") > 1 {
			t.Errorf("wrapped twice: %v", got)
		}
	}
}

func got2s(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

//go:build unix

package live

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/memscope/memscope/model"
)

// A transcript path or MEMORY.md that is a FIFO must not hang the status
// line (opening a FIFO waits for a writer) nor the tracker.
func TestFIFOsDoNotBlock(t *testing.T) {
	h := newStatusHome(t)
	for _, p := range []string{h.transcript, filepath.Join(h.memDir, "MEMORY.md")} {
		writeFile(t, h.home, rel(h, p), "")
		if err := syscall.Unlink(p); err != nil {
			t.Fatal(err)
		}
		if err := syscall.Mkfifo(p, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	done := make(chan Status, 1)
	go func() { done <- Statusline([]byte(h.input(50000, 200000)), h.opts) }()
	select {
	case st := <-done:
		if st.Line != "ctx 25% · $0.50" || !strings.Contains(st.Reason, "not a regular file") {
			t.Errorf("status %+v", st)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the status line blocked on a FIFO")
	}
	home, err := model.OpenHome(h.home, model.HomeFromFlag)
	if err != nil {
		t.Fatal(err)
	}
	errc := make(chan error, 1)
	go func() {
		_, err := model.TailTranscript(home.FS, rel(h, h.transcript), model.TailState{}, ScanOptions, nil)
		errc <- err
	}()
	select {
	case err := <-errc:
		if err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("tail of a FIFO: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the tail reader blocked on a FIFO")
	}
}

package homepass

import (
	"testing"
	"time"
)

// A Due's Wait returns at once when nothing is due, waits while a pass
// is expected until Resolve or Started, and after Started no Expect
// makes anyone wait again (only the start's pass is waited for).
func TestDue(t *testing.T) {
	// DueWait is made long so that only the rules end each wait.
	old := DueWait
	DueWait = time.Hour
	defer func() { DueWait = old }()
	var d Due
	d.Wait() // nothing due: returns
	d.Expect()
	waited := make(chan struct{})
	go func() { d.Wait(); close(waited) }()
	d.Resolve()
	<-waited
	d.Expect()
	waited = make(chan struct{})
	go func() { d.Wait(); close(waited) }()
	d.Started()
	<-waited
	d.Expect()
	done := make(chan struct{})
	go func() { d.Wait(); close(done) }()
	<-done
	var nilDue *Due
	nilDue.Expect()
	nilDue.Wait()
	nilDue.Resolve()
}

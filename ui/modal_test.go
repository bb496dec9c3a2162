package ui

import "testing"

// The modal stack: the top takes the keys; a question pushed while the
// help overlay is open waits under it (the overlay keeps the keys, as
// before the stack), and comes up when the overlay closes; pushing a
// kind again replaces it.
func TestModalStackPrecedence(t *testing.T) {
	var s modalStack
	if _, ok := s.top(); ok {
		t.Fatal("an empty stack has a top")
	}
	s.push(modal{kind: modalHelp})
	q := &confirmState{text: "write anyway? y/n"}
	s.push(modal{kind: modalConfirm, confirm: q})
	if top, _ := s.top(); top.kind != modalHelp || s.question() != q {
		t.Fatalf("a question over help: top %v, question %v", top.kind, s.question())
	}
	s.push(modal{kind: modalError})
	if top, _ := s.top(); top.kind != modalError {
		t.Fatalf("the last error is under %v", top.kind)
	}
	s.remove(modalError)
	s.remove(modalHelp)
	if top, _ := s.top(); top.kind != modalConfirm || top.confirm != q {
		t.Fatalf("after help closed the top is %v", top.kind)
	}
	q2 := &confirmState{text: "another"}
	s.push(modal{kind: modalConfirm, confirm: q2})
	if s.n != 1 || s.question() != q2 {
		t.Errorf("a second question: %d modals, question %v", s.n, s.question())
	}
	s.remove(modalConfirm)
	if s.has(modalConfirm) || s.n != 0 {
		t.Error("the question is still open after remove")
	}
}

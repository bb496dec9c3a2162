package extract

import "testing"

// TestCleanMessageWithoutTagsCopiesOnce checks a message without a '<'
// (most) is not lower-cased to look for the wrapper tags it cannot hold:
// one allocation, the cleaned text, made at its size (main: also the
// lower-cased copy, and the builder grown line by line).
func TestCleanMessageWithoutTagsCopiesOnce(t *testing.T) {
	text := "Never mock the database.\nUse the test server, not mocks; keep it short."
	if n := testing.AllocsPerRun(20, func() { exCleanMessage(text) }); n != 1 {
		t.Errorf("exCleanMessage: %v allocations, want 1 (the cleaned text)", n)
	}
}

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

// TestClassifyFoldsTheCoreOnce checks classifyInstruction makes the
// sentence's core and its folded copy once (main: once for inMayTake's
// test and again for the rules, 7 allocations here): two folded copies
// of a sentence with capitals (the sentence's, for inIdiom, and its
// core's), the rest the content words' and the patterns'.
func TestClassifyFoldsTheCoreOnce(t *testing.T) {
	s := "The tests must use Pnpm, not npm."
	if _, ok := classifyInstruction(s, ""); !ok {
		t.Fatalf("%q is not an instruction", s)
	}
	if n := testing.AllocsPerRun(20, func() { classifyInstruction(s, "") }); n > 6 {
		t.Errorf("classifyInstruction: %v allocations, want at most 6", n)
	}
}
